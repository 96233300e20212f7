import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestOf, ResponseOf, ResultCodeOf } from '../types.js';
import type { Verifier } from '../signing/checksum.js';
import type { ValidationIssue } from '../validation/validate.js';

/** A token status notification as the service sent it: `{ head, body: { mid, tokenInfo } }`. */
export type TokenStatusEvent = RequestOf<'notifyTokenStatus'>;
/** The merchant's reply envelope: head `{ version, responseTimestamp }`, `body.resultInfo`. */
export type TokenStatusReply = ResponseOf<'notifyTokenStatus'>;

/** Where accepted notifications are remembered for the replay window. Ids are opaque strings. */
export interface ReplayStore {
  has(id: string): boolean | Promise<boolean>;
  /** Remember `id` until `expiresAt` (epoch milliseconds). */
  add(id: string, expiresAt: number): void | Promise<void>;
}

export interface WebhookReceiverOptions {
  /** Checks `head.signature` over the exact bytes of the body, e.g. `createChecksumVerifier(merchantKey)`. */
  verifier: Verifier;
  /** An accepted notification's requestId and signature are refused again for this long (default 24 h). */
  replayWindowMs?: number;
  /** `head.requestTimestamp` further than this from now is refused (default 5 min). */
  maxClockSkewMs?: number;
  /** Clock, epoch milliseconds (default `Date.now`). */
  now?: () => number;
  /** Larger bodies are refused (default 1 MiB). */
  maxBytes?: number;
  /** Replay store (default: in memory, one process, expired ids evicted). */
  seen?: ReplayStore;
  /** The merchant id(s) this receiver serves; another `body.mid` is answered 407. */
  expectedMid?: string | readonly string[];
  /** Called by the adapters with each refusal, for logging: its code and issues (never a secret value). */
  onRejected?: (rejection: { code: ResultCodeOf<'notifyTokenStatus'>; issues: ValidationIssue[] }) => void;
}

export interface WebhookAccepted {
  accepted: true;
  event: TokenStatusEvent;
  /** The reply to send: code 00. */
  reply: TokenStatusReply;
}

export interface WebhookRejected {
  accepted: false;
  /** The code of section 7.1 the reply carries. */
  code: ResultCodeOf<'notifyTokenStatus'>;
  reply: TokenStatusReply;
  /** What is wrong, with JSON Pointers; never a signature or another value of the payload. */
  issues: ValidationIssue[];
}

export type WebhookVerdict = WebhookAccepted | WebhookRejected;

export type TokenStatusHandler = (event: TokenStatusEvent) => void | Promise<void>;

export interface WebhookReceiver {
  /** The raw request body (exact bytes) in, the verdict and the reply envelope out. Never throws. */
  receive(raw: string | Uint8Array): Promise<WebhookVerdict>;
  /** A node:http request listener: reads the body (bounded), calls `onEvent` for an accepted notification, replies. */
  nodeHandler(onEvent: TokenStatusHandler): (req: IncomingMessage, res: ServerResponse) => void;
  /** A Fetch API handler (Request in, Response out) with the same behaviour. */
  fetchHandler(onEvent: TokenStatusHandler): (request: Request) => Promise<Response>;
}

/** Receives the service's token status notification: signature, contract, clock and replay checks. */
export declare function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver;

/** The default replay store: in memory, expired ids evicted. */
export declare function createMemoryReplayStore(options?: { now?: () => number }): ReplayStore & { readonly size: number };

export declare const WEBHOOK_DEFAULTS: { readonly replayWindowMs: number; readonly maxClockSkewMs: number; readonly maxBytes: number };
