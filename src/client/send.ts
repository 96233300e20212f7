// How a call of the typed client goes to the wire, in one place: the body is serialized once and
// signed into the head, the request checked against the contract (with `validate`), posted by
// the operation's typed POST (openapi-fetch) with redirects never followed, within the time
// limit, the answer read within its size limit and parsed, and what is safe to send again sent
// again (opt-in). The client (createGatewayClient.ts) maps the arguments into the call and each
// answer into a result; the hooks, the logger and tracing watch each attempt.
import { parseJson } from '../json/parse.js';
import type { Signer } from '../signing/checksum.js';
import { GatewayError, GatewayHttpError } from '../transport/errors.js';
import type { Head } from '../transport/heads.js';
import {
  AnswerTooLarge,
  buildEnvelope,
  type Envelope,
  type Exchanged,
  exchange,
  isRedirect,
  readBounded,
  readEnvelope,
  redirectError,
  type Wording,
} from '../transport/send.js';
import type { ClientOperationId } from '../types.js';
import { type Observer, responseEvent, type Settled } from './observe.js';
import { backoffMs, mayRepeat, pause, type RetryPolicy } from './retry.js';

export type { Envelope, Exchanged };

/** How one client sends: the same for each of its calls. */
export interface SendSettings {
  timeoutMs: number;
  maxResponseBytes: number;
  /** Opt-in retries, or null. */
  retry: RetryPolicy | null;
  /** The caller's fetch, or undefined for the runtime's. */
  fetch: ((request: Request) => Promise<Response>) | undefined;
}

/** What the sender adds to the options of an operation's POST (openapi-fetch's own options): how the request is sent. */
export type Delivery = {
  /** The envelope's exact text, whose body bytes are the signed ones. */
  bodySerializer: () => string;
  /** The answer's body comes back unread, to be read here within its size limit. */
  parseAs: 'stream';
  headers: Record<string, string>;
  signal: AbortSignal;
  fetch: (request: Request) => Promise<Response>;
};

/** What openapi-fetch returns for an answer this sender let through (a 2xx one). */
export interface Posted {
  data?: ReadableStream<Uint8Array> | null | undefined;
  response: Response;
}

/** One call, as the client hands it over. */
export interface Outgoing<R extends Settled> {
  operationId: ClientOperationId;
  host: 'gateway' | 'router';
  /** The path as the contract writes it (for the events). */
  path: string;
  /** Whether the operation's request may be sent twice without harm (D-54). */
  repeatable: boolean;
  /** The head before signing, and the body. */
  head: Head;
  body: unknown;
  /** Signs the body's bytes into `head.signature`, when the call is signed. */
  signer: Signer | undefined;
  /** The HTTP headers, Content-Type and Accept included. */
  headers: Record<string, string>;
  /** The caller's signal. */
  signal: AbortSignal | undefined;
  /** Refuses a request that holds an un-awaited value or (with `validate`) breaks the contract, before anything is sent. */
  check: ((envelope: Envelope) => void) | undefined;
  /** The operation's typed POST, given the signed envelope and how to send it. */
  post: (envelope: Envelope, delivery: Delivery) => Promise<Posted>;
  /** The result of an answer's envelope (or a thrown GatewayError). */
  settle: (answer: Record<string, unknown>, exchanged: Exchanged) => R;
}

const SERVICE: Wording = {
  timeout: (ms) => `no answer within ${ms} ms. The outcome is unknown: query the status before retrying.`,
  failed: 'the request did not complete',
  answer: 'the answer',
};

/**
 * Sends one call: signs it, checks it, and makes its attempts. `watch` (hooks, logger, tracing)
 * sees each attempt; without it and without retries, a call does no work for either.
 */
export async function send<R extends Settled>(
  call: Outgoing<R>,
  settings: SendSettings,
  watch: Observer | null,
): Promise<R> {
  const envelope = await buildEnvelope(call.head, call.body, call.signer);
  if (call.check) checkBeforeSending(call, envelope, watch);
  const attempt = () => attemptOnce(call, envelope, settings);
  if (!settings.retry && !watch) return attempt();
  return attempts(call, attempt, settings.retry, watch);
}

