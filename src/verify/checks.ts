// The checks of every answer verify receives, whatever it asked: an answer came, within its bounds;
// HTTP 200 (every outcome of the service is HTTP 200 with its result code, D-09); JSON; the schema
// of the operation's answer with its conditional rules; the result code in the operation's table
// with the table's status; with the merchant key, the head signature and `txnInfo.checksumHash`; and
// what the answer echoes of the request. Then what an answer's code means: success, pending, a
// refusal that asks the merchant to fix the request, or another failure.
import { type OperationId, operations } from '../../generated/operations.js';
import { resultCodes } from '../../generated/resultCodes.js';
import { checkAnswer, checkStatus, parseBody } from '../proxy/check.js';
import { codeEntry } from '../transport/result.js';
import { isJsonObject as isObject } from './schema.js';
import type { Exchange, Finding, Target } from './types.js';

const at = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), value);

/** The media type of an answer's content type, lower case, without parameters. */
const mediaType = (value: string | undefined): string => (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** What an answer's result code means, by the operation's table. */
export type Meaning = 'success' | 'pending' | 'refused' | 'failure' | 'unknown';

/**
 * A code or status as findings may show it: the service's own words, bounded (64 characters, the
 * description's limit) and of the characters codes are written with; anything else is named, not shown.
 */
const shown = (value: string): string => (/^[A-Za-z0-9_.-]{1,64}$/.test(value) ? value : '<not a code>');

/** The answer's result code and status, where the operation's table puts them (as findings may show them). */
export function codeOf(operationId: OperationId, answer: unknown): { code?: string; status?: string } {
  const { location, fields } = resultCodes[operationId];
  const info = at(answer, ...location.split('/').filter(Boolean));
  const code = at(info, fields.code);
  const status = at(info, fields.status);
  return {
    ...(typeof code === 'string' ? { code: shown(code) } : {}),
    ...(typeof status === 'string' ? { status: shown(status) } : {}),
  };
}

/** What the answer's code means: a code the table asks the merchant to fix the request for is a refusal. */
export function meaningOf(exchange: Exchange): Meaning {
  const { code } = codeOf(exchange.operationId, exchange.answer);
  const entry = codeEntry(exchange.operationId, code);
  if (!entry) return 'unknown';
  if (entry.nextStep.action === 'fix-request') return 'refused';
  return entry.outcome;
}

const finding = (exchange: Exchange, rule: string, message: string, pointer?: string): Finding => ({
  kind: 'answer',
  rule,
  operationId: exchange.operationId,
  ...(pointer === undefined ? {} : { pointer }),
  message,
  steps: [exchange],
});

/** What the answer must echo of the request: the fields the description says it returns as they were sent. */
function echoFindings(exchange: Exchange): Finding[] {
  const { request, answer } = exchange;
  const found: Finding[] = [];
  const expect = (pointer: string, sent: unknown, got: unknown, what: string) => {
    if (typeof sent === 'string' && got !== undefined && got !== sent)
      found.push(finding(exchange, 'echo', `${what} is not the one the request sent.`, pointer));
  };
  switch (exchange.operationId) {
    case 'tokenizeCard':
      expect('/head/requestId', request.head.requestId, at(answer, 'head', 'requestId'), 'The head requestId');
      break;
    case 'listSubscriptions':
      expect(
        '/head/version',
        request.head.version,
        at(answer, 'head', 'version'),
        'The head version (the answer echoes the request version, section 4.4)',
      );
      break;
    case 'preAuthorize':
      expect('/body/orderId', at(request.body, 'orderId'), at(answer, 'body', 'orderId'), 'The orderId');
      break;
    case 'initiatePayment':
      expect(
        '/body/txnInfo/orderID',
        at(request.body, 'orderId'),
        at(answer, 'body', 'txnInfo', 'orderID'),
        'txnInfo.orderID',
      );
      expect('/body/txnInfo/MID', at(request.body, 'mid'), at(answer, 'body', 'txnInfo', 'MID'), 'txnInfo.MID');
      break;
    default:
  }
  return found;
}

/** What a successful pay answer continues with, by the request's paymentMode (section 4.5). */
const PAY_OUTCOME: Readonly<Record<string, readonly string[]>> = {
  WALLET: ['txnInfo', 'bankForm'],
  PAYMENT_DIGITAL_CREDIT: ['txnInfo'],
  UPI_INTENT: ['deepLinkInfo'],
  UPI: ['bankForm'],
  CREDIT_CARD: ['bankForm'],
  DEBIT_CARD: ['bankForm'],
  NET_BANKING: ['bankForm'],
  EMI: ['bankForm'],
  PPBL: ['bankForm'],
};
const ANY_PAY_OUTCOME = ['txnInfo', 'bankForm', 'deepLinkInfo'];

/**
 * Pay's rules that tie its answer to its request or that the schema leaves open: `txnInfo` carries
 * the `checksumHash` the merchant verifies (section 5, rule 1), and a success carries what its
 * payment mode continues with: `txnInfo`, `bankForm` or `deepLinkInfo` (section 4.5).
 */
function payFindings(exchange: Exchange): Finding[] {
  if (exchange.operationId !== 'initiatePayment') return [];
  const found: Finding[] = [];
  const txnInfo = at(exchange.answer, 'body', 'txnInfo');
  if (isObject(txnInfo) && typeof txnInfo.checksumHash !== 'string')
    found.push(
      finding(
        exchange,
        'checksumHash',
        'txnInfo has no checksumHash: its values cannot be verified (section 5, rule 1).',
        '/body/txnInfo/checksumHash',
      ),
    );
  if (codeOf('initiatePayment', exchange.answer).code !== '0000') return found;
  const mode = at(exchange.request.body, 'paymentMode');
  const expected =
    (typeof mode === 'string' && Object.hasOwn(PAY_OUTCOME, mode) ? PAY_OUTCOME[mode] : undefined) ?? ANY_PAY_OUTCOME;
  if (!expected.some((name) => isObject(at(exchange.answer, 'body', name))))
    found.push(
      finding(
        exchange,
        'payOutcome',
        `A successful pay answer carries none of ${expected.join(', ')}, what its paymentMode continues with (section 4.5).`,
        '/body',
      ),
    );
  return found;
}

/** Every problem of one answer, as findings of kind `answer` (none when the answer keeps the contract). */
export function checkExchange(target: Target, exchange: Exchange): Finding[] {
  if (exchange.failure !== undefined) return [finding(exchange, 'noAnswer', exchange.failure)];
  const op = operations.find((o) => o.operationId === exchange.operationId);
  if (!op) return [];
  const found: Finding[] = checkStatus(exchange.status).map((i) => finding(exchange, i.rule, i.message));
  const type = mediaType(exchange.answerHeaders['content-type']);
  if (type !== 'application/json')
    found.push(
      finding(
        exchange,
        'contentType',
        `The answer's content type is ${type ? `"${type.slice(0, 60)}"` : 'missing'}, not application/json.`,
      ),
    );
  const verdict = checkAnswer(op, exchange.answerText, parseBody(exchange.answerText), target.key);
  for (const issue of verdict.issues) found.push(finding(exchange, issue.rule, issue.message, issue.pointer));
  if (verdict.issues.length === 0) found.push(...echoFindings(exchange), ...payFindings(exchange));
  return found;
}
