import type { ValidationIssue } from '../validation/validate.js';

export type GatewayErrorKind = 'network' | 'timeout' | 'aborted' | 'non-json' | 'http' | 'request-invalid' | 'response-invalid';

/** A call that got no usable answer. A service answer, success or failure, is never an error. */
export declare class GatewayError extends Error {
  readonly kind: GatewayErrorKind;
  readonly operationId: string;
  readonly status?: number;
  readonly issues?: ValidationIssue[];
  readonly data?: unknown;
}
export declare class GatewayNetworkError extends GatewayError { readonly kind: 'network'; }
export declare class GatewayTimeoutError extends GatewayError { readonly kind: 'timeout'; }
export declare class GatewayAbortError extends GatewayError { readonly kind: 'aborted'; }
export declare class GatewayNonJsonError extends GatewayError { readonly kind: 'non-json'; }
export declare class GatewayHttpError extends GatewayError { readonly kind: 'http'; readonly status: number; }
export declare class RequestValidationError extends GatewayError { readonly kind: 'request-invalid'; readonly issues: ValidationIssue[]; }
export declare class ResponseValidationError extends GatewayError { readonly kind: 'response-invalid'; readonly issues: ValidationIssue[]; }
