// The six operations at the description's paths: parse, validate with the contract's precompiled
// validators and named checks, answer a failure with the code validate() names (or the operation's
// generic failure code), otherwise run the operation's handler. Every answer is built in the
// operation's own envelope; with checkAnswers on, it is validated against the contract before it goes out.
import { operations as operationIndex } from '../../generated/operations.js';
import { parseJson } from '../json/parse.js';
import { validate } from '../validation/validate.js';
import { bodyWith, envelope, resultFor } from './answers.js';
import { headerSafe, sendJson, sendText } from './http.js';
import { readBody } from '../http/readBody.js';
import { memberText } from '../json/member.js';
import { tokenizeCard } from './handlers/tokenize.js';
import { preAuthorize } from './handlers/preAuth.js';
import { listSubscriptions } from './handlers/listSubscriptions.js';
import { initiatePayment } from './handlers/pay.js';
import { modifyOrder } from './handlers/modifyOrder.js';
import { createSubscription } from './handlers/createSubscription.js';

/** @typedef {import('./answers.js').SandboxOperation} SandboxOperation */

const HANDLERS = /** @type {Record<SandboxOperation, (ctx: any, req: any) => import('./handlers/context.js').HandlerResult>} */ ({
  tokenizeCard, preAuthorize, listSubscriptions, initiatePayment, modifyOrder, createSubscription,
});

/**
 * Per operation, the code for a body that is not a JSON object (malformed JSON, too large), the
 * code for an invalid request for which validate() names none, and the code for an unexpected
 * error. Recorded in DECISIONS.md.
 */
export const FAILURE_CODES = /** @type {Record<SandboxOperation, { badRequest: string, invalid: string, internal: string }>} */ ({
  tokenizeCard: { badRequest: '400', invalid: '400', internal: '500' },
  preAuthorize: { badRequest: '501', invalid: '501', internal: '501' },
  listSubscriptions: { badRequest: '400', invalid: '400', internal: '500' },
  initiatePayment: { badRequest: '2222', invalid: '1011', internal: '501' },
  modifyOrder: { badRequest: '2222', invalid: '1011', internal: '501' },
  createSubscription: { badRequest: '501', invalid: '501', internal: '501' },
});

/** The operations' routes, read from the contract's operation index. */
const exact = new Map();
/** @type {{ pattern: RegExp, names: string[], operationId: SandboxOperation }[]} */
const templated = [];
for (const op of operationIndex) {
  if (op.kind !== 'operation' || !op.path) continue;
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  if (names.length === 0) exact.set(op.path, op.operationId);
  else {
    const source = op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)');
    templated.push({ pattern: new RegExp(`^${source}$`), names, operationId: /** @type {SandboxOperation} */ (op.operationId) });
  }
}

/** The operation at a path, with its path parameters. @param {string} pathname */
export function routeOf(pathname) {
  const id = exact.get(pathname);
  if (id) return { operationId: /** @type {SandboxOperation} */ (id), path: {} };
  for (const t of templated) {
    const m = t.pattern.exec(pathname);
    if (!m) continue;
    /** @type {Record<string, string>} */
    const path = {};
    try {
      t.names.forEach((name, i) => { path[name] = decodeURIComponent(m[i + 1]); });
    } catch {
      return undefined;
    }
    return { operationId: t.operationId, path };
  }
  return undefined;
}