/** One attempt: the same bytes each time (a retry repeats the request, its request id included). */
async function attemptOnce<R extends Settled>(
  call: Outgoing<R>,
  envelope: Envelope,
  settings: SendSettings,
): Promise<R> {
  const { operationId } = call;
  const { maxResponseBytes } = settings;
  const send = settings.fetch ?? globalThis.fetch;
  // The Request openapi-fetch built, held until the attempt ends: Node 20's fetch loses the abort
  // signal of a Request the garbage collector has collected (nodejs/node#55428), and the time
  // limit would no longer close the connection.
  const held: { request?: Request | undefined } = {};
  const delivery = (signal: AbortSignal): Delivery => ({
    bodySerializer: () => envelope.text,
    parseAs: 'stream',
    headers: call.headers,
    signal,
    fetch: async (request) => {
      held.request = request;
      return passed(operationId, await send(request), maxResponseBytes, request.signal);
    },
  });
  try {
    const exchanged = await exchange(
      async (signal) => {
        const { data, response } = await call.post(envelope, delivery(signal));
        return { response, body: data };
      },
      { operationId, timeoutMs: settings.timeoutMs, signal: call.signal, maxBytes: maxResponseBytes, wording: SERVICE },
    );
    return call.settle(readEnvelope(exchanged, { operationId, wording: SERVICE }), exchanged);
  } finally {
    held.request = undefined;
  }
}

/**
 * The answer openapi-fetch may read: a 2xx one. A redirect is refused unread (see isRedirect);
 * any other status is an HTTP error, whose body is read here within the size limit (openapi-fetch
 * would read it whole).
 */
async function passed(
  operationId: string,
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Response> {
  if (isRedirect(response)) {
    await response.body?.cancel().catch(() => undefined);
    throw redirectError(operationId, response.status, SERVICE);
  }
  if (response.ok) return response;
  const text = await readBounded(response.body, maxBytes, signal);
  if (text === null) throw new AnswerTooLarge();
  const parsed = parseJson(text);
  throw new GatewayHttpError(`${operationId}: HTTP ${response.status} (the service answers every outcome with 200).`, {
    operationId,
    status: response.status,
    data: parsed.ok ? parsed.value : text || undefined,
  });
}

/** Runs the request's check, telling the watchers when it refuses the request (nothing is sent). */
function checkBeforeSending<R extends Settled>(call: Outgoing<R>, envelope: Envelope, watch: Observer | null): void {
  const started = performance.now();
  try {
    call.check?.(envelope);
  } catch (error) {
    if (error instanceof GatewayError)
      watch?.error({
        operationId: call.operationId,
        attempt: 1,
        durationMs: performance.now() - started,
        error,
        willRetry: false,
      });
    throw error;
  }
}

/** The attempts of one call, watched and, where safe, repeated. */
async function attempts<R extends Settled>(
  call: Outgoing<R>,
  attempt: () => Promise<R>,
  policy: RetryPolicy | null,
  watch: Observer | null,
): Promise<R> {
  const { operationId, repeatable, signal } = call;
  const began = performance.now();
  for (let n = 1; ; n++) {
    watch?.request({ operationId, attempt: n, host: call.host, path: call.path });
    const started = performance.now();
    let result: R;
    try {
      result = await attempt();
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      const delay = retryDelay(policy, n, began, signal, mayRepeat(error.nextStep, repeatable, error));
      watch?.error({
        operationId,
        attempt: n,
        durationMs: performance.now() - started,
        error,
        willRetry: delay !== null,
      });
      if (delay === null) throw error;
      await waitToRetry(delay, signal, operationId, n + 1, watch);
      continue;
    }
    const delay = retryDelay(policy, n, began, signal, mayRepeat(result.nextStep, repeatable));
    watch?.response(responseEvent(operationId, n, performance.now() - started, result, delay !== null));
    if (delay === null) return result;
    await waitToRetry(delay, signal, operationId, n + 1, watch);
  }
}

/** The wait before the next attempt, or null when there is none: retries off or used up, not safe, past the time allowed, or aborted. */
function retryDelay(
  policy: RetryPolicy | null,
  attempt: number,
  began: number,
  signal: AbortSignal | undefined,
  safe: boolean,
): number | null {
  if (!policy || !safe || attempt > policy.retries || signal?.aborted) return null;
  const delay = backoffMs(policy, attempt);
  return performance.now() - began + delay > policy.maxElapsedMs ? null : delay;
}

/** Waits before attempt `next`; an abort meanwhile ends the call (and is told to the watchers). */
async function waitToRetry(
  delay: number,
  signal: AbortSignal | undefined,
  operationId: ClientOperationId,
  next: number,
  watch: Observer | null,
): Promise<void> {
  const started = performance.now();
  try {
    await pause(delay, signal, operationId);
  } catch (error) {
    if (error instanceof GatewayError)
      watch?.error({ operationId, attempt: next, durationMs: performance.now() - started, error, willRetry: false });
    throw error;
  }
}
