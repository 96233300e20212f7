// The typed client: one method per operation of the contract, each on its own host, heads built
// for the caller, the signature computed over the exact bytes sent, results typed by the
// operation's own result codes with the next step each one carries. Hosts, paths, where each
// parameter comes from, how each call is signed and whether it is idempotent are read from the
// generated operation index; the argument types are derived from it and from the generated
// request types. Retries are opt-in and only of what is safe to send again (retry.ts); hooks and
// a logger see each attempt (observe.ts). Without them, a call does no work for either.
import createClient from 'openapi-fetch';
import { type OperationInfo, operations } from '../../generated/operations.js';
import type { Signer } from '../signing/checksum.js';
import { GatewayError, GatewayHttpError, ResponseValidationError } from '../transport/errors.js';
import { defaultRequestId, type HeadInput, headBuilders } from '../transport/heads.js';
import { isRepeatable } from '../transport/nextStep.js';
import { type CallResult, resultOf } from '../transport/result.js';
import {
  AnswerTooLarge,
  boundedResponse,
  buildEnvelope,
  checkRequest,
  DEFAULT_MAX_ANSWER_BYTES,
  exchange,
  isRedirect,
  readEnvelope,
  redirectError,
  type Wording,
} from '../transport/send.js';
import type { BodyOf, ClientOperationId, HeadOf } from '../types.js';
import { validate } from '../validation/validate.js';
import { type CallErrorEvent, type CallRequestEvent, type CallResponseEvent, type GatewayLogger, type Observer, observerOf, responseEvent } from './observe.js';
import { backoffMs, mayRepeat, pause, type RetryOptions, type RetryPolicy, retryPolicyOf } from './retry.js';

export type { CallErrorEvent, CallRequestEvent, CallResponseEvent, CallResult, GatewayLogger, RetryOptions };

export interface GatewayClientOptions {
  /** The gateway address (`{base_url}`): tokenize, pre-auth, list subscriptions. */
  gatewayUrl: string;
  /** The order-router address (`{router_url}`): pay, modify order, create subscription. */
  routerUrl: string;
  /** Signs the serialized body; required for tokenize, pre-auth, list subscriptions and create subscription, optional for modify order. */
  signer?: Signer | undefined;
  /** Head `clientId` (pre-auth requires it; token-service and list calls send it when given). */
  clientId?: string | undefined;
  /** Head `version` for pre-auth and list subscriptions (pre-auth: application version, for example `v2`). */
  version?: string | undefined;
  /** Head `channelId` (router calls accept APP, WEB, WAP; create subscription WEB or WAP). */
  channelId?: 'APP' | 'WEB' | 'WAP' | 'SYSTEM' | undefined;
  /** Token-service head `encryptionKeyVersion`, when the merchant has several keys. */
  encryptionKeyVersion?: 'v1' | undefined;
  /** Milliseconds to wait for an answer before `GatewayTimeoutError` (default 30 000). */
  timeoutMs?: number | undefined;
  /** Answers larger than this many bytes are not read: `GatewayNonJsonError` (default 1 MiB). */
  maxResponseBytes?: number | undefined;
  /** Validate requests before sending and answers on arrival against the contract (default off). */
  validate?: boolean | { request?: boolean | undefined; response?: boolean | undefined } | undefined;
  /** A fetch to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /** Clock for head timestamps (default Date.now). */
  now?: (() => number) | undefined;
  /** Request id generator for tokenize (default crypto.randomUUID). */
  requestId?: (() => string) | undefined;
  /**
   * Send again what is safe to send again (default off; `true` takes the defaults): an attempt
   * whose next step is `retry-later` on an idempotent operation (list subscriptions: a timeout, a
   * network failure, HTTP 5xx, result code 500), and on any operation a request that failed before
   * a byte of it was written (host not found, connection refused). Never a payment, pre-auth,
   * modification or subscription whose answer was lost: its error's next step is `query-status`.
   */
  retry?: boolean | RetryOptions | undefined;
  /** Called before each attempt is sent. A hook that throws never changes the call. */
  onRequest?: ((event: CallRequestEvent) => void) | undefined;
  /** Called when an attempt gets an answer: timings, HTTP status, result code, outcome, next step. */
  onResponse?: ((event: CallResponseEvent) => void) | undefined;
  /** Called when an attempt ends without a usable answer, or the request is refused before sending. */
  onError?: ((event: CallErrorEvent) => void) | undefined;
  /** One line per attempt (operation, timings, status, code, outcome, next step), never a value of the payload; `console` will do. */
  logger?: GatewayLogger | undefined;
}

