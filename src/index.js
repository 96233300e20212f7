// The package's entry point: the contract's validators, catalog and operation index, and the
// helpers built on them.
export { validate, listOperations } from './validation/validate.js';
export { namedChecks } from './validation/checks.js';
export { resultCodeRules, resultCodeFor } from './validation/resultCodeRules.js';
export { resultCodes } from '../generated/resultCodes.js';
export { operations } from '../generated/operations.js';
export { createGatewayClient } from './client/createGatewayClient.js';
export { resultOf } from './transport/result.js';
export {
  GatewayError, GatewayNetworkError, GatewayTimeoutError, GatewayAbortError, GatewayNonJsonError, GatewayHttpError,
  RequestValidationError, ResponseValidationError,
} from './transport/errors.js';
export { generateSignature, verifySignature, createChecksumSigner, createChecksumVerifier, SIGNATURE_LENGTH } from './signing/checksum.js';
export { encryptCardData, buildCardPlaintext, CardDataError, passesLuhn } from './card/encryptCardData.js';
export { startSandbox, txnInfoChecksumText, verifyTxnInfoChecksum, DEFAULT_MID as SANDBOX_DEFAULT_MID, DEFAULT_MERCHANT_KEY as SANDBOX_DEFAULT_MERCHANT_KEY } from './sandbox/index.js';
export { createWebhookReceiver, createMemoryReplayStore, WEBHOOK_DEFAULTS } from './webhook/receive.js';
export { sendTokenNotification } from './webhook/send.js';
