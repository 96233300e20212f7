// The service's side of the token status notification, for development: sign the serialized body,
// post exactly those bytes to the merchant's address, and judge the merchant's reply against the
// contract (notifyTokenStatus response). The same send pipeline as the typed client's.

import * as notificationModule from '../../generated/validators/notifyTokenStatusRequest.js';
import * as replyModule from '../../generated/validators/notifyTokenStatusResponse.js';
import type { Signer } from '../signing/checksum.js';
import { tokenServiceHead } from '../transport/heads.js';
import { type CallResult, resultOf } from '../transport/result.js';
import {
  buildEnvelope,
  checkRequest,
  DEFAULT_MAX_ANSWER_BYTES,
  type Exchanged,
  exchange,
  isRedirect,
  readEnvelope,
  redirectError,
  type Wording,
} from '../transport/send.js';
import type { HeadOf, RequestOf, ResultCodeOf } from '../types.js';
import { requestValidation, responseValidation, type ValidationIssue } from '../validation/operationValidation.js';

const OPERATION = 'notifyTokenStatus';
/** The notification's and the reply's validation: the sender loads no other operation's validators. */
const validateNotification = requestValidation(OPERATION, notificationModule);
const validateReply = responseValidation(OPERATION, replyModule);

const MERCHANT: Wording = {
  timeout: (ms) => `no reply from the merchant within ${ms} ms.`,
  failed: 'the notification could not be delivered',
  answer: "the merchant's reply",
};

export interface SendTokenNotificationOptions {
  /** The merchant's `{merchant_response_url}`. */
  url: string;
  /** `{ mid, tokenInfo }`. */
  body: RequestOf<'notifyTokenStatus'>['body'];
  /** Signs the serialized body, e.g. `createChecksumSigner(merchantKey)`. */
  signer: Signer;
  /** Head fields to send as given (they win over the built ones; a given `signature` is sent as is). */
  head?: Partial<HeadOf<'notifyTokenStatus'>> | undefined;
  /** head.requestId (default a random UUID). */
  requestId?: string | undefined;
  /** head.clientId, when the merchant has several keys. */
  clientId?: string | undefined;
  /** head.encryptionKeyVersion, when the merchant has several keys. */
  encryptionKeyVersion?: 'v1' | undefined;
  /** Clock for head.requestTimestamp, epoch milliseconds (default Date.now). */
  now?: (() => number) | undefined;
  /** Milliseconds to wait for the reply before `GatewayTimeoutError` (default 30 000). */
  timeoutMs?: number | undefined;
  /** Replies larger than this many bytes are not read: `GatewayNonJsonError` (default 1 MiB). */
  maxReplyBytes?: number | undefined;
  /** A fetch to use instead of the global one. */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /** Check the notification against the contract before sending (default true; false sends it anyway). */
  validateRequest?: boolean | undefined;
  /** Cancels the send (a `GatewayAbortError`). */
  signal?: AbortSignal | undefined;
}

export interface SendTokenNotificationResult {
  httpStatus: number;
  /** The merchant's reply, parsed. */
  reply: unknown;
  /** Whether the reply is HTTP 200 with an envelope the contract accepts. */
  valid: boolean;
  issues: ValidationIssue[];
  /** `body.resultInfo.resultCode` of the reply, when it has one. */
  code?: ResultCodeOf<'notifyTokenStatus'> | (string & {});
  outcome: 'success' | 'pending' | 'failure';
  /**
   * What the sender does next, read from the reply code's `x-next-step` (D-52): `none` for 00,
   * `retry-later` where the merchant failed, `fix-request` or `check-credentials` where sending the
   * same notification again gets the same reply; `retry-later` for a reply outside the table.
   */
  nextStep: CallResult<'notifyTokenStatus'>['nextStep'];
  /** head.requestId of the notification sent. */
  requestId: string;
}

/** How to post a text to the merchant's address and wait for the reply. */
export interface PostNotificationOptions {
  /** The merchant's `{merchant_response_url}`. */
  url: string;
  /** The exact text to post as the request body, JSON or not. */
  text: string;
  /** Milliseconds to wait for the reply before `GatewayTimeoutError` (default 30 000). */
  timeoutMs?: number | undefined;
  /** Replies larger than this many bytes are not read: `GatewayNonJsonError` (default 1 MiB). */
  maxReplyBytes?: number | undefined;
  /** A fetch to use instead of the global one. */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /** Cancels the send (a `GatewayAbortError`). */
  signal?: AbortSignal | undefined;
}

/** What `postNotification` learns of the reply. */
export type PostNotificationResult = Omit<SendTokenNotificationResult, 'requestId'>;

