// Card tokens made by tokenize, and their life: INIT becomes ACTIVE or FAILED after a delay (or on a
// control call), ACTIVE and SUSPENDED move between each other, and either may become DEAD. Every
// change sends the token status notification (section 6). The description shows no transitions
// (3.1); these are the sandbox's, recorded in docs/decisions.md.
import type { Schemas } from '../types.js';
import type { Clock } from './clock.js';
import type { SandboxConfig } from './config.js';
import { newTokenIndexNumber, randomDigits } from './ids.js';
import type { CardInstrument } from './instruments.js';
import type { CardToken, WebhookDelivery } from './records.js';
import type { Scheduler } from './scheduler.js';
import type { Store } from './store.js';
import type { Webhooks } from './webhooks/index.js';

type TokenStatus = Schemas['TokenStatus'];

/** Which status each status may move to. */
export const TRANSITIONS: Readonly<Record<TokenStatus, readonly TokenStatus[]>> = Object.freeze({
  INIT: ['ACTIVE', 'FAILED'],
  ACTIVE: ['SUSPENDED', 'DEAD'],
  SUSPENDED: ['ACTIVE', 'DEAD'],
  FAILED: [],
  DEAD: [],
});

const TOKEN_BINS: Readonly<Record<string, string>> = { VISA: '489537', MASTER: '522223', RUPAY: '608001' };

/** The status changes a token's history keeps, the latest ones (D-67): a token moved back and forth keeps a bounded record. */
export const MAX_TOKEN_HISTORY = 20;

/** The card a token is made for (the card number itself is not kept: only its last four digits). */
export interface TokenSpec {
  mid: string;
  custId: string;
  card: CardInstrument;
  cardSuffix: string;
  expiryMonth: string;
  expiryYear: string;
}

/** The answer to a move: the delivery of its notification, or why the move is not allowed. */
export type TokenMove =
  | { allowed: true; delivery: WebhookDelivery }
  | { allowed: false; from: TokenStatus; to: TokenStatus; possible: readonly TokenStatus[] };

export interface CardTokens {
  /** A new token in `status`; an INIT token becomes `then` (default ACTIVE) after the activation delay. */
  create(spec: TokenSpec, status: 'ACTIVE' | 'FAILED' | 'INIT', then?: 'ACTIVE' | 'FAILED'): CardToken;
  /** Moves a token (control call). Resolves with the delivery of the notification, or with the reason the move is not allowed. */
  move(token: CardToken, status: TokenStatus): Promise<TokenMove>;
}

/** The token as the notification carries it (TokenInfo, section 2.2). */
export function tokenInfo(token: CardToken): Schemas['TokenInfo'] {
  return {
    tokenIndexNumber: token.tokenIndexNumber,
    cardScheme: token.cardScheme,
    tokenExpiry: token.tokenExpiry,
    issuingBankName: token.issuingBankName,
    cardSuffix: token.cardSuffix,
    ...(token.tokenUniqueReference ? { tokenUniqueReference: token.tokenUniqueReference } : {}),
    panUniqueReference: token.panUniqueReference,
    cardType: token.cardType,
    displayName: token.displayName,
    tokenSuffix: token.tokenSuffix,
    tokenStatus: token.tokenStatus,
    tokenBin: token.tokenBin,
  };
}

export function createCardTokens({
  store,
  clock,
  scheduler,
  webhooks,
  config,
}: {
  store: Store;
  clock: Clock;
  scheduler: Scheduler;
  webhooks: Webhooks;
  config: SandboxConfig;
}): CardTokens {
  /** The scheduled change of each INIT token, cancelled when the store forgets the token. */
  const scheduledChanges = new WeakMap<CardToken, () => void>();
  store.forgotten.cardToken = (token) => scheduledChanges.get(token)?.();

  /** Changes the status and notifies the merchant. */
  function setStatus(token: CardToken, status: TokenStatus): Promise<WebhookDelivery> {
    // A token leaving INIT by a control call no longer needs its scheduled change.
    scheduledChanges.get(token)?.();
    scheduledChanges.delete(token);
    token.tokenStatus = status;
    if (status === 'ACTIVE' && !token.tokenUniqueReference) token.tokenUniqueReference = `DNITHE${randomDigits(18)}`;
    token.history.push({ status, at: new Date(clock.now()).toISOString() });
    if (token.history.length > MAX_TOKEN_HISTORY) token.history.splice(0, token.history.length - MAX_TOKEN_HISTORY);
    return webhooks.notify(token.mid, tokenInfo(token));
  }

  return {
    create(spec, status, then) {
      const cardKind = spec.card.cardType === 'DC' ? 'Debit' : 'Credit';
      const token: CardToken = {
        tokenIndexNumber: newTokenIndexNumber(),
        mid: spec.mid,
        custId: spec.custId,
        // A seed may name a scheme the contract does not know: its notifications then break the
        // contract, the sender refuses them, and the delivery is recorded as failed.
        cardScheme: spec.card.scheme as Schemas['CardScheme'],
        cardType: spec.card.cardType,
        issuingBankName: spec.card.issuingBankName,
        cardSuffix: spec.cardSuffix,
        tokenBin: TOKEN_BINS[spec.card.scheme] ?? '400000',
        tokenSuffix: randomDigits(4),
        tokenExpiry: `${spec.expiryMonth}${spec.expiryYear}`,
        panUniqueReference: `PUR${randomDigits(21)}`,
        displayName: `${spec.card.issuingBankName} ${spec.card.scheme} ${cardKind}`,
        tokenStatus: 'INIT',
        pay: spec.card.pay === 'invalid' ? 'failure' : spec.card.pay,
        createdAt: new Date(clock.now()).toISOString(),
        history: [],
      };
      store.putCardToken(token);
      if (status === 'INIT') {
        token.history.push({ status: 'INIT', at: token.createdAt });
        const finalStatus = then ?? 'ACTIVE';
        const cancel = scheduler.at(clock.now() + config.tokenActivationDelayMs, () => {
          scheduledChanges.delete(token);
          return token.tokenStatus === 'INIT' ? setStatus(token, finalStatus) : undefined;
        });
        scheduledChanges.set(token, cancel);
      } else {
        // Provisioning completed (or failed) at once: the notification goes out after the answer
        // (webhooks.notify sends asynchronously).
        setStatus(token, status);
      }
      return token;
    },
    async move(token, status) {
      const allowed = TRANSITIONS[token.tokenStatus];
      if (!allowed.includes(status)) return { allowed: false, from: token.tokenStatus, to: status, possible: allowed };
      return { allowed: true, delivery: await setStatus(token, status) };
    },
  };
}
