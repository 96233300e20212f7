// The package's entry point: the contract's validators, catalog and operation index, and the
// helpers built on them.

export { operations } from '../generated/operations.js';
export { resultCodes } from '../generated/resultCodes.js';
export type { CardData, CardDataIssue, EncryptCardDataOptions } from './card/encryptCardData.js';
export { buildCardPlaintext, CardDataError, encryptCardData, passesLuhn } from './card/encryptCardData.js';
export type {
  CallArgs,
  CallErrorEvent,
  CallOptions,
  CallRequestEvent,
  CallResponseEvent,
  GatewayClient,
  GatewayClientOptions,
  GatewayLogger,
  RetryOptions,
} from './client/createGatewayClient.js';
export { createGatewayClient } from './client/createGatewayClient.js';
export type { HarOptions } from './inputs/har.js';
export { harRecords } from './inputs/har.js';
export type { NdjsonOptions } from './inputs/ndjson.js';
export { ndjsonRecords } from './inputs/ndjson.js';
export type { ReportFormat } from './report/format.js';
export { formatReport, REPORT_FORMATS } from './report/format.js';
export type { Report, ReportOptions } from './report/model.js';
export type {
  ArmedFault,
  CreateOrderSpec,
  FaultSpec,
  Sandbox,
  SandboxOptions,
  SandboxOrder,
  WebhookAttempt,
  WebhookDelivery,
  WebhookRetry,
} from './sandbox/index.js';
export {
  DEFAULT_MERCHANT_KEY as SANDBOX_DEFAULT_MERCHANT_KEY,
  DEFAULT_MID as SANDBOX_DEFAULT_MID,
  startSandbox,
  txnInfoChecksumText,
  verifyTxnInfoChecksum,
} from './sandbox/index.js';
export type { Signer, Verifier } from './signing/checksum.js';
export { createChecksumSigner, createChecksumVerifier, generateSignature, SIGNATURE_LENGTH, verifySignature } from './signing/checksum.js';
export type { GatewayErrorDetails, GatewayErrorKind } from './transport/errors.js';
export {
  GatewayAbortError,
  GatewayError,
  GatewayHttpError,
  GatewayNetworkError,
  GatewayNonJsonError,
  GatewayTimeoutError,
  RequestValidationError,
  ResponseValidationError,
} from './transport/errors.js';
export type { NextStep, NextStepAction } from './transport/nextStep.js';
export { nextStepActions } from './transport/nextStep.js';
export type { CallResult, RawAnswer } from './transport/result.js';
export { resultOf } from './transport/result.js';
export type * from './types.js';
export type { NamedCheck } from './validation/checks.js';
export { namedChecks } from './validation/checks.js';
export { resultCodeFor, resultCodeRules } from './validation/resultCodeRules.js';
export type { ValidationFailure, ValidationIssue, ValidationOptions, ValidationResult, ValidationSuccess } from './validation/validate.js';
export { listOperations, validate } from './validation/validate.js';
export type {
  BatchResult,
  CaseIssue,
  CaseResult,
  PayloadRecord,
  PayloadSource,
  SkippedRecord,
  ValidateManyOptions,
} from './validation/validateMany.js';
export { validateMany } from './validation/validateMany.js';
export type {
  ReplayStore,
  TokenStatusEvent,
  TokenStatusHandler,
  TokenStatusReply,
  WebhookAccepted,
  WebhookReceiver,
  WebhookReceiverOptions,
  WebhookRejected,
  WebhookVerdict,
} from './webhook/receive.js';
export { createMemoryReplayStore, createWebhookReceiver, WEBHOOK_DEFAULTS } from './webhook/receive.js';
export type { PostNotificationOptions, PostNotificationResult, SendTokenNotificationOptions, SendTokenNotificationResult } from './webhook/send.js';
export { postNotification, sendTokenNotification } from './webhook/send.js';
export type { WebhookSuiteCase, WebhookSuiteOptions, WebhookSuiteResult } from './webhook/suite.js';
export { runWebhookSuite } from './webhook/suite.js';
