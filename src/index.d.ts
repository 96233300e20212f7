export { validate, listOperations } from './validation/validate.js';
export type { ValidationIssue, ValidationResult, ValidationSuccess, ValidationFailure, ValidationOptions } from './validation/validate.js';
export { namedChecks } from './validation/checks.js';
export type { NamedCheck } from './validation/checks.js';
export { resultCodeRules, resultCodeFor } from './validation/resultCodeRules.js';
export { resultCodes } from '../generated/resultCodes.js';
export { operations } from '../generated/operations.js';
export type * from './types.js';
export { createGatewayClient } from './client/createGatewayClient.js';
export { resultOf } from './transport/result.js';
export type { GatewayClient, GatewayClientOptions, CallResult } from './client/createGatewayClient.js';
export {
  GatewayError, GatewayNetworkError, GatewayTimeoutError, GatewayAbortError, GatewayNonJsonError, GatewayHttpError,
  RequestValidationError, ResponseValidationError,
} from './transport/errors.js';
export type { GatewayErrorKind } from './transport/errors.js';
export { generateSignature, verifySignature, createChecksumSigner, createChecksumVerifier, SIGNATURE_LENGTH } from './signing/checksum.js';
export type { Signer, Verifier } from './signing/checksum.js';
export { encryptCardData, buildCardPlaintext, CardDataError, passesLuhn } from './card/encryptCardData.js';
export type { CardData, CardDataIssue, EncryptCardDataOptions } from './card/encryptCardData.js';
export { startSandbox, txnInfoChecksumText, verifyTxnInfoChecksum, DEFAULT_MID as SANDBOX_DEFAULT_MID, DEFAULT_MERCHANT_KEY as SANDBOX_DEFAULT_MERCHANT_KEY } from './sandbox/index.js';
export type { Sandbox, SandboxOptions, SandboxOrder, CreateOrderSpec, WebhookDelivery } from './sandbox/index.js';
export { createWebhookReceiver, createMemoryReplayStore, WEBHOOK_DEFAULTS } from './webhook/receive.js';
export type {
  WebhookReceiver, WebhookReceiverOptions, WebhookVerdict, WebhookAccepted, WebhookRejected, ReplayStore,
  TokenStatusEvent, TokenStatusReply, TokenStatusHandler,
} from './webhook/receive.js';
export { sendTokenNotification } from './webhook/send.js';
export type { SendTokenNotificationOptions, SendTokenNotificationResult } from './webhook/send.js';
