import type { RequestOf, ResponseOf, OperationId } from '../types.js';
import type { ResultCodeCatalog } from '../../generated/resultCodes.js';
import type { Signer } from '../signing/checksum.js';

export interface GatewayClientOptions {
  /** The gateway address (`{base_url}`): tokenize, pre-auth, list subscriptions. */
  gatewayUrl: string;
  /** The order-router address (`{router_url}`): pay, modify order, create subscription. */
  routerUrl: string;
  /** Signs the serialized body; required for tokenize, pre-auth, list subscriptions and create subscription, optional for modify order. */
  signer?: Signer;
  /** Head `clientId` (pre-auth requires it; token-service and list calls send it when given). */
  clientId?: string;
  /** Head `version` for pre-auth and list subscriptions (pre-auth: application version, for example `v2`). */
  version?: string;
  /** Head `channelId` (router calls accept APP, WEB, WAP; create subscription WEB or WAP). */
  channelId?: 'APP' | 'WEB' | 'WAP' | 'SYSTEM';
  /** Token-service head `encryptionKeyVersion`, when the merchant has several keys. */
  encryptionKeyVersion?: 'v1';
  /** Milliseconds to wait for an answer before `GatewayTimeoutError` (default 30 000). */
  timeoutMs?: number;
  /** Validate requests before sending and answers on arrival against the contract (default off). */
  validate?: boolean | { request?: boolean; response?: boolean };
  /** A fetch to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: (request: Request) => Promise<Response>;
  /** Clock for head timestamps (default Date.now). */
  now?: () => number;
  /** Request id generator for tokenize (default crypto.randomUUID). */
  requestId?: () => string;
}

type Entry<O extends OperationId> = ResultCodeCatalog[O]['codes'][number];
type OutcomeOf<S> = S extends 'SUCCESS' | 'S' | 'TXN_SUCCESS' ? 'success' : S extends 'PENDING' ? 'pending' : 'failure';

/**
 * The service's answer to a call, narrowed by its result code: `outcome` is `success`, `pending`
 * or `failure` as the operation's own table says for that code.
 */
export type CallResult<O extends OperationId> = Entry<O> extends infer E
  ? E extends { code: infer C; status: infer S }
    ? { outcome: OutcomeOf<S>; code: C; status: S; message: string; meaning: string; data: ResponseOf<O>; httpStatus: number }
    : never
  : never;

type Head<O extends OperationId> = Partial<RequestOf<O>['head']>;
type Body<O extends OperationId> = RequestOf<O>['body'];
interface CallOptions<O extends OperationId> {
  /** Head fields to send as given (they win over the built ones). */
  head?: Head<O>;
  /** Cancels the call (a `GatewayAbortError`). */
  signal?: AbortSignal;
  /**
   * Extra HTTP headers for this call, for example `{ Prefer: 'example=payOrderPaid' }` to pick a
   * named answer of the mock. `Content-Type` and `Accept` are always `application/json` and
   * cannot be set here.
   */
  headers?: Record<string, string>;
}

export interface GatewayClient {
  /** Tokenize a card (gateway). `mid` goes to the path; the request id to the query and the head. */
  tokenizeCard(args: { mid: string; body: Body<'tokenizeCard'>; requestId?: string } & CallOptions<'tokenizeCard'>): Promise<CallResult<'tokenizeCard'>>;
  /** Pre-authorize an amount (gateway). */
  preAuthorize(args: { body: Body<'preAuthorize'> } & CallOptions<'preAuthorize'>): Promise<CallResult<'preAuthorize'>>;
  /** List a customer's subscriptions (gateway), with the customer's SSO token. */
  listSubscriptions(args: { token: string; body: Body<'listSubscriptions'> } & CallOptions<'listSubscriptions'>): Promise<CallResult<'listSubscriptions'>>;
  /** Pay an order (router). The query's mid and orderId are taken from the body. */
  initiatePayment(args: { txnToken: string; body: Body<'initiatePayment'> } & CallOptions<'initiatePayment'>): Promise<CallResult<'initiatePayment'>>;
  /** Modify an order (router). Signed when the client has a signer, unless `sign: false`. */
  modifyOrder(args: { mid: string; orderId: string; txnToken: string; body: Body<'modifyOrder'>; sign?: boolean } & CallOptions<'modifyOrder'>): Promise<CallResult<'modifyOrder'>>;
  /** Create a subscription (router). The query's mid and orderId are taken from the body. */
  createSubscription(args: { body: Body<'createSubscription'> } & CallOptions<'createSubscription'>): Promise<CallResult<'createSubscription'>>;
}

/** A client for the six operations, built on openapi-fetch and the generated types. */
export declare function createGatewayClient(options: GatewayClientOptions): GatewayClient;

/** Reads the outcome, code, status and message of an answer where the operation's catalog says. */
export declare function resultOf<O extends OperationId>(operationId: O, data: unknown, httpStatus: number): CallResult<O>;
