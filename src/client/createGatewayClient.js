// The typed client: one method per operation, each on its own host, heads built for the caller,
// the signature computed over the exact bytes sent, results typed by the operation's own result
// codes. No automatic retry: whether to retry a payment is the caller's decision.
import createClient from 'openapi-fetch';
import { validate } from '../validation/validate.js';
import { parseJson } from '../json/parse.js';
import { resultOf } from '../transport/result.js';
import { GatewayAbortError, GatewayHttpError, GatewayNetworkError, GatewayNonJsonError, GatewayTimeoutError, RequestValidationError, ResponseValidationError } from '../transport/errors.js';
import { createSubscriptionHead, defaultRequestId, listSubscriptionsHead, preAuthHead, tokenServiceHead, txnTokenHead } from '../transport/heads.js';

/**
 * What openapi-fetch builds for a call that the global fetch sends: the address and the init, handed
 * to fetch as they are. A full Request, which fetch then takes apart again, costs about a third of
 * a call on loopback (bench/client.mjs). A caller's own `fetch` option still gets a real Request.
 */
class OutgoingCall {
  /** @param {string | URL} url @param {RequestInit} init */
  constructor(url, init) {
    this.url = String(url);
    this.init = init;
    this.method = init.method;
  }
}
const sendCall = (/** @type {OutgoingCall} */ call) => globalThis.fetch(call.url, call.init);

/** @param {string | undefined} url @param {string} name */
function baseUrlOf(url, name) {
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new TypeError(`${name} must be an http(s) URL`);
  return url.replace(/\/+$/, '');
}

/**
 * @param {import('./createGatewayClient.js').GatewayClientOptions} options
 */
