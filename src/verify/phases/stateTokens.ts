// A card token across calls and its notifications (3.1, D-42): tokenize the fixtures' card (ACTIVE
// at once, or INIT then a change), then, with the fixture that moves a token as its issuer would,
// sequences of moves the state table allows (ACTIVE -> SUSPENDED | DEAD, SUSPENDED -> ACTIVE | DEAD)
// run against a model. Each change verify drove must be notified within a bounded wait, and each
// notification is signed, well formed, of the merchant, of a token verify made, and a change the
// table allows (notifications.ts checks them as they arrive).
import fc from 'fast-check';
import { encryptCardData } from '../../card/encryptCardData.js';
import { type PhaseContext, runProperty, type Trial } from '../context.js';
import type { IssuerMove } from '../fixtures.js';
import type { NotificationReceiver } from '../notifications.js';
import { fixtureCall } from './fixtureCall.js';
import { at, codeText } from './stateExpect.js';

export const TOKEN_CHANGES = [
  'token: tokenized',
  'token: ACTIVE -> SUSPENDED',
  'token: SUSPENDED -> ACTIVE',
  'token: ACTIVE -> DEAD',
  'token: SUSPENDED -> DEAD',
] as const;

/** The moves verify drives, from each status (D-42, the package's table: the description shows none). */
const MOVES: Readonly<Record<string, readonly IssuerMove[]>> = {
  ACTIVE: ['SUSPENDED', 'DEAD'],
  SUSPENDED: ['ACTIVE', 'DEAD'],
};

interface TokenModel {
  status: string;
  stopped: boolean;
}

interface TokenReal {
  ctx: PhaseContext;
  trial: Trial;
  token: string;
  receiver: NotificationReceiver | undefined;
  waitMs: number;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The consent's time as the description writes it: `Jan 21, 2026 10:15:30 AM` (UTC). */
export function consentTime(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const hours = d.getUTCHours() % 12 === 0 ? 12 : d.getUTCHours() % 12;
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()} ${two(hours)}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ${d.getUTCHours() < 12 ? 'AM' : 'PM'}`;
}

/** Every problem of the token's notifications received so far, as findings of the trial. */
export function reportNotifications(real: Pick<TokenReal, 'trial' | 'receiver' | 'token'>): boolean {
  const received = real.receiver?.take(real.token) ?? [];
  let ok = true;
  for (const notification of received)
    for (const problem of notification.problems) {
      ok = false;
      real.trial.fail('notification', problem.rule, 'notifyTokenStatus', problem.message, problem.pointer);
    }
  return ok;
}

/** Waits for the notification of a change verify drove; none within the wait is `notificationMissing`. */
async function expectNotification(real: TokenReal, statuses: readonly string[], what: string): Promise<boolean> {
  if (!real.receiver) return true;
  const came = await real.receiver.waitFor(real.token, (s) => statuses.includes(s), real.waitMs);
  const wellFormed = reportNotifications(real);
  if (!came)
    real.trial.fail(
      'notification',
      'notificationMissing',
      'notifyTokenStatus',
      `${what}, and no notification saying ${statuses.join(' or ')} came within ${real.waitMs} ms.`,
    );
  return came && wellFormed;
}

class Move implements fc.AsyncCommand<TokenModel, TokenReal> {
  constructor(private readonly to: IssuerMove) {}
  check = (m: Readonly<TokenModel>) => !m.stopped && (MOVES[m.status] ?? []).includes(this.to);
  async run(m: TokenModel, real: TokenReal): Promise<void> {
    const move = real.ctx.fixtures.moveToken;
    if (!move) {
      m.stopped = true;
      return;
    }
    await fixtureCall('moveToken()', () => move(real.token, this.to));
    real.ctx.coverage.change(`token: ${m.status} -> ${this.to}`);
    const from = m.status;
    m.status = this.to;
    m.stopped = !(await expectNotification(real, [this.to], `The token was moved from ${from} to ${this.to}`));
  }
  toString = () => `moveToken(${this.to})`;
}

// Arrays of moves, not fc.commands, so that --replay reruns a shrunk sequence (stateOrders.ts says
// why). Weighted: DEAD ends a sequence; without the weight few short runs suspend a token and resume it.
const tokenCommands: fc.Arbitrary<Move[]> = fc.array(
  fc.oneof(
    { arbitrary: fc.constant(new Move('SUSPENDED')), weight: 2 },
    { arbitrary: fc.constant(new Move('ACTIVE')), weight: 2 },
    fc.constant(new Move('DEAD')),
  ),
  { maxLength: 5 },
);

/** Sequences every run tries first: every move of the table. */
const TOKEN_EXAMPLES: readonly Move[][] = [
  [new Move('SUSPENDED'), new Move('ACTIVE'), new Move('SUSPENDED'), new Move('DEAD')],
  [new Move('DEAD')],
];

/** Tokenizes the fixtures' card; the token and its status, or undefined when the service made none. */
async function tokenize(ctx: PhaseContext, trial: Trial): Promise<{ token: string; status: string } | undefined> {
  const { card } = ctx.fixtures.instruments;
  const encryptedCardData = await encryptCardData(
    {
      cardNumber: card.number,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      securityCode: card.securityCode,
    },
    await fixtureCall('cardEncryptionKey()', () => ctx.fixtures.cardEncryptionKey()),
  );
  const exchange = await trial.call({
    operationId: 'tokenizeCard',
    body: {
      cardSource: 'MANUAL_ENTERED',
      encryptedCardData,
      userInfo: { custId: ctx.fresh('C') },
      tokenizationConsent: { userConsent: 1, createdAt: consentTime(Date.now()), platform: 'API' },
    },
    note: "tokenize the fixtures' card",
  });
  const token = at(exchange.answer, 'body', 'tokenIndexNumber');
  const status = at(exchange.answer, 'body', 'tokenStatus');
  if (typeof token !== 'string' || (status !== 'ACTIVE' && status !== 'INIT')) {
    trial.fail(
      'acceptance',
      'tokenizeRefused',
      'tokenizeCard',
      `The fixtures' card (one that tokenizes ACTIVE) is answered ${codeText(exchange)} with no ACTIVE or INIT token.`,
    );
    return undefined;
  }
  ctx.coverage.change('token: tokenized');
  return { token, status };
}

/** Tokens across calls and their notifications: a model-based property, each trial one fresh token. */
export async function checkTokens(
  ctx: PhaseContext,
  receiver: NotificationReceiver | undefined,
  waitMs: number,
): Promise<void> {
  await runProperty(
    ctx,
    'state.token',
    tokenCommands,
    async (commands, trial) => {
      const made = await tokenize(ctx, trial);
      if (!made) return;
      receiver?.track(made.token, made.status);
      const real: TokenReal = { ctx, trial, token: made.token, receiver, waitMs };
      // Tokenize notifies a token that is ACTIVE at once; an INIT token, its change.
      const first = made.status === 'ACTIVE' ? ['ACTIVE'] : ['ACTIVE', 'FAILED'];
      const came = await expectNotification(real, first, `The token was tokenized ${made.status}`);
      if (!came || made.status !== 'ACTIVE') return;
      await fc.asyncModelRun(() => ({ model: { status: made.status, stopped: false }, real }), commands);
    },
    { runs: Math.min(ctx.runs, 8), examples: TOKEN_EXAMPLES },
  );
}
