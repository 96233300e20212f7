// The typed errors of a call that got no usable answer. A service answer, success or failure, is
// never an error: it is a result with its result code. Each error says what to do next (D-53).
import type { ValidationIssue } from '../validation/validate.js';
import {
  CONTACT_SERVICE,
  FIX_REQUEST,
  isRepeatable,
  type NextStep,
  QUERY_STATUS,
  RETRY_LATER,
  unknownOutcome,
} from './nextStep.js';

export type GatewayErrorKind =
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'non-json'
  | 'http'
  | 'request-invalid'
  | 'response-invalid';

/** What an error carries besides its message. */
export interface GatewayErrorDetails {
  operationId: string;
  cause?: unknown;
  /** The HTTP status of the answer, when there was one. */
  status?: number;
  /** The problems found by validation (`request-invalid`, `response-invalid`). */
  issues?: ValidationIssue[];
  /** The answer as received (kept off the error's own fields: it may echo a card number or a token). */
  data?: unknown;
  /**
   * Whether the request was sent: `no`, it failed before any byte was written; `maybe`, the
   * connection failed on the way; `yes`, something at the address answered it (an HTTP error).
   */
  sent?: 'no' | 'maybe' | 'yes';
}

/**
 * What to do after a call without a usable answer (D-53): refused before sending, fix it; sent
 * nowhere, or an operation that may be repeated, send it again later; otherwise the outcome is
 * unknown, so learn it before sending again.
 */
function nextStepOf(kind: GatewayErrorKind, details: GatewayErrorDetails): NextStep {
  switch (kind) {
    case 'request-invalid':
      return FIX_REQUEST;
    case 'network':
      return details.sent === 'no' ? RETRY_LATER : unknownOutcome(details.operationId);
    case 'http': {
      const status = details.status ?? 0;
      // Refused before the service acted on it: a request timeout or a rate limit, or another
      // client error of whatever stands in front of the service (a wrong address, a proxy).
      if (status === 408 || status === 429) return RETRY_LATER;
      if (status >= 400 && status < 500) return FIX_REQUEST;
      return unknownOutcome(details.operationId);
    }
    case 'response-invalid':
      // Asking again gets the same answer; a payment's outcome is still to be learnt.
      return isRepeatable(details.operationId) ? CONTACT_SERVICE : QUERY_STATUS;
    default:
      return unknownOutcome(details.operationId);
  }
}

/**
 * The answers errors carry, by error. An answer may echo a card number, a CVV or a token: it is no
 * field of the error, enumerable or not, so nothing that prints, serializes, copies or walks an
 * error (`console.error`, a JSON log line, a hidden-field inspection, structuredClone, an error
 * reporter) meets it. Only reading `error.data` does.
 */
const answers = new WeakMap<GatewayError, unknown>();

/** A call that got no usable answer. A service answer, success or failure, is never an error. */
export class GatewayError extends Error {
  readonly kind: GatewayErrorKind;
  readonly operationId: string;
  /** What to do next: `query-status` when the outcome is unknown, `retry-later`, `fix-request`, ... (D-53). */
  readonly nextStep: NextStep;
  declare readonly status?: number;
  declare readonly issues?: ValidationIssue[];

  constructor(kind: GatewayErrorKind, message: string, details: GatewayErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.kind = kind;
    this.operationId = details.operationId;
    this.nextStep = nextStepOf(kind, details);
    // Set only when known, so that an error without them has no such keys.
    if (details.status !== undefined)
      Object.defineProperty(this, 'status', {
        value: details.status,
        enumerable: true,
        writable: false,
        configurable: true,
      });
    if (details.issues)
      Object.defineProperty(this, 'issues', {
        value: details.issues,
        enumerable: true,
        writable: false,
        configurable: true,
      });
    if (details.data !== undefined) answers.set(this, details.data);
  }

  /**
   * The answer as it arrived, when there was one (`ResponseValidationError`, `GatewayHttpError`).
   * Read it like the answer itself: it may echo a secret of the request.
   */
  get data(): unknown {
    return answers.get(this);
  }
}

/**
 * What the client's hooks are given of an error: the same class, kind, message, next step,
 * status, issues and `sent`, without the answer (`data`) and without the `cause` (a runtime error
 * of the connection, or the caller's abort reason). Hooks feed logs and metrics, which no value of
 * an answer or an address should reach.
 */
export function withoutValues<E extends GatewayError>(error: E): E {
  const copy = Object.create(Object.getPrototypeOf(error)) as E;
  for (const key of Reflect.ownKeys(error)) {
    if (key === 'cause') continue;
    Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(error, key) as PropertyDescriptor);
  }
  return copy;
}

/**
 * The arguments of a kind's own class: `(message, details)`, or the older `(kind, message, details)`
 * form, whose kind must be the class's. The older form is public, so it stays, deprecated, until
 * the next major version (docs/decisions.md, D-135); the package itself never uses it.
 */
type KindArgs<K extends GatewayErrorKind> =
  | [message: string, details: GatewayErrorDetails]
  | [kind: K, message: string, details: GatewayErrorDetails];

