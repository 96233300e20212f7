import type { RequestOf, ResultCodeOf } from '../types.js';
import type { Signer } from '../signing/checksum.js';
import type { ValidationIssue } from '../validation/validate.js';

export interface SendTokenNotificationOptions {
  /** The merchant's `{merchant_response_url}`. */
  url: string;
  /** `{ mid, tokenInfo }`. */
  body: RequestOf<'notifyTokenStatus'>['body'];
  /** Signs the serialized body, e.g. `createChecksumSigner(merchantKey)`. */
  signer: Signer;
  /** Head fields to send as given (they win over the built ones; a given `signature` is sent as is). */
  head?: Partial<RequestOf<'notifyTokenStatus'>['head']>;
  /** head.requestId (default a random UUID). */
  requestId?: string;
  /** head.clientId, when the merchant has several keys. */
  clientId?: string;
  /** head.encryptionKeyVersion, when the merchant has several keys. */
  encryptionKeyVersion?: 'v1';
  /** Clock for head.requestTimestamp, epoch milliseconds (default Date.now). */
  now?: () => number;
  /** Milliseconds to wait for the reply before `GatewayTimeoutError` (default 30 000). */
  timeoutMs?: number;
  /** A fetch to use instead of the global one. */
  fetch?: (request: Request) => Promise<Response>;
  /** Check the notification against the contract before sending (default true; false sends it anyway). */
  validateRequest?: boolean;
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
  /** head.requestId of the notification sent. */
  requestId: string;
}

/**
 * Signs and posts one token status notification, then checks the merchant's reply. Rejects with
 * `GatewayNetworkError`, `GatewayTimeoutError`, `GatewayNonJsonError` (no usable reply) or
 * `RequestValidationError` (the notification breaks the contract; nothing was sent).
 */
export declare function sendTokenNotification(options: SendTokenNotificationOptions): Promise<SendTokenNotificationResult>;
