// What the client tells the caller's hooks and logger about each attempt: the operation, the
// attempt, timings, the HTTP status, the result code and its next step, the error's kind. Never a
// value of the payload: no body, no head, no header, no URL (its query holds ids); a result code
// or status is named only when it is one of the operation's table, like the errors name only
// field names. A hook or logger that throws, or whose promise rejects, never changes the call.
import { type GatewayError, withoutValues } from '../transport/errors.js';
import type { NextStep } from '../transport/nextStep.js';
import { codeEntry } from '../transport/result.js';
import type { ClientOperationId } from '../types.js';

/** An attempt is about to be sent. */
export interface CallRequestEvent {
  operationId: ClientOperationId;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
  /** Which host the call goes to, and the path of the operation as the contract writes it. */
  host: 'gateway' | 'router';
  path: string;
}

/** An attempt got an answer with a result code. */
export interface CallResponseEvent {
  operationId: ClientOperationId;
  attempt: number;
  /** Milliseconds from sending the request to reading the answer. */
  durationMs: number;
  httpStatus: number;
  /** The result code and status, or null when they are not in the operation's table. */
  code: string | null;
  status: string | null;
  outcome: 'success' | 'pending' | 'failure';
  nextStep: NextStep;
  /** Whether the client sends the request again (opt-in retries). */
  willRetry: boolean;
}

/** An attempt ended without a usable answer (or was refused before sending). */
export interface CallErrorEvent {
  operationId: ClientOperationId;
  attempt: number;
  durationMs: number;
  /**
   * The typed error, as a copy that holds no value of the payload, the answer or an address: its
   * class, kind, message, next step, status, issues and `sent`, without `data` and `cause`.
   */
  error: GatewayError;
  willRetry: boolean;
}

/** Where the client writes one line per event: `debug` before sending, `info` for an answer, `warn` before a retry, `error` when the call fails. */
export interface GatewayLogger {
  debug?: ((line: string) => void) | undefined;
  info?: ((line: string) => void) | undefined;
  warn?: ((line: string) => void) | undefined;
  error?: ((line: string) => void) | undefined;
}

export interface ObserveOptions {
  onRequest?: ((event: CallRequestEvent) => void) | undefined;
  onResponse?: ((event: CallResponseEvent) => void) | undefined;
  onError?: ((event: CallErrorEvent) => void) | undefined;
  logger?: GatewayLogger | undefined;
}

export interface Observer {
  request(event: CallRequestEvent): void;
  response(event: CallResponseEvent): void;
  error(event: CallErrorEvent): void;
}

const ignore = () => undefined;

/** Calls `hook` so that nothing it does (a throw, a rejected promise) reaches the call. */
function safely<E>(hook: ((event: E) => void) | undefined, event: E): void {
  if (!hook) return;
  try {
    const returned: unknown = hook(event);
    if (
      returned !== null &&
      typeof returned === 'object' &&
      typeof (returned as { then?: unknown }).then === 'function'
    )
      (returned as PromiseLike<unknown>).then(undefined, ignore);
  } catch {
    // A failing hook is the caller's to notice; the call goes on.
  }
}

/** At most this many characters of an error's message in a log line (messages hold no payload value). */
const MAX_MESSAGE = 300;

const ms = (value: number) => value.toFixed(1);

/** The line's fixed part: `gateway-contract initiatePayment attempt=1`. */
const head = (e: { operationId: string; attempt: number }) => `gateway-contract ${e.operationId} attempt=${e.attempt}`;

function requestLine(e: CallRequestEvent): string {
  return `${head(e)} request host=${e.host} path=${e.path}`;
}

function responseLine(e: CallResponseEvent): string {
  return `${head(e)} answer ms=${ms(e.durationMs)} http=${e.httpStatus} code=${e.code ?? '<not in the table>'} status=${e.status ?? '<not in the table>'} outcome=${e.outcome} next=${e.nextStep.action}${e.willRetry ? ' retry=yes' : ''}`;
}

function errorLine(e: CallErrorEvent): string {
  const { error } = e;
  const status = error.status === undefined ? '' : ` http=${error.status}`;
  const sent = 'sent' in error && typeof error.sent === 'string' ? ` sent=${error.sent}` : '';
  const issues = error.issues ? ` issues=${error.issues.length}` : '';
  const message = JSON.stringify(
    error.message.length > MAX_MESSAGE ? `${error.message.slice(0, MAX_MESSAGE)}...` : error.message,
  );
  return `${head(e)} error ms=${ms(e.durationMs)} kind=${error.kind}${status}${sent}${issues} next=${error.nextStep.action}${e.willRetry ? ' retry=yes' : ''} message=${message}`;
}

/** The observer of the given hooks and logger, or null when there is none (then the client does no work for them). */
export function observerOf(options: ObserveOptions): Observer | null {
  const { onRequest, onResponse, onError, logger } = options;
  if (!onRequest && !onResponse && !onError && !logger) return null;
  for (const [name, hook] of Object.entries({ onRequest, onResponse, onError }))
    if (hook !== undefined && typeof hook !== 'function') throw new TypeError(`${name} must be a function`);
  if (logger !== undefined && (logger === null || typeof logger !== 'object'))
    throw new TypeError('logger must be an object with debug, info, warn and error methods');
  // Bound to the logger, so that `console` and class-based loggers work as given.
  const write = (level: keyof GatewayLogger, line: string) => {
    const method = logger?.[level];
    if (typeof method === 'function') safely((text: string) => method.call(logger, text), line);
  };
  return {
    request(event) {
      safely(onRequest, event);
      if (logger) write('debug', requestLine(event));
    },
    response(event) {
      safely(onResponse, event);
      if (logger) write(event.willRetry ? 'warn' : 'info', responseLine(event));
    },
    error(event) {
      if (onError) safely(onError, { ...event, error: withoutValues(event.error) });
      if (logger) write(event.willRetry ? 'warn' : 'error', errorLine(event));
    },
  };
}

/** What the events read of a result (a `CallResult`). */
export interface Settled {
  readonly outcome: 'success' | 'pending' | 'failure';
  readonly code: unknown;
  readonly status: unknown;
  readonly nextStep: NextStep;
  readonly httpStatus: number;
}

/** The response event of a result: its code and status only when they are the table's. */
export function responseEvent(
  operationId: ClientOperationId,
  attempt: number,
  durationMs: number,
  result: Settled,
  willRetry: boolean,
): CallResponseEvent {
  const entry = codeEntry(operationId, result.code);
  return {
    operationId,
    attempt,
    durationMs,
    httpStatus: result.httpStatus,
    code: entry ? entry.code : null,
    status: entry && entry.status === result.status ? entry.status : null,
    outcome: result.outcome,
    nextStep: result.nextStep,
    willRetry,
  };
}