function messageAndDetails<K extends GatewayErrorKind>(kind: K, args: KindArgs<K>): [string, GatewayErrorDetails] {
  if (args.length === 3) {
    if (args[0] !== kind) throw new TypeError(`This error's kind is "${kind}".`);
    return [args[1], args[2]];
  }
  return args;
}

/**
 * The request never reached the service, or its answer was cut off (DNS, refused, reset). `sent`
 * is `no` when it failed before any byte was written (host not found, connection refused), so the
 * service cannot have seen it.
 */
export class GatewayNetworkError extends GatewayError {
  declare readonly kind: 'network';
  readonly sent: 'no' | 'maybe';
  declare readonly nextStep: NextStep<'query-status' | 'retry-later'>;
  constructor(message: string, details: GatewayErrorDetails);
  /** @deprecated The kind is the class's own: `new GatewayNetworkError(message, details)` (D-135). */
  constructor(kind: 'network', message: string, details: GatewayErrorDetails);
  constructor(...args: KindArgs<'network'>) {
    const [message, details] = messageAndDetails('network', args);
    super('network', message, details);
    this.sent = details.sent === 'no' ? 'no' : 'maybe';
  }
}
/** No answer within the configured timeout. The payment may or may not have been made: query its status. */
export class GatewayTimeoutError extends GatewayError {
  declare readonly kind: 'timeout';
  declare readonly nextStep: NextStep<'query-status' | 'retry-later'>;
  constructor(message: string, details: GatewayErrorDetails);
  /** @deprecated The kind is the class's own: `new GatewayTimeoutError(message, details)` (D-135). */
  constructor(kind: 'timeout', message: string, details: GatewayErrorDetails);
  constructor(...args: KindArgs<'timeout'>) {
    super('timeout', ...messageAndDetails('timeout', args));
  }
}
/** The caller's AbortSignal aborted the call. */
export class GatewayAbortError extends GatewayError {
  declare readonly kind: 'aborted';
  declare readonly nextStep: NextStep<'query-status' | 'retry-later'>;
  constructor(message: string, details: GatewayErrorDetails);
  /** @deprecated The kind is the class's own: `new GatewayAbortError(message, details)` (D-135). */
  constructor(kind: 'aborted', message: string, details: GatewayErrorDetails);
  constructor(...args: KindArgs<'aborted'>) {
    super('aborted', ...messageAndDetails('aborted', args));
  }
}
/** The answer was not JSON (an HTML error page, an empty body). */
export class GatewayNonJsonError extends GatewayError {
  declare readonly kind: 'non-json';
  declare readonly nextStep: NextStep<'query-status' | 'retry-later'>;
  constructor(message: string, details: GatewayErrorDetails);
  /** @deprecated The kind is the class's own: `new GatewayNonJsonError(message, details)` (D-135). */
  constructor(kind: 'non-json', message: string, details: GatewayErrorDetails);
  constructor(...args: KindArgs<'non-json'>) {
    super('non-json', ...messageAndDetails('non-json', args));
  }
}
/**
 * The answer had an HTTP status other than 200 (the service answers every outcome with 200), a
 * redirect included: the request was sent (`sent: 'yes'`) and something at the address answered.
 */
export class GatewayHttpError extends GatewayError {
  declare readonly kind: 'http';
  declare readonly status: number;
  declare readonly nextStep: NextStep<'query-status' | 'retry-later' | 'fix-request'>;
  readonly sent = 'yes' as const;
  constructor(message: string, details: GatewayErrorDetails);
  /** @deprecated The kind is the class's own: `new GatewayHttpError(message, details)` (D-135). */
  constructor(kind: 'http', message: string, details: GatewayErrorDetails);
  constructor(...args: KindArgs<'http'>) {
    super('http', ...messageAndDetails('http', args));
  }
}
/** `validate: true`: the request breaks the contract; nothing was sent. */
export class RequestValidationError extends GatewayError {
  declare readonly kind: 'request-invalid';
  declare readonly issues: ValidationIssue[];
  declare readonly nextStep: NextStep<'fix-request'>;
  constructor(message: string, details: GatewayErrorDetails);
  /** @deprecated The kind is the class's own: `new RequestValidationError(message, details)` (D-135). */
  constructor(kind: 'request-invalid', message: string, details: GatewayErrorDetails);
  constructor(...args: KindArgs<'request-invalid'>) {
    super('request-invalid', ...messageAndDetails('request-invalid', args));
  }
}
/** `validate: true`: the answer breaks the contract. `data` holds the parsed answer. */
export class ResponseValidationError extends GatewayError {
  declare readonly kind: 'response-invalid';
  declare readonly issues: ValidationIssue[];
  declare readonly nextStep: NextStep<'query-status' | 'contact-service'>;
  constructor(message: string, details: GatewayErrorDetails);
  /** @deprecated The kind is the class's own: `new ResponseValidationError(message, details)` (D-135). */
  constructor(kind: 'response-invalid', message: string, details: GatewayErrorDetails);
  constructor(...args: KindArgs<'response-invalid'>) {
    super('response-invalid', ...messageAndDetails('response-invalid', args));
  }
}
