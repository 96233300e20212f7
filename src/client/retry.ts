// Opt-in retries, only of what is safe to send again (docs/decisions.md, D-54): an attempt whose next
// step is `retry-later`, on an operation the contract marks idempotent (`x-idempotent`), or on any
// operation when the request failed before a byte of it was written. A payment, pre-auth,
// modification or subscription whose answer was lost is never sent again: its error says to
// query the status. Backoff is exponential with full jitter, within a total time, and stops at
// the caller's signal.
import { GatewayAbortError, GatewayNetworkError } from '../transport/errors.js';
import type { NextStep } from '../transport/nextStep.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 2). */
  retries?: number | undefined;
  /** The longest wait before the first retry; it doubles at each retry (default 100 ms). */
  baseDelayMs?: number | undefined;
  /** The longest wait before any retry (default 2 000 ms). */
  maxDelayMs?: number | undefined;
  /** Full jitter: each wait is a random time up to its longest (default true); false waits the longest. */
  jitter?: boolean | undefined;
  /** No retry starts later than this many milliseconds after the call began (default 60 000). */
  maxElapsedMs?: number | undefined;
}

export interface RetryPolicy {
  readonly retries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly jitter: boolean;
  readonly maxElapsedMs: number;
}

function count(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max)
    throw new TypeError(`retry.${name} must be a whole number from 0 to ${max}`);
  return value;
}

/** The policy of `retry` (`true` takes the defaults), or null when retries are off. */
export function retryPolicyOf(option: boolean | RetryOptions | undefined): RetryPolicy | null {
  if (option === undefined || option === false) return null;
  if (option !== true && (option === null || typeof option !== 'object'))
    throw new TypeError('retry must be true, false or { retries, baseDelayMs, maxDelayMs, jitter, maxElapsedMs }');
  const given = option === true ? {} : option;
  const policy = {
    retries: count(given.retries, 'retries', 2, 10),
    baseDelayMs: count(given.baseDelayMs, 'baseDelayMs', 100, 60_000),
    maxDelayMs: count(given.maxDelayMs, 'maxDelayMs', 2_000, 600_000),
    jitter: given.jitter ?? true,
    maxElapsedMs: count(given.maxElapsedMs, 'maxElapsedMs', 60_000, 3_600_000),
  };
  if (typeof policy.jitter !== 'boolean') throw new TypeError('retry.jitter must be a boolean');
  return policy.retries === 0 ? null : policy;
}

/** The wait before retry number `retry` (1 for the first): up to base × 2^(retry−1), at most maxDelayMs. */
export function backoffMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return policy.jitter ? Math.floor(random() * ceiling) : ceiling;
}

/**
 * Whether an attempt that ended with `nextStep` may be sent again: its next step says so, and
 * either the operation may be repeated or nothing of the request was sent.
 */
export function mayRepeat(nextStep: NextStep, repeatable: boolean, error?: unknown): boolean {
  if (nextStep.action !== 'retry-later') return false;
  return repeatable || (error instanceof GatewayNetworkError && error.sent === 'no');
}

/** Waits `ms`, or rejects with a GatewayAbortError as soon as the caller's signal aborts. */
export function pause(ms: number, signal: AbortSignal | undefined, operationId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () =>
      new GatewayAbortError(`${operationId}: aborted by the caller.`, { operationId, cause: signal?.reason });
    if (signal?.aborted) {
      reject(aborted());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
