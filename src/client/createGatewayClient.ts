// The typed client: one method per operation of the contract, each on its own host, heads built
// for the caller, results typed by the operation's own result codes with the next step each one
// carries. Hosts, head families, signatures and idempotence are read from the generated operation
// index; each operation's path, parameters and envelope go through openapi-fetch's typed POST, so
// the contract's generated `paths` check them. This file maps a call's arguments into a request
// and its answer into a result; send.ts sends it (signing, time limit, redirects, size limit,
// retries); observe.ts and tracing.ts tell the hooks, the logger and tracing about each attempt.
import createClient, { type Client, type RequestBodyOption } from 'openapi-fetch';
import { type OperationInfo, operations } from '../../generated/operations.js';
import type { Signer } from '../signing/checksum.js';
import { ResponseValidationError } from '../transport/errors.js';
import { defaultRequestId, type HeadInput, headBuilders } from '../transport/heads.js';
import { isRepeatable } from '../transport/nextStep.js';
import { type CallResult, resultOf } from '../transport/result.js';
import { checkRequest, DEFAULT_MAX_ANSWER_BYTES } from '../transport/send.js';
import type { BodyOf, ClientOperationId, HeadOf, operations as Operations, paths, RequestOf } from '../types.js';
import { validate } from '../validation/index.js';
import { refuseUnawaited } from './awaited.js';
import {
  type CallErrorEvent,
  type CallRequestEvent,
  type CallResponseEvent,
  type GatewayLogger,
  type Observer,
  observerOf,
} from './observe.js';
import { type RetryOptions, retryPolicyOf } from './retry.js';
import { type Delivery, type Posted, type SendSettings, send } from './send.js';
import { attemptPublisher, traceCall } from './tracing.js';

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
type ParameterFrom<O extends ClientOperationId, S extends string> = Extract<
  Info<O>['parameters'][number],
  { source: S }
>['name'];

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
export type CallArgs<O extends ClientOperationId> = { body: BodyOf<O> } & {
  [K in ParameterFrom<O, 'argument'>]: string;
} & {
  [K in ParameterFrom<O, 'head'>]?: string | undefined;
} & (Info<O>['credential'] extends { argument: infer A extends string } ? { [K in A]: string } : unknown) &
  (Info<O>['signature'] extends 'optional'
    ? { /** Sign the body (default: when the client has a signer). */ sign?: boolean | undefined }
    : unknown) &
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

/**
 * The base URL of a host, checked. One holding credentials (`user:password@`) is refused here: the
 * runtime's fetch refuses it anyway, and its error quotes the whole address, password included.
 * The messages name the option, never the value.
 */
function baseUrlOf(url: unknown, name: string): string {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url) || !URL.canParse(url))
    throw new TypeError(`${name} must be an http(s) URL`);
  const { username, password } = new URL(url);
  if (username || password)
    throw new TypeError(
      `${name} must not hold credentials (user or password before "@"): the service is authenticated by the signature and tokens.`,
    );
  return url.replace(/\/+$/, '');
}

/** The options of operation O's POST: its parameters and envelope, as the contract types them, and how it is sent. */
type PostInit<O extends ClientOperationId> = Delivery & { params: Operations[O]['parameters']; body: RequestOf<O> };

/** The pre-auth envelope as openapi-fetch 0.17 types it (see the preAuthorize route). */
type PreAuthBodyAsSent = RequestBodyOption<paths['/order/v2/preAuth']['post']>['body'];

/** What the client knows of one operation beyond the index: how its arguments fill the request. */
interface Route<O extends ClientOperationId> {
  /** The path and query parameters, from the arguments; `requestId()` is the call's request id (see `requestId`). */
  params(args: CallArgs<O>, requestId: () => string): Operations[O]['parameters'];
  /** The caller's request id, for the operations whose query and head carry one (tokenize, D-19); a new one when none is given. */
  requestId?(args: CallArgs<O>): string | undefined;
  /** The head's token (`head.token`), for the operations that carry one. */
  token?(args: CallArgs<O>): string;
  /** Whether to sign, where the signature is optional. */
  sign?(args: CallArgs<O>): boolean | undefined;
  /** The operation's POST, on its host's openapi-fetch client: the compiler checks the path, the parameters and the envelope against `paths`. */
  post(api: Client<paths>, init: PostInit<O>): Promise<Posted>;
}

