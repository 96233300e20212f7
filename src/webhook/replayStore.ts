// Where the receiver claims accepted notifications for the replay window (docs/decisions.md, D-93): one
// atomic step, "set if absent, with an expiry", so that two instances given the same notification
// at the same time cannot both run its handler. The default store is in memory (one process);
// gateway-contract/webhook/redis and gateway-contract/webhook/postgres share one among instances.

/**
 * A replay store: claims are atomic and expire. Keys are opaque strings of the receiver (digests,
 * never a signature or a body); an owner is a random token of one claim attempt.
 */
export interface ReplayStore {
  /**
   * Sets `key`, held by `owner`, for `ttlMs` milliseconds, if no unexpired claim holds it: resolves
   * `true` when this call set it, `false` when an unexpired claim already holds it (whatever its
   * owner). Atomic: of concurrent claims of a key, one resolves `true`. A store that cannot answer
   * (unreachable, failing) rejects; it never resolves `true` or `false` without knowing.
   */
  claim(key: string, ttlMs: number, owner: string): boolean | Promise<boolean>;
  /**
   * Removes the claim of `key` if `owner` holds it (a claim of another owner stays), so that the
   * next claim of the key succeeds. Called when the handler failed, or when the outcome of a claim
   * is unknown. Releasing a key that is not held does nothing.
   */
  release(key: string, owner: string): void | Promise<void>;
}

/** The memory store is full of unexpired claims: the notification is refused rather than an unexpired claim forgotten. */
export class ReplayStoreFullError extends RangeError {
  override name = 'ReplayStoreFullError';
}

/** At most this many keys are held by default (two per notification: about 10 MB). */
export const DEFAULT_MAX_ENTRIES = 100_000;

/** Checks a claim's arguments; every store of the package refuses the same mistakes. */
export function checkClaim(key: unknown, ttlMs: unknown, owner: unknown): void {
  checkKey(key, owner);
  if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 1) throw new TypeError('ttlMs must be a whole number of milliseconds, 1 or more.');
}

export function checkKey(key: unknown, owner: unknown): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 256) throw new TypeError('A replay key is a string of 1 to 256 characters.');
  if (typeof owner !== 'string' || owner.length === 0 || owner.length > 64) throw new TypeError('An owner is a string of 1 to 64 characters.');
}

/**
 * The default replay store: in memory, one process, expired claims evicted, at most `maxEntries`
 * keys. When it is full of unexpired claims, `claim` of a new key throws a ReplayStoreFullError
 * (the receiver answers 500, and the service delivers the notification again later): forgetting
 * an unexpired claim would let its notification be replayed and accepted. `now` is the clock that
 * decides expiry (default Date.now).
 */
export function createMemoryReplayStore({
  now = Date.now,
  maxEntries = DEFAULT_MAX_ENTRIES,
}: {
  now?: (() => number) | undefined;
  maxEntries?: number | undefined;
} = {}): {
  claim(key: string, ttlMs: number, owner: string): boolean;
  release(key: string, owner: string): void;
  readonly size: number;
} {
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new TypeError('maxEntries must be a whole number of 1 or more.');
  /** key -> its claim, in insertion order; with one ttl (the receiver's window) that is also expiry order. */
  const entries = new Map<string, { owner: string; expiresAt: number }>();

  function evict(t: number) {
    for (const [key, entry] of entries) {
      if (entry.expiresAt > t) break;
      entries.delete(key);
    }
  }

  return {
    claim(key, ttlMs, owner) {
      checkClaim(key, ttlMs, owner);
      const t = now();
      evict(t);
      const held = entries.get(key);
      if (held && held.expiresAt > t) return false;
      if (!held && entries.size >= maxEntries) throw new ReplayStoreFullError(`The replay store is full: it holds ${maxEntries} unexpired claims.`);
      entries.delete(key);
      entries.set(key, { owner, expiresAt: t + ttlMs });
      return true;
    },
    release(key, owner) {
      checkKey(key, owner);
      if (entries.get(key)?.owner === owner) entries.delete(key);
    },
    /** How many keys are held (expired ones included until the next claim). */
    get size() {
      return entries.size;
    },
  };
}
