// The merchant's reply to a token status notification (section 4.1): head {version, responseTimestamp}
// and body.resultInfo, with the status and message of the code read from the generated catalog.
import { resultCodes } from '../../generated/resultCodes.js';
import type { ResponseOf, ResultCodeOf } from '../types.js';

export type ReplyCode = ResultCodeOf<'notifyTokenStatus'>;

const CODES = new Map<string, { code: string; status: string; messages: readonly string[] }>(
  resultCodes.notifyTokenStatus.codes.map((entry) => [entry.code, entry]),
);

/** The reply envelope for a code of section 7.1, at `at` (epoch milliseconds). */
export function replyFor(code: ReplyCode, at: number): ResponseOf<'notifyTokenStatus'> {
  const entry = CODES.get(code);
  if (!entry) throw new RangeError(`${code} is not a code of the token status notification (section 7.1).`);
  return {
    head: { version: 'v1', responseTimestamp: String(Math.trunc(at)) },
    body: { resultInfo: { resultCode: entry.code, resultStatus: entry.status, resultMsg: entry.messages[0] ?? '' } },
  } as ResponseOf<'notifyTokenStatus'>;
}
