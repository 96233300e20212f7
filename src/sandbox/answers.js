// The sandbox's answers, in each operation's own envelope: the result code, status and message
// read from the generated catalog, the head of the operation's family, and the service's
// signature over the exact body bytes where the description says answers are signed (pre-auth,
// modify order, create subscription: section 5, rule 1).
import { resultCodes } from '../../generated/resultCodes.js';
import { epochMs, epochSeconds } from './clock.js';

/** @typedef {'tokenizeCard' | 'preAuthorize' | 'listSubscriptions' | 'initiatePayment' | 'modifyOrder' | 'createSubscription'} SandboxOperation */
/** @typedef {{ code: string, status: string, message: string }} Result */

/** Per operation: where its result lives and its codes by value, looked up once. */
const catalog = new Map(Object.entries(resultCodes).map(([op, entry]) => [op, {
  inResultInfo: entry.location === '/body/resultInfo',
  fields: entry.fields,
  codes: new Map(entry.codes.map((c) => [c.code, c])),
}]));

/**
 * The result of `code` in the operation's table. `message` picks one of the table's messages for
 * codes that have several (4001, 1102) or the text validate() built for 1001 and 1011.
 * @param {string} operationId @param {string} code @param {string} [message]
 * @returns {Result}
 */
export function resultFor(operationId, code, message) {
  const entry = catalog.get(operationId)?.codes.get(/** @type {any} */ (code));
  if (!entry) throw new Error(`${operationId} has no result code ${code} in its table.`);
  return { code, status: entry.status, message: message ?? entry.messages[0] };
}

/**
 * Places the result in the body where the operation's catalog says: `body.resultInfo` for most,
 * the body itself for pre-auth. Literal objects rather than computed keys: answers are built on
 * the hot path, and the catalog's field names are checked against these when the module loads.
 * @param {string} operationId @param {Result} result @param {Record<string, unknown>} [extra] the other body fields (taken over)
 */
export function bodyWith(operationId, result, extra) {
  const body = extra ?? {};
  if (/** @type {any} */ (catalog.get(operationId)).inResultInfo) body.resultInfo = { resultCode: result.code, resultStatus: result.status, resultMsg: result.message };
  else Object.assign(body, { statusCode: result.code, statusMessage: result.message, status: result.status });
  return body;
}

for (const [operationId, { inResultInfo, fields }] of catalog) {
  const expected = inResultInfo ? { code: 'resultCode', status: 'resultStatus', message: 'resultMsg' } : { code: 'statusCode', status: 'status', message: 'statusMessage' };
  if (fields.code !== expected.code || fields.status !== expected.status || fields.message !== expected.message) throw new Error(`The catalog names ${operationId}'s result fields differently: answers.js must follow it.`);
}

/** A short string from the request head, safe to echo (never a secret field). @param {unknown} v @param {number} max */
const echo = (v, max) => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined);

/**
 * The answer's head for the operation's family, signed over `bodyText` where the description says.
 * @param {SandboxOperation} operationId @param {any} requestHead the request's head (for the fields that are echoed)
 * @param {{ now: number, clientId: string, sign: (text: string) => string }} ctx @param {string} bodyText
 */
function headFor(operationId, requestHead, ctx, bodyText) {
  const head = requestHead && typeof requestHead === 'object' ? requestHead : {};
  switch (operationId) {
    case 'tokenizeCard': {
      const requestId = echo(head.requestId, 128);
      return { version: 'v1', responseTimestamp: epochMs(ctx.now), ...(requestId ? { requestId } : {}) };
    }
    case 'preAuthorize':
      return { responseTimestamp: epochMs(ctx.now), version: echo(head.version, 32) ?? 'v2', clientId: echo(head.clientId, 32) ?? ctx.clientId, signature: ctx.sign(bodyText) };
    case 'listSubscriptions': {
      const version = echo(head.version, 4);
      return { ...(version ? { version } : {}), timestamp: epochSeconds(ctx.now) };
    }
    case 'initiatePayment':
      return { responseTimestamp: epochMs(ctx.now) };
    case 'modifyOrder':
      return { responseTimestamp: epochMs(ctx.now), signature: ctx.sign(bodyText) };
    case 'createSubscription':
      return { responseTimeStamp: epochMs(ctx.now), signature: ctx.sign(bodyText) };
    default:
      throw new Error(`No answer head for ${operationId}.`);
  }
}

/**
 * The whole answer: the envelope (for checks and logs) and its text, in which the signed body
 * bytes are exactly the bytes sent.
 * @param {SandboxOperation} operationId @param {any} requestHead @param {Record<string, unknown>} body
 * @param {{ now: number, clientId: string, sign: (text: string) => string }} ctx
 */
export function envelope(operationId, requestHead, body, ctx) {
  const bodyText = JSON.stringify(body);
  const head = headFor(operationId, requestHead, ctx, bodyText);
  return { head, body, text: `{"head":${JSON.stringify(head)},"body":${bodyText}}` };
}
