// The package's entry point: the contract's validators, catalog and operation index, and the
// helpers built on them. What a program holds before it calls anything (classes, constants) and
// validate() are loaded with the entry; every other helper is loaded the first time it is called
// (below: the client, the readers, the receiver, the batch run, the sandbox, the webhook sender),
// so that importing the package and validating a payload costs little more than starting Node
// (bench/startup.mjs; DECISIONS.md, D-64). Their types are their modules' own.
import { createRequire } from 'node:module';

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
export type { HarOptions } from './inputs/har.js';
export type { NdjsonOptions } from './inputs/ndjson.js';
export type { ReportFormat } from './report/format.js';
export { formatReport, REPORT_FORMATS } from './report/format.js';
export type { Report, ReportOptions } from './report/model.js';
export { DEFAULT_MERCHANT_KEY as SANDBOX_DEFAULT_MERCHANT_KEY, DEFAULT_MID as SANDBOX_DEFAULT_MID } from './sandbox/config.js';
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
export { WEBHOOK_DEFAULTS } from './webhook/defaults.js';
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
export { createMemoryReplayStore } from './webhook/replayStore.js';
export type { PostNotificationOptions, PostNotificationResult, SendTokenNotificationOptions, SendTokenNotificationResult } from './webhook/send.js';
export type { WebhookSuiteCase, WebhookSuiteOptions, WebhookSuiteResult } from './webhook/suite.js';

// Synchronous helpers require their module when first called (an ES module, which require() loads
// from Node 20.19 on); asynchronous ones import it.
const require = createRequire(import.meta.url);

/** A typed client of the six operations (see `src/client/createGatewayClient.ts`). */
export const createGatewayClient: typeof import('./client/createGatewayClient.js').createGatewayClient = (options) =>
  (require('./client/createGatewayClient.js') as typeof import('./client/createGatewayClient.js')).createGatewayClient(options);

/** What an answer says: outcome, code, status, message, next step (see `src/transport/result.ts`). */
export const resultOf: typeof import('./transport/result.js').resultOf = (operationId, data, httpStatus, headers) =>
  (require('./transport/result.js') as typeof import('./transport/result.js')).resultOf(operationId, data, httpStatus, headers);

/** The receiver of the token status notification (see `src/webhook/receive.ts`). */
export const createWebhookReceiver: typeof import('./webhook/receive.js').createWebhookReceiver = (options) =>
  (require('./webhook/receive.js') as typeof import('./webhook/receive.js')).createWebhookReceiver(options);

/** The records of a HAR recording (see `src/inputs/har.ts`). */
export const harRecords: typeof import('./inputs/har.js').harRecords = (text, options) =>
  (require('./inputs/har.js') as typeof import('./inputs/har.js')).harRecords(text, options);

/** The text txnInfo.checksumHash signs (see `src/sandbox/txnChecksum.ts`). */
export const txnInfoChecksumText: typeof import('./sandbox/txnChecksum.js').txnInfoChecksumText = (txnInfo) =>
  (require('./sandbox/txnChecksum.js') as typeof import('./sandbox/txnChecksum.js')).txnInfoChecksumText(txnInfo);

/** Whether txnInfo.checksumHash verifies (see `src/sandbox/txnChecksum.ts`). */
export const verifyTxnInfoChecksum: typeof import('./sandbox/txnChecksum.js').verifyTxnInfoChecksum = (txnInfo, merchantKey) =>
  (require('./sandbox/txnChecksum.js') as typeof import('./sandbox/txnChecksum.js')).verifyTxnInfoChecksum(txnInfo, merchantKey);

/** The records of NDJSON lines (see `src/inputs/ndjson.ts`). */
export const ndjsonRecords: typeof import('./inputs/ndjson.js').ndjsonRecords = async function* (stream, options) {
  yield* (await import('./inputs/ndjson.js')).ndjsonRecords(stream, options);
};

/** Validates many payloads in one run (see `src/validation/validateMany.ts`). */
export const validateMany: typeof import('./validation/validateMany.js').validateMany = async (records, options) =>
  (await import('./validation/validateMany.js')).validateMany(records, options);

/** Starts the sandbox and resolves once it listens (see `src/sandbox/startSandbox.ts`). */
export const startSandbox: typeof import('./sandbox/startSandbox.js').startSandbox = async (options) =>
  (await import('./sandbox/startSandbox.js')).startSandbox(options);

/** Posts a token status notification, signed, to a merchant's webhook (see `src/webhook/send.ts`). */
export const sendTokenNotification: typeof import('./webhook/send.js').sendTokenNotification = async (options) =>
  (await import('./webhook/send.js')).sendTokenNotification(options);

/** Posts any text as a notification (see `src/webhook/send.ts`). */
export const postNotification: typeof import('./webhook/send.js').postNotification = async (options) =>
  (await import('./webhook/send.js')).postNotification(options);

/** The conformance run of a merchant's webhook (see `src/webhook/suite.ts`). */
export const runWebhookSuite: typeof import('./webhook/suite.js').runWebhookSuite = async (options) =>
  (await import('./webhook/suite.js')).runWebhookSuite(options);
