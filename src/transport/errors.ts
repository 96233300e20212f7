// The typed errors of a call that got no usable answer. A service answer, success or failure, is
// never an error: it is a result with its result code.
import type { ValidationIssue } from '../validation/validate.js';

export type GatewayErrorKind = 'network' | 'timeout' | 'aborted' | 'non-json' | 'http' | 'request-invalid' | 'response-invalid';

/** What an error carries besides its message. */
export interface GatewayErrorDetails {
  operationId: string;
  cause?: unknown;
  /** The HTTP status of the answer, when there was one. */
  status?: number;
  /** The problems found by validation (`request-invalid`, `response-invalid`). */
  issues?: ValidationIssue[];
  /** The answer as received (not enumerable: it may echo a card number or a token). */
  data?: unknown;
}

/** A call that got no usable answer. A service answer, success or failure, is never an error. */
export class GatewayError extends Error {
  readonly kind: GatewayErrorKind;
  readonly operationId: string;
  declare readonly status?: number;
  declare readonly issues?: ValidationIssue[];
  declare readonly data?: unknown;

  constructor(kind: GatewayErrorKind, message: string, details: GatewayErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.kind = kind;
    this.operationId = details.operationId;
    // Set only when known, so that an error without them has no such keys.
    if (details.status !== undefined) Object.defineProperty(this, 'status', { value: details.status, enumerable: true, writable: false, configurable: true });
    if (details.issues) Object.defineProperty(this, 'issues', { value: details.issues, enumerable: true, writable: false, configurable: true });
    // Not enumerable: the answer may echo a card number or a token, and `console.error(error)`
    // or a JSON log of the error would print every enumerable field.
    if (details.data !== undefined) Object.defineProperty(this, 'data', { value: details.data, enumerable: false, writable: false, configurable: true });
  }
}

/**
 * The arguments of a kind's own class: `(message, details)`, or the older `(kind, message, details)`
 * form, whose kind must be the class's.
 */
type KindArgs<K extends GatewayErrorKind> = [message: string, details: GatewayErrorDetails] | [kind: K, message: string, details: GatewayErrorDetails];

function messageAndDetails<K extends GatewayErrorKind>(kind: K, args: KindArgs<K>): [string, GatewayErrorDetails] {
  if (args.length === 3) {
    if (args[0] !== kind) throw new TypeError(`This error's kind is "${kind}".`);
    return [args[1], args[2]];
  }
  return args;
}

/** The request never reached the service, or its answer was cut off (DNS, refused, reset). */
export class GatewayNetworkError extends GatewayError {
  declare readonly kind: 'network';
  constructor(...args: KindArgs<'network'>) {
    super('network', ...messageAndDetails('network', args));
  }
}
/** No answer within the configured timeout. The payment may or may not have been made. */
export class GatewayTimeoutError extends GatewayError {
  declare readonly kind: 'timeout';
  constructor(...args: KindArgs<'timeout'>) {
    super('timeout', ...messageAndDetails('timeout', args));
  }
}
/** The caller's AbortSignal aborted the call. */
export class GatewayAbortError extends GatewayError {
  declare readonly kind: 'aborted';
  constructor(...args: KindArgs<'aborted'>) {
    super('aborted', ...messageAndDetails('aborted', args));
  }
}
/** The answer was not JSON (an HTML error page, an empty body). */
export class GatewayNonJsonError extends GatewayError {
  declare readonly kind: 'non-json';
  constructor(...args: KindArgs<'non-json'>) {
    super('non-json', ...messageAndDetails('non-json', args));
  }
}
/** The answer had an HTTP status other than 200 (the service answers every outcome with 200). */
export class GatewayHttpError extends GatewayError {
  declare readonly kind: 'http';
  declare readonly status: number;
  constructor(...args: KindArgs<'http'>) {
    super('http', ...messageAndDetails('http', args));
  }
}
/** `validate: true`: the request breaks the contract; nothing was sent. */
export class RequestValidationError extends GatewayError {
  declare readonly kind: 'request-invalid';
  declare readonly issues: ValidationIssue[];
  constructor(...args: KindArgs<'request-invalid'>) {
    super('request-invalid', ...messageAndDetails('request-invalid', args));
  }
}
/** `validate: true`: the answer breaks the contract. `data` holds the parsed answer. */
export class ResponseValidationError extends GatewayError {
  declare readonly kind: 'response-invalid';
  declare readonly issues: ValidationIssue[];
  constructor(...args: KindArgs<'response-invalid'>) {
    super('response-invalid', ...messageAndDetails('response-invalid', args));
  }
}
