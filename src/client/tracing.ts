/**
 * Tracing of the typed client on Node's `diagnostics_channel`: what a call did, for a tracer
 * (OpenTelemetry, a metrics agent) to subscribe to, never a value of the payload.
 *
 * The module is taken from the runtime when it has one (`process.getBuiltinModule`, no static
 * `node:` import: runtime/diagnostics.ts), so the web entries still load in a browser and on workerd without
 * `nodejs_compat`; there, tracing is simply absent. With no subscriber, a call only reads
 * `hasSubscribers` (bench/client.mjs measures it against a call without tracing: at most 1%).
 *
 * Channels (names and fields are part of the package's interface):
 *
 * - `gateway-contract:client:call`, a tracing channel (`diagnostics_channel.tracingChannel`), so
 *   subscribers listen on `tracing:gateway-contract:client:call:start`, `:end`, `:asyncStart`,
 *   `:asyncEnd` and `:error`. One context object per call, the same at each event:
 *   - at `start`: `{ operationId, host, path }`: the operation (`initiatePayment`, ...), the host
 *     (`gateway` or `router`) and the path as the contract writes it (never the URL: its query
 *     holds ids);
 *   - at `asyncEnd` of an answered call, also `attempts`, `durationMs` (the whole call, retries and
 *     waits included) and `result`: `{ httpStatus, code, status, outcome, nextStep }` (`code` and
 *     `status` only when they are in the operation's table, else `null`; `nextStep` the action's
 *     name, for example `query-status`);
 *   - at `error` (then `asyncStart` and `asyncEnd`) of a call without a usable answer, also
 *     `attempts`, `durationMs` and `error`: a copy of the typed error without the answer (`data`)
 *     and the `cause` (its class, `kind`, `message`, `nextStep`, `status`, `issues`, `sent`).
 *   `start` and `end` are published synchronously in the caller's context, so a subscriber's
 *   store (`bindStore`, AsyncLocalStorage) follows the call.
 * - `gateway-contract:client:request`: an attempt is about to be sent:
 *   `{ operationId, attempt, host, path }` (`attempt` 1, then 2 for the first retry, ...).
 * - `gateway-contract:client:response`: an attempt got an answer: `{ operationId, attempt,
 *   durationMs, httpStatus, code, status, outcome, nextStep, willRetry }`, `nextStep` the
 *   object `{ action, source | decision }` of the contract; `code` and `status` as above.
 * - `gateway-contract:client:error`: an attempt ended without a usable answer, or the request
 *   was refused before sending (`attempt` 1): `{ operationId, attempt, durationMs, error,
 *   willRetry }`, `error` the copy described above.
 *
 * The attempt events are those the client's hooks get (`onRequest`, `onResponse`, `onError`). No
 * event holds a body, a head, a header, a URL, a token, a signature or a card number.
 */
import { diagnosticsChannel, type TracingChannel } from '../runtime/diagnostics.js';
import { GatewayError, withoutValues } from '../transport/errors.js';
import type { ClientOperationId } from '../types.js';
import {
  type CallErrorEvent,
  type CallRequestEvent,
  type CallResponseEvent,
  type Observer,
  responseEvent,
  type Settled,
} from './observe.js';

/** The prefix of every channel of the client. */
export const CLIENT_CHANNEL_PREFIX = 'gateway-contract:client:';

const dc = diagnosticsChannel();
const calls = dc?.tracingChannel(`${CLIENT_CHANNEL_PREFIX}call`);
const requests = dc?.channel(`${CLIENT_CHANNEL_PREFIX}request`);
const responses = dc?.channel(`${CLIENT_CHANNEL_PREFIX}response`);
const errors = dc?.channel(`${CLIENT_CHANNEL_PREFIX}error`);

/** The context of a traced call, as subscribers of `gateway-contract:client:call` see it. */
export interface CallTraceContext {
  operationId: ClientOperationId;
  host: 'gateway' | 'router';
  path: string;
  attempts?: number;
  durationMs?: number;
  result?: {
    httpStatus: number;
    code: string | null;
    status: string | null;
    outcome: 'success' | 'pending' | 'failure';
    nextStep: string;
  };
  error?: unknown;
}

/** Whether anyone listens to the call's tracing channel (each of its five channels counts). */
function callTraced(): boolean {
  return (
    calls !== undefined &&
    (calls.start.hasSubscribers ||
      calls.end.hasSubscribers ||
      calls.asyncEnd.hasSubscribers ||
      calls.error.hasSubscribers ||
      calls.asyncStart.hasSubscribers)
  );
}

/** An error as events may show it: a GatewayError without its answer and cause; any other by its class name only. */
function shownError(operationId: string, error: unknown): Error {
  if (error instanceof GatewayError) return withoutValues(error);
  return new Error(`${operationId}: the call failed (${error instanceof Error ? error.name : typeof error}).`);
}

/**
 * Runs one call inside the `gateway-contract:client:call` tracing channel when it has
 * subscribers; otherwise runs it as it is. `watch` gets the attempt events of the call, for the
 * context's count of attempts.
 */
export function traceCall<R extends Settled>(
  where: Pick<CallTraceContext, 'operationId' | 'host' | 'path'>,
  run: (watch: Observer | null) => Promise<R>,
  watch: Observer | null,
): Promise<R> {
  return calls && callTraced() ? traced(calls, where, run, watch) : run(watch);
}

async function traced<R extends Settled>(
  tracer: TracingChannel,
  where: Pick<CallTraceContext, 'operationId' | 'host' | 'path'>,
  run: (watch: Observer | null) => Promise<R>,
  watch: Observer | null,
): Promise<R> {
  const context: CallTraceContext = { operationId: where.operationId, host: where.host, path: where.path, attempts: 0 };
  const counted: Observer = {
    request(event) {
      context.attempts = event.attempt;
      watch?.request(event);
    },
    response: (event) => watch?.response(event),
    error(event) {
      if (!context.attempts) context.attempts = event.attempt;
      watch?.error(event);
    },
  };
  const began = performance.now();
  let outcome: R | undefined;
  let failure: unknown;
  try {
    await tracer.tracePromise(async () => {
      try {
        outcome = await run(counted);
      } catch (error) {
        failure = error;
        context.durationMs = performance.now() - began;
        // The subscribers get a copy without values; the caller gets the error itself (below).
        throw shownError(where.operationId, error);
      }
      context.durationMs = performance.now() - began;
      const event = responseEvent(where.operationId, context.attempts || 1, context.durationMs, outcome, false);
      return {
        httpStatus: event.httpStatus,
        code: event.code,
        status: event.status,
        outcome: event.outcome,
        nextStep: event.nextStep.action,
      };
    }, context);
  } catch {
    throw failure;
  }
  if (outcome === undefined) throw failure;
  return outcome;
}

/** The observer that publishes each attempt on the client's channels, or null when none of them has a subscriber. */
export function attemptPublisher(): Observer | null {
  if (!requests || !responses || !errors) return null;
  if (!requests.hasSubscribers && !responses.hasSubscribers && !errors.hasSubscribers) return null;
  const request = requests;
  const response = responses;
  const error = errors;
  return {
    request: (event: CallRequestEvent) => {
      if (request.hasSubscribers) request.publish(event);
    },
    response: (event: CallResponseEvent) => {
      if (response.hasSubscribers) response.publish(event);
    },
    error: (event: CallErrorEvent) => {
      if (error.hasSubscribers) error.publish({ ...event, error: withoutValues(event.error) });
    },
  };
}
