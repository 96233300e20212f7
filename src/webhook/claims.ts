// The receiver's claim ledger (docs/decisions.md, D-105): the calls of the replay store around one
// notification, each bounded by storeTimeoutMs. A delivery claims the notification's keys in progress
// for a lease, completes them (handled, for the replay window) once its handler succeeded, and
// releases them when it failed. A call whose outcome is unknown, or a completion or release the store
// refused, is tried again in the background until the lease has lapsed: after that the store no longer
// needs it (a lapsed claim is claimed again; a completion after it changes nothing).
import { type Bytes, fromBase64, toHex, webCrypto, wtf8Bytes } from '../encoding/bytes.js';
import { type ClaimOutcome, type ReplayStore, ReplayStoreFullError } from './replayStore.js';
import { storeChannel, type WebhookStoreEvent } from './tracing.js';

/** What claiming a notification's keys came to. */
export type ClaimVerdict =
  /** Every key is in progress, held by this delivery's owner: its handler may run. */
  | 'won'
  /** A key is handled: a replay (406). */
  | 'handled'
  /** A key is in progress under another delivery, or its lease has not lapsed: deliver again (500). */
  | 'in-progress'
  /** The store failed or did not answer in time (500). */
  | 'failed'
  /** The memory store is full of unexpired claims (500). */
  | 'full';

export interface ClaimLedger {
  /** Claims every key for `owner`, in order; what it did claim is released unless the verdict is `won`. Never throws. */
  claim(keys: readonly string[], owner: string): Promise<ClaimVerdict>;
  /** Marks the keys handled. Never throws: a completion the store refuses is tried again while the lease holds. */
  complete(keys: readonly string[], owner: string): Promise<void>;
  /** Releases the keys in progress. Never throws: a release the store refuses is tried again while the lease holds. */
  release(keys: readonly string[], owner: string): Promise<void>;
}

export interface ClaimLedgerOptions {
  store: ReplayStore;
  /** How long one call of the store is waited for. */
  storeTimeoutMs: number;
  /** How long a claim stays in progress when nobody completes or releases it. */
  leaseMs: number;
  /** How long a handled claim is kept. */
  windowMs: number;
}

/**
 * The keys a notification is claimed by, in the order they are claimed. The head is not signed, so
 * a replay may carry a new requestId: the signature (kept as a digest, never itself) catches that.
 * Each key is built flat (one `join`, not a chain of `+`), so that a store that keeps it keeps 74
 * characters, not a rope of pieces (the memory store's bytes per key, D-107).
 */
