// What the merchant does next after a call. An answer's next step is the one its result code
// carries in the contract (`x-next-step`, DECISIONS.md D-52); a call without a usable answer, or
// an answer whose code is not in its table, gets one here (D-53), by whether the operation is
// idempotent (`x-idempotent` in the operation index, D-54).
import { operations } from '../../generated/operations.js';
import type { NextStepAction } from '../../generated/resultCodes.js';

export type { NextStepAction };

/** What to do next: one action of the contract's closed list, and where it comes from. */
export interface NextStep<A extends NextStepAction = NextStepAction> {
  readonly action: A;
  /** The description's words, where it states this step: its section, then the words in quotes. */
  readonly source?: string;
  /** The decision record that chose this step, where the description does not state it. */
  readonly decision?: string;
}

const step = <A extends NextStepAction>(action: A): NextStep<A> => Object.freeze({ action, decision: 'D-53' });

/** The outcome is unknown: learn it before sending again (D-53). */
export const QUERY_STATUS = step('query-status');
/** Nothing was done, or doing it again is harmless: send it again after a pause. */
export const RETRY_LATER = step('retry-later');
/** The request is refused as it is. */
export const FIX_REQUEST = step('fix-request');
/** Sending it again would get the same answer: a matter for the service. */
export const CONTACT_SERVICE = step('contact-service');

/**
 * Operations whose request may be sent twice without harm: the idempotent ones, and the token
 * status notification, whose receiver refuses a repeated requestId (D-35), so a second delivery
 * is never processed twice.
 */
const repeatable: ReadonlySet<string> = new Set(
  operations.filter((o) => o.idempotent || o.kind === 'webhook').map((o) => o.operationId),
);

/** Whether sending this operation's request twice is harmless (D-54). */
export function isRepeatable(operationId: string): boolean {
  return repeatable.has(operationId);
}

/** The next step when the outcome of a request that may have reached the other side is unknown. */
export function unknownOutcome(operationId: string): NextStep<'query-status' | 'retry-later'> {
  return repeatable.has(operationId) ? RETRY_LATER : QUERY_STATUS;
}
