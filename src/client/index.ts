// `gateway-contract/client`: the typed client of the six operations, its errors and results.
// Web-standard: it posts with the runtime's fetch (or the one given).

export { nextStepActions } from '../../generated/resultCodes.js';
export type { GatewayErrorDetails, GatewayErrorKind } from '../transport/errors.js';
export {
  GatewayAbortError,
  GatewayError,
  GatewayHttpError,
  GatewayNetworkError,
  GatewayNonJsonError,
  GatewayTimeoutError,
  RequestValidationError,
  ResponseValidationError,
} from '../transport/errors.js';
export type { NextStep, NextStepAction } from '../transport/nextStep.js';
export type { CallResult, RawAnswer } from '../transport/result.js';
export { resultOf } from '../transport/result.js';
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
} from './createGatewayClient.js';
export { createGatewayClient } from './createGatewayClient.js';
export type { CallTraceContext } from './tracing.js';
