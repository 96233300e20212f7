// What the receiver says about a notification it refuses: a JSON Pointer, the rule and words a
// merchant understands, with the code of section 7.1 the reply carries (docs/decisions.md, D-34,
// D-37, D-105). Never a value of the payload, a signature or an error's message.
import type { ValidationIssue } from '../validation/operationValidation.js';
import { resultCodeFor } from '../validation/resultCodeRules.js';
import type { ReplyCode } from './reply.js';

/** An issue of the notification with the code it is answered with. */
export type ReceiverIssue = ValidationIssue & { resultCode: ReplyCode };

/**
 * An issue of the notification, with the code of section 7.1 it is answered with: `code` when this
 * receiver decides it, otherwise the contract's own rule for that field (resultCodeRules.ts).
 */
export function issue(pointer: string, rule: string, message: string, code?: ReplyCode): ReceiverIssue {
  const found = { in: 'body' as const, pointer, rule, message };
  return { ...found, resultCode: code ?? ((resultCodeFor('notifyTokenStatus', found)?.code ?? '400') as ReplyCode) };
}

/** The issue of a text that is not a JSON notification, with checkJson's message (never the text). */
export const notJson = (message: string) =>
  issue('', 'json', `The body is not a JSON notification: ${message}.`, '400');

export const notRawBody = () =>
  issue(
    '',
    'rawBody',
    'receive() takes the raw request body (a string or bytes), not a parsed object: the signature covers the exact bytes received.',
    '400',
  );

export const tooLarge = (maxBytes: number) =>
  issue('', 'maxBytes', `The notification is larger than ${maxBytes} bytes.`, '400');

export const verifierFailed = () =>
  issue(
    '/head/signature',
    'verifier',
    'The signature could not be checked: the verifier failed. Nothing was processed.',
    '500',
  );

export const unexpectedMid = () =>
  issue('/body/mid', 'expectedMid', '"mid" is not the merchant id this receiver serves.', '407');

/** A `requestTimestamp` `skewMs` away from the receiver's clock, more than `maxClockSkewMs` allows. */
export function clockSkew(skewMs: number, maxClockSkewMs: number): ReceiverIssue {
  const where = skewMs < 0 ? 'behind' : 'ahead of';
  return issue(
    '/head/requestTimestamp',
    'maxClockSkew',
    `"requestTimestamp" is ${Math.round(Math.abs(skewMs) / 1000)} s ${where} this server's clock; at most ${Math.round(maxClockSkewMs / 1000)} s is accepted. Check both clocks; an old notification may be a replay.`,
    '400',
  );
}

/** A failure the receiver did not foresee: named by the error's name alone. */
export const internalFailure = (error: unknown) =>
  issue(
    '',
    'internal',
    `The notification could not be processed (${error instanceof Error ? error.name : 'failure'}).`,
    '500',
  );

export const SIGNATURE_FAILURE = issue(
  '/head/signature',
  'signature',
  'The signature does not match the body. Check the merchant key, and pass the raw request body (the exact bytes received), not a parsed and re-serialized object.',
  '1001',
);
const MEMORY_FULL = issue(
  '',
  'replayMemoryFull',
  'The notification was not processed: the replay memory is full of notifications still within their window (maxRemembered), and one it could not remember could later be replayed. The service delivers it again later.',
  '500',
);
const STORE_FAILED = issue(
  '',
  'replayStore',
  'The notification was not processed: the replay store did not answer (it failed or took longer than storeTimeoutMs). The service delivers it again later.',
  '500',
);
const REPLAY = issue(
  '/head/requestId',
  'replay',
  'This notification (same requestId or same signature) was already handled within the replay window; it is not processed twice.',
  '406',
);
const IN_PROGRESS = issue(
  '/head/requestId',
  'inProgress',
  'The notification was not processed: another delivery of it is being handled, or one that failed has not yet let it go (its lease). The service delivers it again later.',
  '500',
);
export const HANDLER_FAILED = issue(
  '',
  'onEvent',
  'The notification is authentic and valid, but its handler failed. It was released, so a new delivery is accepted.',
  '500',
);
export const HANDLER_TIMEOUT = issue(
  '',
  'handlerTimeout',
  'The notification is authentic and valid, but its handler did not finish within handlerTimeoutMs. The service delivers it again: it is accepted if the handler fails, refused as handled if it succeeds.',
  '500',
);

/**
 * The issue of a claim that did not win, by the claim's verdict (claims.ts `ClaimVerdict`; the receiver
 * indexes this with one, so a verdict added there without its issue here does not compile).
 */
export const CLAIM_REFUSALS: Readonly<Record<'handled' | 'in-progress' | 'failed' | 'full', ReceiverIssue>> = {
  handled: REPLAY,
  'in-progress': IN_PROGRESS,
  failed: STORE_FAILED,
  full: MEMORY_FULL,
};

/** What a step of the receiver's checks found: what the next step needs, or the issue the notification is refused for. */
export type Checked<T> = ({ ok: true } & T) | { ok: false; issue: ReceiverIssue };

/** A step's refusal, with its issue. */
export const refused = (found: ReceiverIssue): { ok: false; issue: ReceiverIssue } => ({ ok: false, issue: found });