const routes: { [O in ClientOperationId]: Route<O> } = {
  tokenizeCard: {
    params: (args, requestId) => ({ path: { mid: args.mid }, query: { requestId: requestId() } }),
    requestId: (args) => args.requestId,
    post: (api, init) => api.POST('/coft-center/coft/merchant/{mid}/tokenize', init),
  },
  preAuthorize: {
    params: () => ({}),
    // openapi-fetch 0.17 types a request property that can only be null as `?: never`
    // (openapi-ts/openapi-typescript#2717): here the branch of a pre-auth with no payment mode,
    // `paymentMode?: null`. The envelope is given as openapi-fetch types this operation's body; the
    // caller's argument keeps the contract's type (docs/decisions.md, D-75).
    post: (api, init) => api.POST('/order/v2/preAuth', { ...init, body: init.body as PreAuthBodyAsSent }),
  },
  listSubscriptions: {
    params: () => ({}),
    token: (args) => args.token,
    post: (api, init) => api.POST('/subscription/list/all', init),
  },
  initiatePayment: {
    params: (args) => ({ query: { mid: args.body?.mid, orderId: args.body?.orderId } }),
    token: (args) => args.txnToken,
    post: (api, init) => api.POST('/aoa-acquiring-biz/v2/payment', init),
  },
  modifyOrder: {
    params: (args) => ({ query: { mid: args.mid, orderId: args.orderId } }),
    token: (args) => args.txnToken,
    sign: (args) => args.sign,
    post: (api, init) => api.POST('/aoa-acquiring-biz/v2/modifyOrder', init),
  },
  createSubscription: {
    params: (args) => ({ query: { mid: args.body?.mid, orderId: args.body?.orderId } }),
    post: (api, init) => api.POST('/aoa-subscription/api/v2/subscription/create', init),
  },
};

type OperationEntry = Extract<OperationInfo, { kind: 'operation' }>;

/** An operation's entry of the index. */
function entryOf(operationId: ClientOperationId): OperationEntry {
  for (const info of operations) if (info.kind === 'operation' && info.operationId === operationId) return info;
  throw new Error(`${operationId} is not in the operation index.`);
}

