// The one pipeline of a signed JSON envelope sent over HTTP, shared by the typed client (calls to
// the service) and the webhook sender (notifications to a merchant): serialize the body once and
// sign those bytes, check the request against the contract, post it within a time limit, read the
// answer within a size limit, and read its JSON envelope. Every failure is a typed error whose
// message never holds a value of the payload or the answer.
import { utf8Text } from '../encoding/bytes.js';
import { readWebBody } from '../http/readBody.js';
import { parseJson } from '../json/parse.js';
import type { Signer } from '../signing/checksum.js';
import type { OperationId } from '../types.js';
import type { ValidationResult } from '../validation/operationValidation.js';
import {
  GatewayAbortError,
  GatewayError,
  GatewayHttpError,
  GatewayNetworkError,
  GatewayNonJsonError,
  GatewayTimeoutError,
  RequestValidationError,
} from './errors.js';
import type { Head } from './heads.js';

/** Answers larger than this are not read (1 MiB; the largest answer of the contract is a few kB). */
export const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;

/** A request ready to send: its head (signed) and the exact text of the envelope. */
export interface Envelope {
  head: Head;
  body: unknown;
  /** `{"head":...,"body":...}`, in which the body's bytes are exactly the signed ones. */
  text: string;
}

/**
 * Serializes the body once and, with a signer, puts the signature over exactly those bytes into
 * the head (it replaces any given one).
 */
export async function buildEnvelope(head: Head, body: unknown, signer?: Signer): Promise<Envelope> {
  const bodyText = JSON.stringify(body);
  const signed = signer ? { ...head, signature: await signer.sign(bodyText) } : head;
  return { head: signed, body, text: `{"head":${JSON.stringify(signed)},"body":${bodyText}}` };
}

/**
 * Refuses (RequestValidationError) a request whose validation failed, before anything is sent. The
 * caller validates with what it loads (the client every operation, the sender the notification
 * alone), so that this module loads no validator.
 */
export function checkRequest(operationId: OperationId, verdict: ValidationResult, what: string): void {
  if (!verdict.valid)
    throw new RequestValidationError(
      `${operationId}: ${what} breaks the contract (${verdict.errors.length} problem(s)); nothing was sent.`,
      {
        operationId,
        issues: verdict.errors,
      },
    );
}

/** How the errors of one kind of exchange speak of the other side. */
export interface Wording {
  /** `no answer within 30000 ms. The outcome is unknown: ...` */
  timeout: (ms: number) => string;
  /** `the request did not complete` */
  failed: string;
  /** `the answer`, `the merchant's reply` */
  answer: string;
}

/** What came back: the HTTP status, the headers and the text of the body (at most `maxBytes`). */
export interface Exchanged {
  status: number;
  headers: Headers;
  text: string;
}

export interface ExchangeOptions {
  operationId: string;
  timeoutMs: number;
  /** The caller's signal: aborting it is a GatewayAbortError. */
  signal?: AbortSignal | undefined;
  maxBytes: number;
  wording: Wording;
}

