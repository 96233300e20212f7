// The typed errors of a call that got no usable answer. A service answer, success or failure, is
// never an error: it is a result with its result code.

/** @typedef {'network' | 'timeout' | 'aborted' | 'non-json' | 'http' | 'request-invalid' | 'response-invalid'} GatewayErrorKind */

export class GatewayError extends Error {
  /** @param {GatewayErrorKind} kind @param {string} message @param {{ operationId: string, cause?: unknown, status?: number, issues?: import('../validation/errors.js').ValidationIssue[], data?: unknown }} details */
  constructor(kind, message, details) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.kind = kind;
    this.operationId = details.operationId;
    if (details.status !== undefined) this.status = details.status;
    if (details.issues) this.issues = details.issues;
    // Not enumerable: the answer may echo a card number or a token, and `console.error(error)`
    // or a JSON log of the error would print every enumerable field.
    if (details.data !== undefined) Object.defineProperty(this, 'data', { value: details.data, enumerable: false, writable: false, configurable: true });
  }
}

/** The request never reached the service, or its answer was cut off (DNS, refused, reset). */
export class GatewayNetworkError extends GatewayError {}
/** No answer within the configured timeout. The payment may or may not have been made. */
export class GatewayTimeoutError extends GatewayError {}
/** The caller's AbortSignal aborted the call. */
export class GatewayAbortError extends GatewayError {}
/** The answer was not JSON (an HTML error page, an empty body). */
export class GatewayNonJsonError extends GatewayError {}
/** The answer had an HTTP status other than 200 (the service answers every outcome with 200). */
export class GatewayHttpError extends GatewayError {}
/** `validate: true`: the request breaks the contract; nothing was sent. */
export class RequestValidationError extends GatewayError {}
/** `validate: true`: the answer breaks the contract. `data` holds the parsed answer. */
export class ResponseValidationError extends GatewayError {}