/** A client for the six operations, built on openapi-fetch, the operation index and the generated types. */
export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const {
    signer,
    clientId,
    version,
    channelId,
    encryptionKeyVersion,
    now = Date.now,
    requestId: newRequestId = defaultRequestId,
  } = options;
  const settings: SendSettings = {
    timeoutMs: options.timeoutMs ?? 30_000,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_ANSWER_BYTES,
    retry: retryPolicyOf(options.retry),
    fetch: options.fetch,
  };
  const observer = observerOf(options);
  const checkRequests =
    options.validate === true || (typeof options.validate === 'object' && options.validate.request === true);
  const checkResponses =
    options.validate === true || (typeof options.validate === 'object' && options.validate.response === true);
  // Never follow a redirect (see isRedirect in transport/send.ts): the answer is refused as it is.
  const hosts = {
    gateway: createClient<paths>({ baseUrl: baseUrlOf(options.gatewayUrl, 'gatewayUrl'), redirect: 'manual' }),
    router: createClient<paths>({ baseUrl: baseUrlOf(options.routerUrl, 'routerUrl'), redirect: 'manual' }),
  };

  async function call<O extends ClientOperationId>(
    info: OperationEntry,
    operationId: O,
    args: CallArgs<O>,
  ): Promise<CallResult<O>> {
    if (!args || typeof args !== 'object')
      throw new TypeError(`${operationId}: pass the call's arguments, at least { body }.`);
    const route: Route<O> = routes[operationId];
    // The caller's extra headers (for example `Prefer: example=<name>` for the mock), checked
    // before anything is signed or sent.
    const headers = {
      ...extraHeaders(operationId, args.headers),
      'Content-Type': 'application/json',
      Accept: 'application/json',
    };
    const sign =
      info.signature === 'required' || (info.signature === 'optional' && (route.sign?.(args) ?? Boolean(signer)));
    if (sign && !signer)
      throw new TypeError(
        `${operationId} is signed: pass a signer to createGatewayClient (for example createChecksumSigner(merchantKey)).`,
      );
    // The request id of the operations that carry one in the query and the head (tokenize, D-19).
    let requestId: string | undefined;
    const params = route.params(args, () => {
      requestId ??= route.requestId?.(args) ?? newRequestId();
      return requestId;
    });
    const input: HeadInput = {
      now,
      clientId,
      version,
      channelId,
      encryptionKeyVersion,
      requestId,
      signatureType: signer?.signatureType,
      token: route.token?.(args),
    };
    const head = { ...headBuilders[info.head.schema](input), ...args.head };
    const body = args.body;
    const api = hosts[info.host];
    const settle = (
      answer: Record<string, unknown>,
      exchanged: { status: number; headers: Headers },
    ): CallResult<O> => {
      if (checkResponses) {
        const verdict = validate(operationId, 'response', answer);
        if (!verdict.valid)
          throw new ResponseValidationError(
            `${operationId}: the answer breaks the contract (${verdict.errors.length} problem(s)).`,
            {
              operationId,
              status: exchanged.status,
              issues: verdict.errors,
              data: answer,
            },
          );
      }
      return resultOf(operationId, answer, exchanged.status, exchanged.headers);
    };
    const watch = watching(observer, attemptPublisher());
    return traceCall(
      info,
      (watched) =>
        send(
          {
            operationId,
            host: info.host,
            path: info.path,
            repeatable: isRepeatable(operationId),
            head,
            body,
            signer: sign ? signer : undefined,
            headers,
            signal: args.signal,
            // Always: a Promise where a value belongs (an un-awaited helper) is refused (D-117);
            // with `validate`, the whole request against the contract.
            check: (envelope) => {
              refuseUnawaited(operationId, { envelope, params, signed: sign });
              if (checkRequests)
                checkRequest(
                  operationId,
                  validate(
                    operationId,
                    'request',
                    { head: envelope.head, body: envelope.body },
                    { path: params.path, query: params.query },
                  ),
                  'the request',
                );
            },
            // The envelope as built and signed for this call: the contract's type once every field
            // the head requires was given (`validate` checks it before sending). openapi-fetch
            // types it; bodySerializer sends its exact text.
            post: (envelope, delivery) =>
              route.post(api, { ...delivery, params, body: { head: envelope.head, body } as RequestOf<O> }),
            settle,
          },
          settings,
          watched,
        ),
      watch,
    );
  }

  /** The method of one operation. */
  function method<O extends ClientOperationId>(operationId: O): (args: CallArgs<O>) => Promise<CallResult<O>> {
    const info = entryOf(operationId);
    return (args) => call(info, operationId, args);
  }

  return {
    tokenizeCard: method('tokenizeCard'),
    preAuthorize: method('preAuthorize'),
    listSubscriptions: method('listSubscriptions'),
    initiatePayment: method('initiatePayment'),
    modifyOrder: method('modifyOrder'),
    createSubscription: method('createSubscription'),
  };
}

/** The hooks and logger, and tracing's publisher of attempts: whichever there are, or null. */
function watching(observer: Observer | null, publisher: Observer | null): Observer | null {
  if (!publisher) return observer;
  if (!observer) return publisher;
  return {
    request(event) {
      observer.request(event);
      publisher.request(event);
    },
    response(event) {
      observer.response(event);
      publisher.response(event);
    },
    error(event) {
      observer.error(event);
      publisher.error(event);
    },
  };
}

/**
 * The caller's extra HTTP headers of one call, checked: names and values must be strings a
 * request can carry (the Fetch API would reject them later with a less clear error).
 */
function extraHeaders(operationId: string, headers: unknown): Record<string, string> {
  const checked: Record<string, string> = {};
  if (headers === undefined) return checked;
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers))
    throw new TypeError(`${operationId}: headers must be an object of header names and string values`);
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new TypeError(`${operationId}: "${name.slice(0, 64)}" is not a valid HTTP header name`);
    // The body is always a JSON envelope and the answer is read as one.
    if (/^(content-type|accept)$/i.test(name))
      throw new TypeError(`${operationId}: the ${name} header is always application/json and cannot be set`);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value))
      throw new TypeError(`${operationId}: the value of header "${name}" must be a string without line breaks`);
    checked[name] = value;
  }
  return checked;
}