/** @param {string} search the query string without "?" */
function queryOf(search) {
  /** @type {Record<string, string>} */
  const query = {};
  if (search) for (const [k, v] of new URLSearchParams(search)) query[k] = v;
  return query;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * @param {import('./handlers/context.js').HandlerContext & { answerProblems: unknown[], sign: (text: string) => string }} ctx
 */
export function createOperationHandler(ctx) {
  const { config, clock } = ctx;

  /**
   * Sends the answer of `code` in the operation's envelope.
   * @param {import('node:http').ServerResponse} res @param {SandboxOperation} operationId @param {any} requestHead
   * @param {{ code: string, message?: string, fields?: Record<string, unknown>, note?: string, issues?: unknown[] }} outcome
   * @param {number} [httpStatus]
   */
  function answer(res, operationId, requestHead, outcome, httpStatus = 200) {
    const result = resultFor(operationId, outcome.code, outcome.message);
    const body = bodyWith(operationId, result, outcome.fields);
    const env = envelope(operationId, requestHead, body, { now: clock.now(), clientId: config.clientId, sign: ctx.sign });
    if (config.checkAnswers) {
      const verdict = validate(operationId, 'response', { head: env.head, body: env.body });
      if (!verdict.valid) {
        const issues = verdict.errors.map((e) => ({ pointer: e.pointer, rule: e.rule, message: e.message }));
        ctx.answerProblems.push({ operationId, code: outcome.code, issues });
        config.onLog?.(`ANSWER INVALID ${operationId} ${outcome.code}: ${issues.map((i) => `${i.pointer} ${i.rule}`).join('; ')}`);
        sendJson(res, 500, { error: { code: 'answer-invalid', message: 'The sandbox built an answer that breaks the contract.', operationId, issues } });
        return;
      }
    }
    /** @type {Record<string, string>} */
    const headers = {};
    if (outcome.note) headers['x-sandbox-note'] = headerSafe(outcome.note);
    if (outcome.issues) headers['x-sandbox-issues'] = headerSafe(JSON.stringify(outcome.issues));
    if (httpStatus !== 200) headers.connection = 'close';
    config.onLog?.(`${operationId} -> ${result.code} ${result.status}${outcome.note ? `: ${outcome.note}` : ''}`);
    sendText(res, httpStatus, env.text, headers);
  }

  /**
   * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res
   * @param {{ operationId: SandboxOperation, path: Record<string, string> }} route @param {string} search
   */
  return function handleOperation(req, res, route, search) {
    const { operationId } = route;
    const codes = FAILURE_CODES[operationId];
    readBody(req, config.maxBodyBytes, (buffer, problem) => {
      if (problem === 'aborted') return;
      if (!buffer) {
        answer(res, operationId, undefined, { code: codes.badRequest, note: `The body is larger than ${config.maxBodyBytes} bytes.` }, 413);
        return;
      }
      let text;
      try {
        text = utf8.decode(buffer);
      } catch {
        answer(res, operationId, undefined, { code: codes.badRequest, note: 'The body is not valid UTF-8 text.' });
        return;
      }
      const parsed = parseJson(text);
      const payload = /** @type {any} */ (parsed.ok ? parsed.value : undefined);
      if (!parsed.ok || payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
        answer(res, operationId, undefined, { code: codes.badRequest, note: parsed.ok ? 'The body is not a JSON object {head, body}.' : `The body is not JSON: ${parsed.message}.` });
        return;
      }
      const query = queryOf(search);
      const verdict = validate(operationId, 'request', payload, { query, path: route.path });
      if (!verdict.valid) {
        const fields = failureFields(operationId, payload, route.path, config.mids);
        const issues = verdict.errors.slice(0, 10).map((e) => ({ in: e.in, pointer: e.pointer, rule: e.rule, message: e.message }));
        const code = verdict.resultCode?.code ?? codes.invalid;
        answer(res, operationId, payload.head, { code, message: verdict.resultCode?.message, fields, issues, note: 'The request breaks the contract: see x-sandbox-issues.' });
        return;
      }
      let outcome;
      try {
        // The body's exact text is cut out only for the operations whose signature covers it.
        const request = { operationId, head: payload.head, body: payload.body, query, path: route.path, get rawBody() { return memberText(text, 'body'); } };
        outcome = HANDLERS[operationId](ctx, request);
      } catch (error) {
        config.onLog?.(`${operationId}: unexpected error ${error instanceof Error ? error.name : 'thrown'}`);
        outcome = { code: codes.internal, note: 'The sandbox failed unexpectedly; this is a bug of the sandbox.' };
      }
      if (!outcome.fields && outcome.code !== '0000') outcome = { ...outcome, fields: failureFields(operationId, payload, route.path, config.mids) };
      answer(res, operationId, payload.head, outcome);
    });
  };
}

/**
 * The body fields a failure answer carries besides its result: tokenize names the merchant,
 * pre-auth echoes the order id. Only values that are safe to echo.
 * @param {SandboxOperation} operationId @param {any} payload @param {Record<string, string>} path @param {string[]} mids
 */
function failureFields(operationId, payload, path, mids) {
  if (operationId === 'tokenizeCard' && mids.includes(path.mid)) return { mid: path.mid };
  const orderId = payload?.body?.orderId;
  if (operationId === 'preAuthorize' && typeof orderId === 'string' && /^[A-Za-z0-9@._-]{1,50}$/.test(orderId)) return { orderId };
  return undefined;
}

/** @param {import('node:http').ServerResponse} res @param {string} method */
export function notPost(res, method) {
  sendJson(res, 405, { error: { code: 'method-not-allowed', message: `The operations answer POST only (got ${method.slice(0, 10)}).` } }, { allow: 'POST' });
}
