// Where the receiver claims accepted notifications (docs/decisions.md, D-93, D-105): a claim has two
// states. "In progress": held by the owner of one delivery, for a lease no longer than the handler's
// time limit plus a margin; another instance that finds it asks the service for a new delivery (500).
// "Handled": the handler succeeded, kept for the replay window; only that is a replay (406). A failed
// handler, an unreachable store or a dead owner leaves an in-progress claim whose lease lapses, and the
// next delivery is handled. The default store is in memory (one process);
// gateway-contract/webhook/redis and gateway-contract/webhook/postgres share one among instances.

/** What a claim found: `claimed` (now in progress, held by this owner), or the state of the claim that holds the key. */
export type ClaimOutcome = 'claimed' | 'in-progress' | 'handled';

/**
 * A replay store: claims are atomic, in progress or handled, and expire. Keys are opaque strings of
 * the receiver (digests, never a signature or a body); an owner is a random token of one delivery.
 */
export interface ReplayStore {
  /**
   * Sets `key` in progress, held by `owner`, for `leaseMs` milliseconds, if no unexpired claim holds
   * it: resolves `claimed`. Otherwise resolves the state of the claim that holds it, `in-progress` or
   * `handled` (whatever its owner, this one included). Atomic: of concurrent claims of a key, one
   * resolves `claimed`. A store that cannot answer (unreachable, failing) rejects; it never resolves
   * an outcome without knowing it.
   */
  claim(key: string, leaseMs: number, owner: string): ClaimOutcome | Promise<ClaimOutcome>;
  /**
   * Marks `key` handled for `windowMs` milliseconds, if `owner` holds it in progress and its lease
   * has not lapsed: resolves `true`. Resolves `true` too when `owner` already completed it (a retry
   * after a lost answer), and `false`, changing nothing, in every other case (the lease lapsed, another
   * owner holds the key, nothing holds it). Rejects when it cannot know.
   */
  complete(key: string, owner: string, windowMs: number): boolean | Promise<boolean>;
  /**
   * Removes the in-progress claim of `key` if `owner` holds it, so that the next claim succeeds.
   * Called when the handler failed, or when the outcome of a claim is unknown. A handled key, a
   * claim of another owner, or a key not held: nothing changes.
   */
  release(key: string, owner: string): void | Promise<void>;
}

/** The memory store is full of unexpired claims: the notification is refused rather than an unexpired claim forgotten. */
export class ReplayStoreFullError extends RangeError {
  override name = 'ReplayStoreFullError';
}

/** At most this many keys are held by default (two per notification: about 20 MB). */
export const DEFAULT_MAX_ENTRIES = 100_000;

/** Checks a claim's arguments; every store of the package refuses the same mistakes. */
export function checkClaim(key: unknown, leaseMs: unknown, owner: unknown): void {
  checkKey(key, owner);
  checkDuration(leaseMs, 'leaseMs');
}

/** Checks a completion's arguments. */
export function checkComplete(key: unknown, owner: unknown, windowMs: unknown): void {
  checkKey(key, owner);
  checkDuration(windowMs, 'windowMs');
}

export function checkKey(key: unknown, owner: unknown): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 256)
    throw new TypeError('A replay key is a string of 1 to 256 characters.');
  if (typeof owner !== 'string' || owner.length === 0 || owner.length > 64)
    throw new TypeError('An owner is a string of 1 to 64 characters.');
}

function checkDuration(ms: unknown, name: string): void {
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 1)
    throw new TypeError(`${name} must be a whole number of milliseconds, 1 or more.`);
}

/** A claim the memory store holds: its owner and when it lapses (epoch milliseconds). */
interface Held {
  owner: string;
  until: number;
}

/** Deletes the claims of `held` that have lapsed at `t`, from the oldest, up to the first that has not. */
function evict(held: Map<string, Held>, t: number): void {
  for (const [key, claim] of held) {
    if (claim.until > t) break;
    held.delete(key);
  }
}

/**
 * The default replay store: in memory, one process, lapsed claims evicted, at most `maxEntries`
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
  claim(key: string, leaseMs: number, owner: string): ClaimOutcome;
  complete(key: string, owner: string, windowMs: number): boolean;
  release(key: string, owner: string): void;
  readonly size: number;
} {
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1)
    throw new TypeError('maxEntries must be a whole number of 1 or more.');
  // One map per state, each in insertion order: with one lease and one window (the receiver's), that
  // is also the order in which they lapse, so eviction stops at the first claim still held.
  const inProgress = new Map<string, Held>();
  const handled = new Map<string, Held>();
  const unexpired = (map: Map<string, Held>, key: string, t: number) => {
    const claim = map.get(key);
    return claim !== undefined && claim.until > t ? claim : undefined;
  };

  return {
    claim(key, leaseMs, owner) {
      checkClaim(key, leaseMs, owner);
      const t = now();
      evict(inProgress, t);
      evict(handled, t);
      if (unexpired(handled, key, t)) return 'handled';
      if (unexpired(inProgress, key, t)) return 'in-progress';
      handled.delete(key);
      inProgress.delete(key);
      if (inProgress.size + handled.size >= maxEntries)
        throw new ReplayStoreFullError(`The replay store is full: it holds ${maxEntries} unexpired claims.`);
      inProgress.set(key, { owner, until: t + leaseMs });
      return 'claimed';
    },
    complete(key, owner, windowMs) {
      checkComplete(key, owner, windowMs);
      const t = now();
      if (unexpired(handled, key, t)?.owner === owner) return true;
      if (unexpired(inProgress, key, t)?.owner !== owner) return false;
      inProgress.delete(key);
      handled.set(key, { owner, until: t + windowMs });
      return true;
    },
    release(key, owner) {
      checkKey(key, owner);
      if (inProgress.get(key)?.owner === owner) inProgress.delete(key);
    },
    /** How many keys are held (lapsed ones included until the next claim). */
    get size() {
      return inProgress.size + handled.size;
    },
  };
}
