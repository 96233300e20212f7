// The sandbox's answers, in each operation's own envelope: the result code, status and message
// read from the generated catalog, the head of the operation's family, and the service's
// signature over the exact body bytes where the description says answers are signed (pre-auth,
// modify order, create subscription: section 5, rule 1).
import { resultCodes } from '../../../generated/resultCodes.js';
import type { ResponseOf, ResultCodeOf } from '../../types.js';
import { epochMs, epochSeconds } from '../clock.js';
import type { SandboxOperation } from '../operationIndex.js';
import { isUntrustedObject, type Untrusted } from '../untrusted.js';

/** A result of an operation's table: its code, status and message. */
export interface Result {
  code: string;
  status: string;
  message: string;
}

/** Per operation: where its result lives and its codes by value, looked up once. */
const catalog = new Map(
  Object.entries(resultCodes).map(([op, entry]) => [
    op,
    {
      inResultInfo: entry.location === '/body/resultInfo',
      fields: entry.fields,
      codes: new Map<string, { status: string; messages: readonly string[] }>(entry.codes.map((c) => [c.code, c])),
    },
  ]),
);

/**
 * The result of `code` in the operation's table. `message` picks one of the table's messages for
 * codes that have several (4001, 1102) or the text validate() built for 1001 and 1011.
 */
export function resultFor<O extends SandboxOperation>(operationId: O, code: ResultCodeOf<O>, message?: string): Result {
  const entry = catalog.get(operationId)?.codes.get(code);
  if (!entry) throw new Error(`${operationId} has no result code ${code} in its table.`);
  return { code, status: entry.status, message: message ?? entry.messages[0] ?? '' };
}

/**
 * Places the result in the body where the operation's catalog says: `body.resultInfo` for most,
 * the body itself for pre-auth. Literal objects rather than computed keys: answers are built on
 * the hot path, and the catalog's field names are checked against these when the module loads.
 * @param extra the other body fields
 */
export function bodyWith(
  operationId: SandboxOperation,
  result: Result,
  extra: object | undefined,
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...extra };
  if (catalog.get(operationId)?.inResultInfo)
    body.resultInfo = { resultCode: result.code, resultStatus: result.status, resultMsg: result.message };
  else Object.assign(body, { statusCode: result.code, statusMessage: result.message, status: result.status });
  return body;
}

for (const [operationId, { inResultInfo, fields }] of catalog) {
  const expected = inResultInfo
    ? { code: 'resultCode', status: 'resultStatus', message: 'resultMsg' }
    : { code: 'statusCode', status: 'status', message: 'statusMessage' };
  if (fields.code !== expected.code || fields.status !== expected.status || fields.message !== expected.message)
    throw new Error(`The catalog names ${operationId}'s result fields differently: envelope.ts must follow it.`);
}

/** A short string from the request head, safe to echo (never a secret field). */
const echo = (v: unknown, max: number): string | undefined =>
  typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined;

/** What a head is built from besides the request's head. */
export interface EnvelopeContext {
  readonly now: number;
  readonly clientId: string;
  /** The service's signature over an answer's body text. */
  readonly sign: (text: string) => string;
}

/** Per operation, the answer's head of its family, signed over `bodyText` where the description says. */
const HEADS: {
  readonly [O in SandboxOperation]: (head: Untrusted, ctx: EnvelopeContext, bodyText: string) => ResponseOf<O>['head'];
} = {
  tokenizeCard(head, ctx) {
    const requestId = echo(head.requestId, 128);
    return { version: 'v1', responseTimestamp: epochMs(ctx.now), ...(requestId ? { requestId } : {}) };
  },
  preAuthorize: (head, ctx, bodyText) => ({
    responseTimestamp: epochMs(ctx.now),
    version: echo(head.version, 32) ?? 'v2',
    clientId: echo(head.clientId, 32) ?? ctx.clientId,
    signature: ctx.sign(bodyText),
  }),
  listSubscriptions(head, ctx) {
    const version = echo(head.version, 4);
    return { ...(version ? { version } : {}), timestamp: epochSeconds(ctx.now) };
  },
  initiatePayment: (_head, ctx) => ({ responseTimestamp: epochMs(ctx.now) }),
  modifyOrder: (_head, ctx, bodyText) => ({ responseTimestamp: epochMs(ctx.now), signature: ctx.sign(bodyText) }),
  createSubscription: (_head, ctx, bodyText) => ({
    responseTimeStamp: epochMs(ctx.now),
    signature: ctx.sign(bodyText),
  }),
};

/** A whole answer: the envelope (for checks and logs) and its text. */
export interface Envelope<O extends SandboxOperation> {
  head: ResponseOf<O>['head'];
  body: Record<string, unknown>;
  /** The text sent, in which the signed body bytes are exactly the bytes sent. */
  text: string;
}

/**
 * The whole answer: the envelope (for checks and logs) and its text, in which the signed body
 * bytes are exactly the bytes sent.
 * @param requestHead the request's head, as received (for the fields that are echoed)
 */
export function envelope<O extends SandboxOperation>(
  operationId: O,
  requestHead: unknown,
  body: Record<string, unknown>,
  ctx: EnvelopeContext,
): Envelope<O> {
  const bodyText = JSON.stringify(body);
  const head = HEADS[operationId](isUntrustedObject(requestHead) ? requestHead : {}, ctx, bodyText);
  return { head, body, text: `{"head":${JSON.stringify(head)},"body":${bodyText}}` };
}
