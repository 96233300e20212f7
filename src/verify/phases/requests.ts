// The requests phase: per operation verify sends, two properties over requests generated from the
// contract (generate.ts). `acceptance.<operationId>`: a valid request, boundary values included, is
// never refused (a code whose next step is to fix the request). `refusal.<operationId>`: a request
// that breaks exactly one rule of the contract, or carries a credential that is not the merchant's,
// is refused, never answered with success or pending. Every answer is checked besides (checks.ts).
import fc from 'fast-check';
import { codeOf, meaningOf } from '../checks.js';
import { type PhaseContext, runProperty, Trial } from '../context.js';
import {
  type Broken,
  brokenRequests,
  credentialRequests,
  draftArbitrary,
  type SentOperation,
  sentOperations,
  specIsValid,
  validRequest,
} from '../generate.js';
import type { Exchange } from '../types.js';
import type { Phase } from './phase.js';

const codeText = (exchange: Exchange): string => {
  const { code } = codeOf(exchange.operationId, exchange.answer);
  return code === undefined ? 'no result code' : `code ${code.slice(0, 16)}`;
};

/** How many trials of a property sent a request: one that could not make its request valid sends nothing. */
interface Tally {
  trials: number;
  sent: number;
}

/** Says in the report when most trials of a check sent nothing: the fixtures' values do not fit the contract's rules. */
function noteTally(ctx: PhaseContext, name: string, tally: Tally): void {
  if (tally.trials > 0 && tally.sent * 2 < tally.trials)
    ctx.note(
      `${name}: ${tally.trials - tally.sent} of ${tally.trials} generated requests were not sent: with the run's values (fixtures, ids) they are not valid requests of the contract.`,
    );
}

/** `acceptance.<operationId>`: valid requests are never refused. */
async function acceptance(ctx: PhaseContext, operationId: SentOperation, custId: string): Promise<void> {
  const name = `acceptance.${operationId}`;
  const tally: Tally = { trials: 0, sent: 0 };
  await runProperty(ctx, name, draftArbitrary(operationId), async (draft, trial) => {
    tally.trials += 1;
    const prepared = await validRequest(ctx, operationId, draft, custId);
    if (!prepared) return;
    tally.sent += 1;
    const exchange = await trial.call(prepared.spec);
    if (meaningOf(exchange) === 'refused')
      trial.fail(
        'acceptance',
        'validRequestRefused',
        operationId,
        `A valid ${operationId} request was refused (${codeText(exchange)}): the contract takes it.`,
      );
  });
  noteTally(ctx, name, tally);
}

/** The broken requests of a valid one, grouped by what they break (each kind of rule, and credentials), so that every kind is drawn as often. */
function groupsOf(broken: Broken[]): Broken[][] {
  const groups = new Map<string, Broken[]>();
  for (const b of broken) groups.set(b.group, [...(groups.get(b.group) ?? []), b]);
  return [...groups.values()];
}

/**
 * The request of a group a trial sends: from its drawn index on, the first that is one (a request
 * refused for its credentials, or one the validators refuse: a mutation they still accept is none).
 */
function pick(ctx: PhaseContext, group: Broken[], item: number): Broken | undefined {
  for (let k = 0; k < group.length; k++) {
    const b = group[(item + k) % group.length];
    if (b && (b.kind === 'credential' || !specIsValid(ctx, b.spec))) return b;
  }
  return undefined;
}

/** `refusal.<operationId>`: a request that breaks one rule, or with a credential not the merchant's, is refused. */
async function refusal(ctx: PhaseContext, operationId: SentOperation, custId: string): Promise<void> {
  const name = `refusal.${operationId}`;
  const tally: Tally = { trials: 0, sent: 0 };
  const arbitrary = fc.tuple(draftArbitrary(operationId), fc.noBias(fc.nat()), fc.noBias(fc.nat()));
  await runProperty(ctx, name, arbitrary, async ([draft, group, item], trial) => {
    tally.trials += 1;
    const prepared = await validRequest(ctx, operationId, draft, custId);
    if (!prepared) return;
    const rules = brokenRequests(prepared);
    const credentials =
      group % (groupsOf(rules).length + 1) === 0 ? await credentialRequests(ctx, prepared, draft, custId) : [];
    const groups = groupsOf([...credentials, ...rules]);
    const chosen = groups[group % Math.max(1, groups.length)];
    const broken = chosen && pick(ctx, chosen, item);
    if (!broken) return;
    tally.sent += 1;
    const exchange = await trial.call(broken.spec);
    const meaning = meaningOf(exchange);
    if (meaning !== 'success' && meaning !== 'pending') return;
    const rule = broken.kind === 'credential' ? 'badCredentialAccepted' : 'invalidRequestAccepted';
    const message = `A ${operationId} request with ${broken.what} at ${broken.pointer} was answered with ${meaning} (${codeText(exchange)}): it must be refused.`;
    trial.fail('refusal', rule, operationId, message, broken.pointer);
  });
  noteTally(ctx, name, tally);
}

/**
 * `refusals.<operationId>`: every rule of one valid request broken in turn, and each credential
 * variant, each sent once per run: the drawn trials of `refusal.` explore, this sweep leaves no rule
 * of the contract unsent. Each broken request is a trial of its own, so a finding shows one exchange.
 */
async function sweep(ctx: PhaseContext, operationId: SentOperation, custId: string): Promise<void> {
  const name = `refusals.${operationId}`;
  await runProperty(
    ctx,
    name,
    draftArbitrary(operationId),
    async (draft) => {
      const prepared = await validRequest(ctx, operationId, draft, custId);
      if (!prepared) return;
      const credentials = await credentialRequests(ctx, prepared, draft, custId);
      const broken = [...credentials, ...brokenRequests(prepared).filter((b) => !specIsValid(ctx, b.spec))];
      const seen = new Set<string>();
      for (const b of broken) {
        const place = `${b.kind} ${b.what} ${b.pointer}`;
        if (seen.has(place)) continue;
        seen.add(place);
        const trial = new Trial(ctx);
        const exchange = await trial.call(b.spec);
        const meaning = meaningOf(exchange);
        if (meaning === 'success' || meaning === 'pending') {
          const rule = b.kind === 'credential' ? 'badCredentialAccepted' : 'invalidRequestAccepted';
          trial.fail(
            'refusal',
            rule,
            operationId,
            `A ${operationId} request with ${b.what} at ${b.pointer} was answered with ${meaning} (${codeText(exchange)}): it must be refused.`,
            b.pointer,
          );
        }
        for (const f of trial.findings) ctx.keep({ ...f, check: name });
      }
    },
    { runs: 1 },
  );
}

/** The requests phase over some operations (a test, or a run that checks only those). */
export function requestsPhaseFor(operationIds: readonly SentOperation[]): Phase {
  return {
    name: 'requests',
    async run(ctx) {
      const custId = ctx.fresh('C');
      for (const operationId of operationIds) {
        await acceptance(ctx, operationId, custId);
        await refusal(ctx, operationId, custId);
        await sweep(ctx, operationId, custId);
      }
    },
  };
}

export const requestsPhase: Phase = requestsPhaseFor(sentOperations());
