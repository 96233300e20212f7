// The receiver's steps 3 (end) to 5 (docs/decisions.md, D-34, D-35, D-113), on a text whose signature
// is the service's: read whole (JSON, no repeated key), built, held to the contract, to the merchant
// ids this receiver serves and to the clock.
//   the whole text: JSON, no repeated key (checkJson)                     -> 400
//   4. the contract (its validation), the expected mid                    -> 410, 400, 406, 405, 1004, 407
//   5. the clock (requestTimestamp within maxClockSkewMs)                 -> 400
import * as notificationModule from '../../generated/validators/notifyTokenStatusRequest.js';
import { checkJson } from '../json/scan.js';
import type { RequestOf } from '../types.js';
import { requestValidation, type ValidationIssue } from '../validation/operationValidation.js';
import { clockSkew, notJson, type ReceiverIssue, unexpectedMid } from './issues.js';
import type { ReplyCode } from './reply.js';
import { MAX_DEPTH } from './signatureCheck.js';

/** The notification's validation alone: the receiver loads no validator of the reply. */
const validateRequest = requestValidation('notifyTokenStatus', notificationModule);

/** A token status notification as the service sent it: `{ head, body: { mid, tokenInfo } }`. */
export type TokenStatusEvent = RequestOf<'notifyTokenStatus'>;

/** The notification in a signed text, or why it is refused: the code and every issue the contract's validation found. */
export function readNotification(
  text: string,
): { ok: true; event: TokenStatusEvent } | { ok: false; code: ReplyCode; issues: ValidationIssue[] } {
  const checked = checkJson(text, { maxDepth: MAX_DEPTH });
  if (!checked.ok) return { ok: false, code: '400', issues: [notJson(checked.message)] };
  const envelope: unknown = JSON.parse(text);
  const verdict = validateRequest(envelope);
  if (!verdict.valid)
    return { ok: false, code: (verdict.resultCode?.code ?? '400') as ReplyCode, issues: verdict.errors };
  return { ok: true, event: envelope as TokenStatusEvent };
}

/** Step 4's end: the issue of a `mid` this receiver does not serve (it serves any when `mids` is undefined), or null. */
export function midProblem(event: TokenStatusEvent, mids: readonly string[] | undefined): ReceiverIssue | null {
  return mids && !mids.includes(event.body.mid) ? unexpectedMid() : null;
}

/** Step 5: the issue of a `requestTimestamp` further than `maxClockSkewMs` from `at`, or null. */
export function clockProblem(event: TokenStatusEvent, at: number, maxClockSkewMs: number): ReceiverIssue | null {
  const skew = epochMs(event.head.requestTimestamp) - at;
  return Math.abs(skew) > maxClockSkewMs ? clockSkew(skew, maxClockSkewMs) : null;
}

/** head.requestTimestamp (10 digits: seconds, 13: milliseconds; DECISIONS.md, D-05) in milliseconds. */
const epochMs = (text: string) => (text.length <= 10 ? Number(text) * 1000 : Number(text));
