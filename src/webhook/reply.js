// The merchant's reply to a token status notification (section 4.1): head {version, responseTimestamp}
// and body.resultInfo, with the status and message of the code read from the generated catalog.
import { resultCodes } from '../../generated/resultCodes.js';

const CODES = new Map(resultCodes.notifyTokenStatus.codes.map((entry) => [entry.code, entry]));

/**
 * @param {string} code a code of section 7.1
 * @param {number} at the reply time, epoch milliseconds
 * @returns {import('../types.js').ResponseOf<'notifyTokenStatus'>}
 */
export function replyFor(code, at) {
  const entry = CODES.get(code);
  if (!entry) throw new RangeError(`${code} is not a code of the token status notification (section 7.1).`);
  return /** @type {any} */ ({
    head: { version: 'v1', responseTimestamp: String(Math.trunc(at)) },
    body: { resultInfo: { resultCode: entry.code, resultStatus: entry.status, resultMsg: entry.messages[0] } },
  });
}
