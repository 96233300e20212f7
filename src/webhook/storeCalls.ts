// How the claim ledger calls the replay store (docs/decisions.md, D-94, D-105): each call waited for
// at most storeTimeoutMs, and a completion or release the store did not take tried again in the
// background while the lease of a claim made now could still hold; after that the store no longer
// needs it (a lapsed claim is claimed again; a completion after it changes nothing).
import { ReplayStoreFullError } from './replayStore.js';
import { storeChannel, type WebhookStoreEvent } from './tracing.js';

/** A call of the store, bounded: its value, or why there is none. */
export type StoreOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; outcome: 'failed' | 'timeout' | 'full'; error?: unknown };

/** A bounded call, and `settled`: resolves once the call itself is over, whatever its outcome (a claim that timed out may still be carried out after). */
export interface BoundedCall<T> {
  result: StoreOutcome<T>;
  settled: Promise<unknown>;
}

export function publishStore(event: WebhookStoreEvent): void {
  if (storeChannel?.hasSubscribers) storeChannel.publish(event);
}

/** The name of an error, for an event: never its message, which may hold a key or an address. */
export function errorName(error: unknown): { error?: string } {
  return error instanceof Error ? { error: error.name.slice(0, 64) } : {};
}

const failure = (error: unknown): StoreOutcome<never> => ({
  ok: false,
  outcome: error instanceof ReplayStoreFullError ? 'full' : 'failed',
  error,
});
const noop = () => undefined;

/** Calls the store, waiting at most `timeoutMs`. */
export async function callStore<T>(run: () => T | PromiseLike<T>, timeoutMs: number): Promise<BoundedCall<T>> {
  let answer: T | PromiseLike<T>;
  try {
    answer = run();
  } catch (error) {
    return { result: failure(error), settled: Promise.resolve() };
  }
  // A store's own promise type, or one of another realm, is a thenable like any other.
  if (typeof (answer as PromiseLike<T> | null)?.then !== 'function')
    return { result: { ok: true, value: answer as T }, settled: Promise.resolve() };
  const pending = Promise.resolve(answer);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const result = await Promise.race([
    pending.then((value): StoreOutcome<T> => ({ ok: true, value }), failure),
    new Promise<StoreOutcome<T>>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, outcome: 'timeout' }), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  return { result, settled: pending.then(noop, noop) };
}

/** A call the store refused is tried again after 50 ms, each wait doubling up to 1 s. */
const retryDelay = (retry: number) => Math.min(1_000, 50 * 2 ** retry);
/** Calls waiting for a retry, at most (each holds a key and an owner, about 200 bytes). */
const MAX_RETRIES_PENDING = 10_000;

/** Runs a completion or release again, in the background, while a lease taken now could still hold. */
export type RetryWhileLeased = (
  operation: 'complete' | 'release',
  attempt: () => Promise<boolean>,
  after?: Promise<unknown>,
) => void;

/**
 * The retries of one ledger, at most MAX_RETRIES_PENDING waiting at once. `attempt` resolves false
 * when the store did not answer. With `after` (a call whose outcome is unknown), the first try is as
 * soon as that call is over.
 */
export function retriesWhileLeased(leaseMs: number): RetryWhileLeased {
  let pending = 0;
  return (operation, attempt, after) => {
    if (pending >= MAX_RETRIES_PENDING) {
      publishStore({ operation, outcome: 'gaveUp' });
      return;
    }
    pending++;
    const deadline = performance.now() + leaseMs;
    const stop = (gaveUp: boolean) => {
      pending--;
      if (gaveUp) publishStore({ operation, outcome: 'gaveUp' });
    };
    const next = (n: number) => {
      if (performance.now() + retryDelay(n) >= deadline) return stop(true);
      setTimeout(async () => ((await attempt()) ? stop(false) : next(n + 1)), retryDelay(n));
    };
    if (after === undefined) next(0);
    else afterCall(after, leaseMs, attempt, next, stop);
  };
}

/** The first try once `after` is over; a call that never settles: its claim lapses with the lease, and nothing is left to do. */
function afterCall(
  after: Promise<unknown>,
  leaseMs: number,
  attempt: () => Promise<boolean>,
  next: (n: number) => void,
  stop: (gaveUp: boolean) => void,
) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const lapsed = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), leaseMs);
  });
  void Promise.race([after.then(() => true), lapsed]).then(async (over) => {
    clearTimeout(timer);
    if (!over) stop(false);
    else if (await attempt()) stop(false);
    else next(0);
  });
}