type Info<O extends ClientOperationId> = Extract<OperationInfo, { operationId: O }>;
type ParameterFrom<O extends ClientOperationId, S extends string> = Extract<Info<O>['parameters'][number], { source: S }>['name'];

/** What every call takes besides its own values. */
export interface CallOptions<O extends ClientOperationId> {
  /** Head fields to send as given (they win over the built ones). */
  head?: Partial<HeadOf<O>> | undefined;
  /** Cancels the call (a `GatewayAbortError`). */
  signal?: AbortSignal | undefined;
  /**
   * Extra HTTP headers for this call, for example `{ Prefer: 'example=payOrderPaid' }` to pick a
   * named answer of the mock. `Content-Type` and `Accept` are always `application/json` and
   * cannot be set here.
   */
  headers?: Record<string, string> | undefined;
}

/**
 * The arguments of one call, derived from the operation index: the body; each path or query
 * parameter the body does not carry (tokenize `mid`, modify order `mid` and `orderId`); an
 * optional value for a parameter the head carries too (tokenize `requestId`); the head's token
 * (`txnToken`, or the SSO `token` of list subscriptions); `sign` where the signature is optional.
 */
export type CallArgs<O extends ClientOperationId> = { body: BodyOf<O> } & { [K in ParameterFrom<O, 'argument'>]: string } & {
  [K in ParameterFrom<O, 'head'>]?: string | undefined;
} & (Info<O>['credential'] extends { argument: infer A extends string } ? { [K in A]: string } : unknown) &
  (Info<O>['signature'] extends 'optional' ? { /** Sign the body (default: when the client has a signer). */ sign?: boolean | undefined } : unknown) &
  CallOptions<O>;

export interface GatewayClient {
  /** Tokenize a card (gateway). `mid` goes to the path; the request id to the query and the head. */
  tokenizeCard(args: CallArgs<'tokenizeCard'>): Promise<CallResult<'tokenizeCard'>>;
  /** Pre-authorize an amount (gateway). */
  preAuthorize(args: CallArgs<'preAuthorize'>): Promise<CallResult<'preAuthorize'>>;
  /** List a customer's subscriptions (gateway), with the customer's SSO token. */
  listSubscriptions(args: CallArgs<'listSubscriptions'>): Promise<CallResult<'listSubscriptions'>>;
  /** Pay an order (router). The query's mid and orderId are taken from the body. */
  initiatePayment(args: CallArgs<'initiatePayment'>): Promise<CallResult<'initiatePayment'>>;
  /** Modify an order (router). Signed when the client has a signer, unless `sign: false`. */
  modifyOrder(args: CallArgs<'modifyOrder'>): Promise<CallResult<'modifyOrder'>>;
  /** Create a subscription (router). The query's mid and orderId are taken from the body. */
  createSubscription(args: CallArgs<'createSubscription'>): Promise<CallResult<'createSubscription'>>;
}

// The interface names every operation of the index, and nothing else.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const clientCoversIndex: Same<keyof GatewayClient, ClientOperationId> = true;
void clientCoversIndex;

const SERVICE: Wording = {
  timeout: (ms) => `no answer within ${ms} ms. The outcome is unknown: query the status before retrying.`,
  failed: 'the request did not complete',
  answer: 'the answer',
};

/**
 * What openapi-fetch builds for a call that the global fetch sends: the address and the init, handed
 * to fetch as they are. A full Request, which fetch then takes apart again, costs about a third of
 * a call on loopback (bench/client.mjs). A caller's own `fetch` option still gets a real Request.
 */
class OutgoingCall {
  readonly url: string;
  readonly method: string | undefined;
  constructor(
    url: string | URL,
    readonly init: RequestInit,
  ) {
    this.url = String(url);
    this.method = init.method;
  }
}

/**
 * The base URL of a host, checked. One holding credentials (`user:password@`) is refused here: the
 * runtime's fetch refuses it anyway, and its error quotes the whole address, password included.
 * The messages name the option, never the value.
 */
function baseUrlOf(url: unknown, name: string): string {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url) || !URL.canParse(url)) throw new TypeError(`${name} must be an http(s) URL`);
  const { username, password } = new URL(url);
  if (username || password)
    throw new TypeError(`${name} must not hold credentials (user or password before "@"): the service is authenticated by the signature and tokens.`);
  return url.replace(/\/+$/, '');
}

/** A call's values by name: its arguments object, read without trusting its shape. */
type Values = Record<string, unknown>;

