// The requests phase: per operation verify sends, two properties over requests generated from the
// contract (generate.ts). `acceptance.<operationId>`: a valid request, boundary values included, is
// never refused (a code whose next step is to fix the request). `refusal.<operationId>`: a request
// that breaks exactly one rule of the contract, or carries a credential that is not the merchant's,
// is refused, never answered with success or pending. Every answer is checked besides (checks.ts).
import fc from 'fast-check';
import { codeOf, meaningOf } from '../checks.js';
import { type PhaseContext, runProperty } from '../context.js';
import { type Broken, brokenRequests, credentialRequests, draftArbitrary, type SentOperation, sentOperations, validRequest } from '../generate.js';
import type { Exchange } from '../types.js';
import type { Phase } from './index.js';

const codeText = (exchange: Exchange): string => {
  const { code } = codeOf(exchange.operationId, exchange.answer);
  return code === undefined ? 'no result code' : `code ${code.slice(0, 16)}`;
};

/** `acceptance.<operationId>`: valid requests are never refused. */
async function acceptance(ctx: PhaseContext, operationId: SentOperation, custId: string): Promise<void> {
  await runProperty(ctx, `acceptance.${operationId}`, draftArbitrary(operationId), async (draft, trial) => {
    const prepared = await validRequest(ctx, operationId, draft, custId);
    if (!prepared) return;
    const exchange = await trial.call(prepared.spec);
    if (meaningOf(exchange) === 'refused')
      trial.fail(
        'acceptance',
        'validRequestRefused',
        operationId,
        `A valid ${operationId} request was refused (${codeText(exchange)}): the contract takes it.`,
      );
  });
}

/** The broken requests of a valid one, grouped by what they break (each kind of rule, and credentials), so that every kind is drawn as often. */
function groupsOf(broken: Broken[]): Broken[][] {
  const groups = new Map<string, Broken[]>();
  for (const b of broken) {
    const kind = b.what.split(' ')[0] ?? '';
    groups.set(kind, [...(groups.get(kind) ?? []), b]);
  }
  return [...groups.values()];
}

/** `refusal.<operationId>`: a request that breaks one rule, or with a credential not the merchant's, is refused. */
async function refusal(ctx: PhaseContext, operationId: SentOperation, custId: string): Promise<void> {
  const arbitrary = fc.tuple(draftArbitrary(operationId), fc.noBias(fc.nat()), fc.noBias(fc.nat()));
  await runProperty(ctx, `refusal.${operationId}`, arbitrary, async ([draft, group, item], trial) => {
    const prepared = await validRequest(ctx, operationId, draft, custId);
    if (!prepared) return;
    const rules = brokenRequests(ctx, prepared);
    const credentials = group % (groupsOf(rules).length + 1) === 0 ? await credentialRequests(ctx, prepared, draft, custId) : [];
    const groups = groupsOf([...credentials, ...rules]);
    const chosen = groups[group % Math.max(1, groups.length)];
    const broken = chosen?.[item % chosen.length];
    if (!broken) return;
    const exchange = await trial.call(broken.spec);
    const meaning = meaningOf(exchange);
    if (meaning !== 'success' && meaning !== 'pending') return;
    const rule = broken.kind === 'credential' ? 'badCredentialAccepted' : 'invalidRequestAccepted';
    const message = `A ${operationId} request with ${broken.what} at ${broken.pointer} was answered with ${meaning} (${codeText(exchange)}): it must be refused.`;
    trial.fail('refusal', rule, operationId, message, broken.pointer);
  });
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
      }
    },
  };
}

export const requestsPhase: Phase = requestsPhaseFor(sentOperations());
