// The service's side of the token status notification, for development: sign the serialized body,
// post exactly those bytes to the merchant's address, and judge the merchant's reply against the
// contract (notifyTokenStatus response).
import { randomUUID } from 'node:crypto';
import { validate } from '../validation/validate.js';
import { parseJson } from '../json/parse.js';
import { tokenServiceHead } from '../transport/heads.js';
import { resultOf } from '../transport/result.js';
import { GatewayNetworkError, GatewayNonJsonError, GatewayTimeoutError, RequestValidationError } from '../transport/errors.js';

const OPERATION = 'notifyTokenStatus';

/**
 * @param {import('./send.js').SendTokenNotificationOptions} options
 * @returns {Promise<import('./send.js').SendTokenNotificationResult>}
 */
export async function sendTokenNotification(options) {
  const { url, body, signer, now = Date.now, timeoutMs = 30_000, clientId, encryptionKeyVersion } = options;
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) throw new TypeError('url must be the merchant\'s http(s) address.');
  if (!signer || typeof signer.sign !== 'function') throw new TypeError('sendTokenNotification needs a signer, for example createChecksumSigner(merchantKey).');
  const requestId = options.requestId ?? randomUUID();

  // The signed text and the sent text are the same bytes: serialize the body once.
  const bodyText = JSON.stringify(body);
  const built = tokenServiceHead({ now, requestId: () => requestId, clientId, encryptionKeyVersion }, { requestId, signatureType: signer.signatureType });
  /** @type {Record<string, unknown>} */
  const head = { ...built, ...options.head };
  head.signature = options.head?.signature ?? await signer.sign(bodyText);
  if (options.validateRequest !== false) {
    const verdict = validate(OPERATION, 'request', { head, body });
    if (!verdict.valid) throw new RequestValidationError('request-invalid', `${OPERATION}: the notification breaks the contract (${verdict.errors.length} problem(s)); nothing was sent.`, { operationId: OPERATION, issues: verdict.errors });
  }
  const envelopeText = `{"head":${JSON.stringify(head)},"body":${bodyText}}`;

  const timeout = AbortSignal.timeout(timeoutMs);
  const request = new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: envelopeText,
    redirect: 'manual',
    signal: timeout,
  });
  let response;
  let text;
  try {
    response = await (options.fetch ?? fetch)(request);
    text = await response.text();
  } catch (error) {
    if (timeout.aborted) throw new GatewayTimeoutError('timeout', `${OPERATION}: no reply from the merchant within ${timeoutMs} ms.`, { operationId: OPERATION, cause: error });
    const cause = /** @type {any} */ (error)?.cause;
    const detail = cause?.code ?? /** @type {any} */ (error)?.code ?? (typeof cause?.message === 'string' ? cause.message.slice(0, 80) : undefined);
    throw new GatewayNetworkError('network', `${OPERATION}: the notification could not be delivered${detail ? ` (${detail})` : ''}.`, { operationId: OPERATION, cause: error });
  }
  const parsed = parseJson(text);
  if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
    throw new GatewayNonJsonError('non-json', `${OPERATION}: the merchant's reply is not a JSON envelope (HTTP ${response.status}, ${parsed.ok ? 'not an object' : parsed.message}; content-type ${response.headers.get('content-type') ?? 'none'}).`, { operationId: OPERATION, status: response.status });
  }
  const reply = parsed.value;
  const verdict = validate(OPERATION, 'response', reply);
  const issues = verdict.valid ? [] : [...verdict.errors];
  if (response.status !== 200) {
    issues.unshift({ in: 'body', pointer: '', rule: 'httpStatus', message: `The reply has HTTP status ${response.status}; the contract's reply is HTTP 200 with the result in body.resultInfo.` });
  }
  const result = resultOf(OPERATION, reply, response.status);
  return {
    httpStatus: response.status,
    reply,
    valid: issues.length === 0,
    issues,
    ...(typeof result.code === 'string' ? { code: result.code } : {}),
    outcome: result.outcome,
    requestId,
  };
}