/** A client for the six operations, built on openapi-fetch, the operation index and the generated types. */
export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const {
    signer,
    clientId,
    version,
    channelId,
    encryptionKeyVersion,
    timeoutMs = 30_000,
    maxResponseBytes = DEFAULT_MAX_ANSWER_BYTES,
    now = Date.now,
    requestId = defaultRequestId,
  } = options;
  const policy = retryPolicyOf(options.retry);
  const observer = observerOf(options);
  const checkRequests = options.validate === true || (typeof options.validate === 'object' && options.validate.request === true);
  const checkResponses = options.validate === true || (typeof options.validate === 'object' && options.validate.response === true);
  // Answers that are not 2xx are read by openapi-fetch itself: bound them before it does.
  const bounded = async (response: Response): Promise<Response> => {
    if (response.ok) return response;
    const small = await boundedResponse(response, maxResponseBytes);
    if (!small) throw new AnswerTooLarge();
    return small;
  };
  const fetchImpl = options.fetch;
  const clientOptions = fetchImpl
    ? { fetch: async (request: Request) => bounded(await fetchImpl(request)) }
    : {
        Request: OutgoingCall as unknown as typeof Request,
        fetch: async (call: Request) => bounded(await globalThis.fetch((call as unknown as OutgoingCall).url, (call as unknown as OutgoingCall).init)),
      };
  // Never follow a redirect (see isRedirect): the answer is read as it is, and refused.
  const hosts = {
    gateway: createClient({ baseUrl: baseUrlOf(options.gatewayUrl, 'gatewayUrl'), redirect: 'manual', ...clientOptions }),
    router: createClient({ baseUrl: baseUrlOf(options.routerUrl, 'routerUrl'), redirect: 'manual', ...clientOptions }),
  };

  async function call(info: Extract<OperationInfo, { kind: 'operation' }>, args: Values): Promise<unknown> {
    const { operationId } = info;
    if (!args || typeof args !== 'object') throw new TypeError(`${operationId}: pass the call's arguments, at least { body }.`);
    // The caller's extra headers (for example `Prefer: example=<name>` for the mock), checked
    // before anything is signed or sent.
    const headers = { ...extraHeaders(operationId, args.headers), 'Content-Type': 'application/json', Accept: 'application/json' };
    const body = args.body as Values | undefined;
    const sign = info.signature === 'required' || (info.signature === 'optional' && ((args.sign as boolean | undefined) ?? Boolean(signer)));
    if (sign && !signer) throw new TypeError(`${operationId} is signed: pass a signer to createGatewayClient (for example createChecksumSigner(merchantKey)).`);
    const query: Record<string, string | undefined> = {};
    const path: Record<string, string | undefined> = {};
    let headRequestId: string | undefined;
    for (const p of info.parameters) {
      let value: unknown;
      if (p.source === 'body') value = body?.[p.name];
      else if (p.source === 'head') value = headRequestId = (args[p.name] as string | undefined) ?? requestId();
      else value = args[p.name] ?? body?.[p.name];
      (p.in === 'path' ? path : query)[p.name] = value as string | undefined;
    }
    const input: HeadInput = {
      now,
      clientId,
      version,
      channelId,
      encryptionKeyVersion,
      requestId: headRequestId,
      signatureType: signer?.signatureType,
      token: info.credential ? (args[info.credential.argument] as string | undefined) : undefined,
    };
    const head = { ...headBuilders[info.head.schema](input), ...(args.head as Values | undefined) };
    const envelope = await buildEnvelope(head, body, sign ? signer : undefined);
    if (checkRequests) {
      if (!observer) checkRequest(operationId, envelope, { query, path }, 'the request');
      else refusedBeforeSending(observer, operationId, () => checkRequest(operationId, envelope, { query, path }, 'the request'));
    }
    const callerSignal = args.signal as AbortSignal | undefined;
    // One attempt: the same bytes each time (a retry repeats the request, its request id included).
    const attempt = async (): Promise<CallResult<ClientOperationId>> => {
      const exchanged = await exchange(
        async (signal) => {
          const post = hosts[info.host].POST as unknown as (
            path: string,
            init: Record<string, unknown>,
          ) => Promise<{ data?: ReadableStream<Uint8Array>; error?: unknown; response: Response }>;
          const answer = await post(info.path, {
            params: { path, query },
            body,
            bodySerializer: () => envelope.text,
            parseAs: 'stream',
            signal,
            headers,
          });
          const { response } = answer;
          if (isRedirect(response)) throw redirectError(operationId, response.status, SERVICE);
          if (!response.ok)
            throw new GatewayHttpError(`${operationId}: HTTP ${response.status} (the service answers every outcome with 200).`, {
              operationId,
              status: response.status,
              data: answer.error,
            });
          return { response, body: answer.data };
        },
        { operationId, timeoutMs, signal: callerSignal, maxBytes: maxResponseBytes, wording: SERVICE },
      );
      const data = readEnvelope(exchanged, { operationId, wording: SERVICE });
      if (checkResponses) {
        const verdict = validate(operationId, 'response', data);
        if (!verdict.valid)
          throw new ResponseValidationError(`${operationId}: the answer breaks the contract (${verdict.errors.length} problem(s)).`, {
            operationId,
            status: exchanged.status,
            issues: verdict.errors,
            data,
          });
      }
      return resultOf(operationId, data, exchanged.status, exchanged.headers) as CallResult<ClientOperationId>;
    };
    if (!policy && !observer) return attempt();
    return attempts(info, attempt, callerSignal);
  }

  /** The attempts of one call, observed and, where safe, repeated. */
  async function attempts(
    info: Extract<OperationInfo, { kind: 'operation' }>,
    attempt: () => Promise<CallResult<ClientOperationId>>,
    signal: AbortSignal | undefined,
  ): Promise<CallResult<ClientOperationId>> {
    const { operationId } = info;
    const repeatable = isRepeatable(operationId);
    const began = performance.now();
    for (let n = 1; ; n++) {
      observer?.request({ operationId, attempt: n, host: info.host, path: info.path });
      const started = performance.now();
      let result: CallResult<ClientOperationId>;
      try {
        result = await attempt();
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error;
        const delay = retryDelay(policy, n, began, signal, mayRepeat(error.nextStep, repeatable, error));
        observer?.error({ operationId, attempt: n, durationMs: performance.now() - started, error, willRetry: delay !== null });
        if (delay === null) throw error;
        await waitToRetry(delay, signal, operationId, n + 1);
        continue;
      }
      const delay = retryDelay(policy, n, began, signal, mayRepeat(result.nextStep, repeatable));
      observer?.response(responseEvent(operationId, n, performance.now() - started, result, delay !== null));
      if (delay === null) return result;
      await waitToRetry(delay, signal, operationId, n + 1);
    }
  }

  /** Waits before attempt `next`; an abort meanwhile ends the call (and is told to onError). */
  async function waitToRetry(delay: number, signal: AbortSignal | undefined, operationId: ClientOperationId, next: number): Promise<void> {
    const started = performance.now();
    try {
      await pause(delay, signal, operationId);
    } catch (error) {
      if (error instanceof GatewayError) observer?.error({ operationId, attempt: next, durationMs: performance.now() - started, error, willRetry: false });
      throw error;
    }
  }

  const client: Record<string, (args: Values) => Promise<unknown>> = {};
  for (const info of operations) if (info.kind === 'operation') client[info.operationId] = (args) => call(info, args);
  return client as unknown as GatewayClient;
}