export function createGatewayClient(options) {
  const {
    signer, clientId, version, channelId, encryptionKeyVersion,
    timeoutMs = 30_000, now = Date.now, requestId = defaultRequestId,
  } = options;
  const checkRequests = options.validate === true || (typeof options.validate === 'object' && options.validate.request === true);
  const checkResponses = options.validate === true || (typeof options.validate === 'object' && options.validate.response === true);
  const fetchImpl = options.fetch;
  const clientOptions = fetchImpl ? { fetch: (/** @type {Request} */ request) => fetchImpl(request) } : { Request: OutgoingCall, fetch: sendCall };
  const hosts = {
    gateway: createClient({ baseUrl: baseUrlOf(options.gatewayUrl, 'gatewayUrl'), ...clientOptions }),
    router: createClient({ baseUrl: baseUrlOf(options.routerUrl, 'routerUrl'), ...clientOptions }),
  };
  const defaults = { now, requestId, clientId, version, channelId, encryptionKeyVersion };

  /** @param {string} operationId */
  function requireSigner(operationId) {
    if (!signer) throw new TypeError(`${operationId} is signed: pass a signer to createGatewayClient (for example createChecksumSigner(merchantKey)).`);
    return signer;
  }

  /**
   * @param {string} operationId
   * @param {{ host: 'gateway' | 'router', path: string, params: any, head: Record<string, unknown>, body: unknown, sign: boolean, callerHead?: Record<string, unknown>, signal?: AbortSignal, headers?: Record<string, string>, query?: Record<string, string>, pathParams?: Record<string, string> }} call
   */
  async function send(operationId, call) {
    // The caller's extra headers (for example `Prefer: example=<name>` for the mock), checked
    // before anything is signed or sent.
    const headers = { ...extraHeaders(operationId, call.headers), 'Content-Type': 'application/json', Accept: 'application/json' };
    // The signed text and the sent text are the same bytes: serialize the body once.
    const bodyText = JSON.stringify(call.body);
    /** @type {Record<string, unknown>} */
    const head = { ...call.head, ...call.callerHead };
    if (call.sign) head.signature = await requireSigner(operationId).sign(bodyText);
    const envelopeText = `{"head":${JSON.stringify(head)},"body":${bodyText}}`;
    if (checkRequests) {
      const verdict = validate(/** @type {any} */ (operationId), 'request', { head, body: call.body }, { query: call.query, path: call.pathParams });
      if (!verdict.valid) throw new RequestValidationError('request-invalid', `${operationId}: the request breaks the contract (${verdict.errors.length} problem(s)); nothing was sent.`, { operationId, issues: verdict.errors });
    }
    // One controller for the timeout and the caller's signal (AbortSignal.timeout and
    // AbortSignal.any make transferable signals, which cost a tenth of a loopback call).
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; controller.abort(); }, timeoutMs);
    const onCallerAbort = () => controller.abort(call.signal?.reason);
    if (call.signal?.aborted) onCallerAbort();
    else call.signal?.addEventListener('abort', onCallerAbort, { once: true });
    /** @type {any} */
    let answer;
    try {
      answer = await hosts[call.host].POST(/** @type {any} */ (call.path), {
        params: call.params,
        body: /** @type {any} */ (call.body),
        bodySerializer: () => envelopeText,
        parseAs: 'text',
        signal: controller.signal,
        headers,
      });
    } catch (error) {
      if (timedOut) throw new GatewayTimeoutError('timeout', `${operationId}: no answer within ${timeoutMs} ms. The outcome is unknown: query the status before retrying.`, { operationId, cause: error });
      if (call.signal?.aborted) throw new GatewayAbortError('aborted', `${operationId}: aborted by the caller.`, { operationId, cause: error });
      const code = /** @type {any} */ (error)?.cause?.code ?? /** @type {any} */ (error)?.code;
      throw new GatewayNetworkError('network', `${operationId}: the request did not complete${code ? ` (${code})` : ''}.`, { operationId, cause: error });
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onCallerAbort);
    }
    const { response } = answer;
    if (!response.ok) {
      throw new GatewayHttpError('http', `${operationId}: HTTP ${response.status} (the service answers every outcome with 200).`, { operationId, status: response.status, data: answer.error });
    }
    const parsed = parseJson(typeof answer.data === 'string' ? answer.data : '');
    if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
      throw new GatewayNonJsonError('non-json', `${operationId}: the answer is not a JSON envelope (${parsed.ok ? 'not an object' : parsed.message}; content-type ${mediaType(response.headers.get('content-type'))}).`, { operationId, status: response.status });
    }
    const data = /** @type {any} */ (parsed.value);
    if (checkResponses) {
      const verdict = validate(/** @type {any} */ (operationId), 'response', data);
      if (!verdict.valid) throw new ResponseValidationError('response-invalid', `${operationId}: the answer breaks the contract (${verdict.errors.length} problem(s)).`, { operationId, status: response.status, issues: verdict.errors, data });
    }
    return resultOf(operationId, data, response.status);
  }

  return {
    /** @param {any} args */
    async tokenizeCard({ mid, body, requestId: id, head, signal, headers }) {
      const pathMid = mid ?? body?.mid;
      const reqId = id ?? requestId();
      const s = requireSigner('tokenizeCard');
      return send('tokenizeCard', { host: 'gateway', path: '/coft-center/coft/merchant/{mid}/tokenize', params: { path: { mid: pathMid }, query: { requestId: reqId } }, pathParams: { mid: pathMid }, query: { requestId: reqId }, head: tokenServiceHead(defaults, { requestId: reqId, signatureType: s.signatureType }), body, sign: true, callerHead: head, signal, headers });
    },
    /** @param {any} args */
    preAuthorize({ body, head, signal, headers }) {
      return send('preAuthorize', { host: 'gateway', path: '/order/v2/preAuth', params: {}, head: preAuthHead(defaults), body, sign: true, callerHead: head, signal, headers });
    },
    /** @param {any} args */
    listSubscriptions({ token, body, head, signal, headers }) {
      return send('listSubscriptions', { host: 'gateway', path: '/subscription/list/all', params: {}, head: listSubscriptionsHead(defaults, { token }), body, sign: true, callerHead: head, signal, headers });
    },
    /** @param {any} args */
    initiatePayment({ txnToken, body, head, signal, headers }) {
      const query = { mid: body?.mid, orderId: body?.orderId };
      return send('initiatePayment', { host: 'router', path: '/aoa-acquiring-biz/v2/payment', params: { query }, query, head: txnTokenHead(defaults, { txnToken, withVersion: true }), body, sign: false, callerHead: head, signal, headers });
    },
    /** @param {any} args */
    modifyOrder({ mid, orderId, txnToken, body, sign, head, signal, headers }) {
      const query = { mid, orderId };
      return send('modifyOrder', { host: 'router', path: '/aoa-acquiring-biz/v2/modifyOrder', params: { query }, query, head: txnTokenHead(defaults, { txnToken, withVersion: false }), body, sign: sign ?? Boolean(signer), callerHead: head, signal, headers });
    },
    /** @param {any} args */
    createSubscription({ body, head, signal, headers }) {
      const query = { mid: body?.mid, orderId: body?.orderId };
      return send('createSubscription', { host: 'router', path: '/aoa-subscription/api/v2/subscription/create', params: { query }, query, head: createSubscriptionHead(defaults), body, sign: true, callerHead: head, signal, headers });
    },
  };
}

/**
 * The caller's extra HTTP headers of one call, checked: names and values must be strings a
 * request can carry (the Fetch API would reject them later with a less clear error).
 * @param {string} operationId @param {unknown} headers
 * @returns {Record<string, string>}
 */
function extraHeaders(operationId, headers) {
  if (headers === undefined) return {};
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) throw new TypeError(`${operationId}: headers must be an object of header names and string values`);
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new TypeError(`${operationId}: "${name.slice(0, 64)}" is not a valid HTTP header name`);
    // The body is always a JSON envelope and the answer is read as one.
    if (/^(content-type|accept)$/i.test(name)) throw new TypeError(`${operationId}: the ${name} header is always application/json and cannot be set`);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) throw new TypeError(`${operationId}: the value of header "${name}" must be a string without line breaks`);
  }
  return /** @type {Record<string, string>} */ (headers);
}

/** The media type of a content-type header, without parameters, or a word when it is not one. */
function mediaType(/** @type {string | null} */ header) {
  if (header === null) return 'none';
  const type = header.split(';')[0].trim();
  return /^[A-Za-z0-9!#$&^_.+-]{1,63}\/[A-Za-z0-9!#$&^_.+-]{1,63}$/.test(type) ? type : 'not a media type';
}