/** The body's text, or null as soon as it passes `maxBytes` (reading stops there, and at `signal`). */
export async function readBounded(
  body: ReadableStream<Uint8Array> | null | undefined,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<string | null> {
  const bytes = await readWebBody(body, maxBytes, signal);
  // Lossy: an answer that is not UTF-8 is judged by what it says, not refused for its bytes.
  return bytes === null ? null : utf8Text(bytes);
}

/** A thrown value that says the answer was larger than allowed (see `exchange`). */
export class AnswerTooLarge extends Error {}

/**
 * Posts with `post` within `timeoutMs` (the time covers reading the answer too), and reads the
 * answer's text within `maxBytes`. One controller serves the timeout and the caller's signal
 * (AbortSignal.timeout and AbortSignal.any make transferable signals, which cost a tenth of a
 * loopback call).
 *
 * The time limit and the caller's signal end the exchange by themselves, whether or not the fetch
 * honours the abort: a fetch may lose its signal (Node 20's fetch given a Request loses the
 * Request's signal once the garbage collector has run, nodejs/node#55428), and a caller's own
 * fetch may ignore it. The call then ends in time all the same, and its answer, should one come,
 * is cancelled unread.
 */
export async function exchange(
  post: (signal: AbortSignal) => Promise<{ response: Response; body: ReadableStream<Uint8Array> | null | undefined }>,
  options: ExchangeOptions,
): Promise<Exchanged> {
  const { operationId, timeoutMs, signal, maxBytes, wording } = options;
  const controller = new AbortController();
  let timedOut = false;
  let stop: (reason: unknown) => void = () => undefined;
  const stopped = new Promise<never>((_resolve, reject) => {
    stop = reject;
  });
  const abort = (reason?: unknown) => {
    controller.abort(reason);
    stop(controller.signal.reason);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    abort();
  }, timeoutMs);
  const onCallerAbort = () => abort(signal?.reason);
  if (signal?.aborted) onCallerAbort();
  else signal?.addEventListener('abort', onCallerAbort, { once: true });
  const work = async (): Promise<Exchanged> => {
    const { response, body } = await post(controller.signal);
    if (controller.signal.aborted) {
      // Answered after the end (a fetch that did not honour the abort): nothing of it is read.
      await body?.cancel().catch(() => undefined);
      throw controller.signal.reason;
    }
    const text = await readBounded(body, maxBytes, controller.signal);
    if (text === null) throw new AnswerTooLarge();
    return { status: response.status, headers: response.headers, text };
  };
  try {
    return await Promise.race([work(), stopped]);
  } catch (error) {
    // An error the poster decided (an HTTP status the caller refuses) stands as it is.
    if (error instanceof GatewayError) throw error;
    if (error instanceof AnswerTooLarge)
      throw new GatewayNonJsonError(
        `${operationId}: ${wording.answer} is larger than ${maxBytes} bytes; it was not read.`,
        { operationId },
      );
    if (timedOut)
      throw new GatewayTimeoutError(`${operationId}: ${wording.timeout(timeoutMs)}`, { operationId, cause: error });
    if (signal?.aborted)
      throw new GatewayAbortError(`${operationId}: aborted by the caller.`, { operationId, cause: error });
    const cause = (error as { cause?: { code?: unknown; syscall?: unknown } } | null)?.cause;
    const code = cause?.code ?? (error as { code?: unknown } | null)?.code;
    const detail = typeof code === 'string' ? code.slice(0, 40) : undefined;
    const sent = notSent(detail, cause?.syscall) ? 'no' : 'maybe';
    throw new GatewayNetworkError(`${operationId}: ${wording.failed}${detail ? ` (${detail})` : ''}.`, {
      operationId,
      cause: error,
      sent,
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCallerAbort);
  }
}

/**
 * Failures that happen before a connection exists, so before any byte of the request is written:
 * the host name did not resolve, the connection was refused or could not be opened in time
 * (docs/decisions.md, D-54). A reset, a closed socket or a timeout may come after the service read the
 * request.
 */
const BEFORE_CONNECTION = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT']);
/** Unreachable networks are refused at `connect` too, but the same codes can come later on a write. */
const AT_CONNECT = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

function notSent(code: string | undefined, syscall: unknown): boolean {
  if (code === undefined) return false;
  return BEFORE_CONNECTION.has(code) || (AT_CONNECT.has(code) && syscall === 'connect');
}

/**
 * Whether an answer is a redirect: a 3xx status, or the opaque answer a browser's fetch gives for
 * one under `redirect: 'manual'` (status 0). Every request of the package is sent with
 * `redirect: 'manual'`: the service and a merchant's webhook answer a POST themselves, and
 * following a redirect would post the whole signed request (card data, tokens, signature) again,
 * to an address the answer chose, and read that address's answer as theirs.
 */
export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/**
 * The error of a redirect: an HTTP error (the request was sent and answered) whose outcome is
 * unknown. It names the status only, never the address the answer points to.
 */
export function redirectError(operationId: string, status: number, wording: Wording): GatewayHttpError {
  return new GatewayHttpError(
    `${operationId}: ${wording.answer} is a redirect (HTTP ${status}), which is not followed: the request was sent, and sent nowhere else. Its outcome is unknown.`,
    { operationId, status },
  );
}

/**
 * The media types an error names: those an answer that is not a JSON envelope usually has (an
 * error page, a proxy's answer). Any other is "another media type": the header is the answer's
 * text, which may carry anything.
 */
const KNOWN_MEDIA_TYPES = new Set([
  'application/json',
  'application/problem+json',
  'application/xml',
  'application/problem+xml',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'application/javascript',
  'multipart/form-data',
  'text/html',
  'text/plain',
  'text/xml',
  'text/csv',
  'text/javascript',
]);

/** The media type of a content-type header, named only when it is a known one, without parameters. */
export function mediaType(header: string | null): string {
  if (header === null) return 'none';
  const type = (header.split(';')[0] ?? '').trim().toLowerCase();
  return KNOWN_MEDIA_TYPES.has(type) ? type : 'another media type';
}

/** The answer's JSON envelope (an object), or a GatewayNonJsonError that names only its HTTP status and media type. */
export function readEnvelope(
  exchanged: Exchanged,
  options: { operationId: string; wording: Wording },
): Record<string, unknown> {
  const parsed = parseJson(exchanged.text);
  if (parsed.ok && parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value))
    return parsed.value as Record<string, unknown>;
  const why = parsed.ok ? 'not an object' : parsed.message;
  throw new GatewayNonJsonError(
    `${options.operationId}: ${options.wording.answer} is not a JSON envelope (HTTP ${exchanged.status}, ${why}; content-type ${mediaType(exchanged.headers.get('content-type'))}).`,
    { operationId: options.operationId, status: exchanged.status },
  );
}