/** The wait before the next attempt, or null when there is none: retries off or used up, not safe, past the time allowed, or aborted. */
function retryDelay(policy: RetryPolicy | null, attempt: number, began: number, signal: AbortSignal | undefined, safe: boolean): number | null {
  if (!policy || !safe || attempt > policy.retries || signal?.aborted) return null;
  const delay = backoffMs(policy, attempt);
  return performance.now() - began + delay > policy.maxElapsedMs ? null : delay;
}

/** Runs the request's check, telling onError and the logger when it refuses the request (nothing is sent). */
function refusedBeforeSending(observer: Observer, operationId: ClientOperationId, check: () => void): void {
  const started = performance.now();
  try {
    check();
  } catch (error) {
    if (error instanceof GatewayError) observer.error({ operationId, attempt: 1, durationMs: performance.now() - started, error, willRetry: false });
    throw error;
  }
}

/**
 * The caller's extra HTTP headers of one call, checked: names and values must be strings a
 * request can carry (the Fetch API would reject them later with a less clear error).
 */
function extraHeaders(operationId: string, headers: unknown): Record<string, string> {
  if (headers === undefined) return {};
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers))
    throw new TypeError(`${operationId}: headers must be an object of header names and string values`);
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new TypeError(`${operationId}: "${name.slice(0, 64)}" is not a valid HTTP header name`);
    // The body is always a JSON envelope and the answer is read as one.
    if (/^(content-type|accept)$/i.test(name)) throw new TypeError(`${operationId}: the ${name} header is always application/json and cannot be set`);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value))
      throw new TypeError(`${operationId}: the value of header "${name}" must be a string without line breaks`);
  }
  return headers as Record<string, string>;
}