export async function replayKeys(head: { requestId: string; signature: string }): Promise<string[]> {
  const digest = async (data: Bytes) => toHex(new Uint8Array(await webCrypto().subtle.digest('SHA-256', data)));
  // A Base64 signature is remembered by the bytes it stands for: the unused bits of its last
  // character let other spellings carry the same bytes (a verifier may accept them). Every key has
  // the same small size, whatever the requestId.
  const signature = (BASE64.test(head.signature) && fromBase64(head.signature)) || wtf8Bytes(head.signature);
  return [['signature', await digest(signature)].join(':'), ['requestId', await digest(wtf8Bytes(head.requestId))].join(':')];
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A random owner for one delivery's claims (128 bits, hex). */
export function newOwner(): string {
  return toHex(webCrypto().getRandomValues(new Uint8Array(16)));
}

/** A call of the store, bounded: its value, or why there is none. */
type StoreOutcome<T> = { ok: true; value: T } | { ok: false; outcome: 'failed' | 'timeout' | 'full'; error?: unknown };

/** A call the store refused is tried again after 50 ms, each wait doubling up to 1 s. */
const retryDelay = (retry: number) => Math.min(1_000, 50 * 2 ** retry);
/** Calls waiting for a retry, at most (each holds a key and an owner, about 200 bytes). */
const MAX_RETRIES_PENDING = 10_000;

const OUTCOMES: readonly unknown[] = ['claimed', 'in-progress', 'handled'] satisfies ClaimOutcome[];

export function publishStore(event: WebhookStoreEvent): void {
  if (storeChannel?.hasSubscribers) storeChannel.publish(event);
}

/** The name of an error, for an event: never its message, which may hold a key or an address. */
function errorName(error: unknown): { error?: string } {
  return error instanceof Error ? { error: error.name.slice(0, 64) } : {};
}

const failure = (error: unknown): StoreOutcome<never> => ({ ok: false, outcome: error instanceof ReplayStoreFullError ? 'full' : 'failed', error });
const noop = () => undefined;

export function createClaimLedger({ store, storeTimeoutMs, leaseMs, windowMs }: ClaimLedgerOptions): ClaimLedger {
  let retriesPending = 0;

  /**
   * Calls the store, waiting at most storeTimeoutMs. `settled` resolves once the call itself is
   * over, whatever its outcome: a claim that timed out may still be carried out after.
   */
  async function call<T>(run: () => T | PromiseLike<T>): Promise<{ result: StoreOutcome<T>; settled: Promise<unknown> }> {
    let answer: T | PromiseLike<T>;
    try {
      answer = run();
    } catch (error) {
      return { result: failure(error), settled: Promise.resolve() };
    }
    // A store's own promise type, or one of another realm, is a thenable like any other.
    if (typeof (answer as PromiseLike<T> | null)?.then !== 'function') return { result: { ok: true, value: answer as T }, settled: Promise.resolve() };
    const pending = Promise.resolve(answer);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const result = await Promise.race([
      pending.then((value): StoreOutcome<T> => ({ ok: true, value }), failure),
      new Promise<StoreOutcome<T>>((resolve) => {
        timer = setTimeout(() => resolve({ ok: false, outcome: 'timeout' }), storeTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    return { result, settled: pending.then(noop, noop) };
  }

  /**
   * Runs `attempt` again until it succeeds, in the background, while the lease of a claim made now
   * could still hold; `attempt` resolves false when the store did not answer. With `after` (a call
   * whose outcome is unknown), the first try is as soon as that call is over.
   */
  function retryWhileLeased(operation: 'complete' | 'release', attempt: () => Promise<boolean>, after?: Promise<unknown>): void {
    if (retriesPending >= MAX_RETRIES_PENDING) {
      publishStore({ operation, outcome: 'gaveUp' });
      return;
    }
    retriesPending++;
    const deadline = performance.now() + leaseMs;
    const stop = (gaveUp: boolean) => {
      retriesPending--;
      if (gaveUp) publishStore({ operation, outcome: 'gaveUp' });
    };
    const next = (n: number) => {
      if (performance.now() + retryDelay(n) >= deadline) return stop(true);
      setTimeout(async () => ((await attempt()) ? stop(false) : next(n + 1)), retryDelay(n));
    };
    if (after === undefined) {
      next(0);
      return;
    }
    // A call that never settles: its claim lapses with the lease, and nothing is left to do.
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

  /** One release; false when the store did not answer. */
  async function releaseOnce(key: string, owner: string): Promise<boolean> {
    const { result } = await call(() => store.release(key, owner));
    if (!result.ok) publishStore({ operation: 'release', outcome: result.outcome, ...errorName(result.error) });
    return result.ok;
  }

  /** Releases `owner`'s claim of `key`, at once (waited for) and then in the background while the store refuses. */
  async function releaseKey(key: string, owner: string): Promise<void> {
    if (!(await releaseOnce(key, owner))) retryWhileLeased('release', () => releaseOnce(key, owner));
  }

  /** One completion; false when the store did not answer (a `false` from the store is an answer: the lease lapsed). */
  async function completeOnce(key: string, owner: string): Promise<boolean> {
    const { result } = await call(() => store.complete(key, owner, windowMs));
    if (result.ok && result.value === true) return true;
    if (result.ok && result.value === false) {
      publishStore({ operation: 'complete', outcome: 'leaseLost' });
      return true;
    }
    publishStore({ operation: 'complete', outcome: result.ok ? 'failed' : result.outcome, ...errorName(result.ok ? undefined : result.error) });
    return false;
  }

  async function completeKey(key: string, owner: string): Promise<void> {
    if (!(await completeOnce(key, owner))) retryWhileLeased('complete', () => completeOnce(key, owner));
  }

  const release = async (keys: readonly string[], owner: string) => void (await Promise.all(keys.map((key) => releaseKey(key, owner))));

  /**
   * Claims every key for `owner`, in order, and stops at the first it cannot claim: handled (406),
   * in progress (500), or a store that failed (500; that key is released once its call is over, in
   * case the store carried it out). The memory store full: the other keys are still tried, so that a
   * replay is told apart (406) from a new notification (500).
   */
  async function claim(keys: readonly string[], owner: string): Promise<ClaimVerdict> {
    const claimed: string[] = [];
    let full = false;
    for (const key of keys) {
      const { result, settled } = await call(() => store.claim(key, leaseMs, owner));
      const outcome = result.ok && OUTCOMES.includes(result.value) ? result.value : undefined;
      if (outcome === 'claimed') {
        claimed.push(key);
        continue;
      }
      if (outcome !== undefined) {
        await release(claimed, owner);
        return outcome;
      }
      // Failed, timed out, full, or an answer that is not an outcome: the key may be held or not.
      const failed = result.ok ? 'failed' : result.outcome;
      publishStore({ operation: 'claim', outcome: failed, ...errorName(result.ok ? undefined : result.error) });
      if (failed === 'full') {
        full = true;
        continue;
      }
      await release(claimed, owner);
      retryWhileLeased('release', () => releaseOnce(key, owner), settled);
      return 'failed';
    }
    if (!full) return 'won';
    await release(claimed, owner);
    return 'full';
  }

  return {
    claim,
    complete: async (keys, owner) => void (await Promise.all(keys.map((key) => completeKey(key, owner)))),
    release,
  };
}