/**
 * Refuses what is not the merchant's http(s) address, and one holding credentials (the runtime's
 * fetch refuses those too, quoting the address, password included). Never names the value.
 */
function checkAddress(url: unknown): asserts url is string {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url) || !URL.canParse(url))
    throw new TypeError("url must be the merchant's http(s) address.");
  const { username, password } = new URL(url);
  if (username || password)
    throw new TypeError(
      'url must be the merchant\'s http(s) address, without credentials (user or password before "@").',
    );
}

/**
 * Posts `text` as it is (with `Content-Type: application/json`) to the merchant's address and
 * checks the reply against the contract, as `sendTokenNotification` does. For rehearsing requests
 * that are not notifications at all: an envelope without a head, a body that is not JSON. Rejects
 * like `sendTokenNotification`, except that nothing is checked before sending.
 */
export async function postNotification(options: PostNotificationOptions): Promise<PostNotificationResult> {
  const { url, text, timeoutMs = 30_000, maxReplyBytes = DEFAULT_MAX_ANSWER_BYTES } = options;
  checkAddress(url);
  if (typeof text !== 'string') throw new TypeError('text must be the request body to post, as a string.');
  const fetchImpl = options.fetch;
  /** The Request a caller's fetch is given, held until the exchange ends (see below). */
  let request: Request | undefined;
  let exchanged: Exchanged;
  try {
    exchanged = await exchange(
      async (signal) => {
        const init: RequestInit = {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: text,
          redirect: 'manual',
          signal,
        };
        // The runtime's fetch gets the address and the init, as the typed client does: given a
        // Request, Node 20's fetch loses that Request's abort signal once the garbage collector
        // has collected the Request (nodejs/node#55428), and the time limit would no longer close
        // the connection. A caller's fetch takes a Request: it is held here until the end, which
        // keeps its signal working.
        let response: Response;
        if (fetchImpl) {
          request = new Request(url, init);
          response = await fetchImpl(request);
        } else response = await fetch(url, init);
        // A redirect is no reply of the merchant's (see isRedirect): nothing of it is read.
        if (isRedirect(response)) {
          await response.body?.cancel().catch(() => undefined);
          throw redirectError(OPERATION, response.status, MERCHANT);
        }
        return { response, body: response.body };
      },
      { operationId: OPERATION, timeoutMs, signal: options.signal, maxBytes: maxReplyBytes, wording: MERCHANT },
    );
  } finally {
    request = undefined;
  }
  const reply = readEnvelope(exchanged, { operationId: OPERATION, wording: MERCHANT });
  const verdict = validateReply(reply);
  const issues = verdict.valid ? [] : [...verdict.errors];
  if (exchanged.status !== 200) {
    issues.unshift({
      in: 'body',
      pointer: '',
      rule: 'httpStatus',
      message: `The reply has HTTP status ${exchanged.status}; the contract's reply is HTTP 200 with the result in body.resultInfo.`,
    });
  }
  const result = resultOf(OPERATION, reply, exchanged.status);
  return {
    httpStatus: exchanged.status,
    reply,
    valid: issues.length === 0,
    issues,
    ...(typeof result.code === 'string' ? { code: result.code } : {}),
    outcome: result.outcome,
    nextStep: result.nextStep,
  };
}

/**
 * Signs and posts one token status notification, then checks the merchant's reply. Rejects with
 * `GatewayNetworkError`, `GatewayTimeoutError`, `GatewayNonJsonError` (no usable reply) or
 * `RequestValidationError` (the notification breaks the contract; nothing was sent).
 */
export async function sendTokenNotification(
  options: SendTokenNotificationOptions,
): Promise<SendTokenNotificationResult> {
  const { url, body, signer, now = Date.now, clientId, encryptionKeyVersion } = options;
  checkAddress(url);
  if (!signer || typeof signer.sign !== 'function')
    throw new TypeError('sendTokenNotification needs a signer, for example createChecksumSigner(merchantKey).');
  const requestId = options.requestId ?? globalThis.crypto.randomUUID();

  const head = {
    ...tokenServiceHead({ now, requestId, signatureType: signer.signatureType, clientId, encryptionKeyVersion }),
    ...options.head,
  };
  // A signature given in `head` is sent as it is (to rehearse a bad one); otherwise the body is signed.
  const envelope = await buildEnvelope(head, body, options.head?.signature === undefined ? signer : undefined);
  if (options.validateRequest !== false)
    checkRequest(OPERATION, validateNotification({ head: envelope.head, body: envelope.body }), 'the notification');
  const result = await postNotification({
    url,
    text: envelope.text,
    timeoutMs: options.timeoutMs,
    maxReplyBytes: options.maxReplyBytes,
    fetch: options.fetch,
    signal: options.signal,
  });
  return { ...result, requestId };
}
