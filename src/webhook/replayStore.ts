// The default memory of accepted notifications: ids with their expiry, evicted once expired, so
// memory holds only the notifications of the last replay window. One process only: several
// instances behind a load balancer need a shared store (the receiver's `seen` option).

/** Where accepted notifications are remembered for the replay window. Ids are opaque strings. */
export interface ReplayStore {
  has(id: string): boolean | Promise<boolean>;
  /** Remember `id` until `expiresAt` (epoch milliseconds). */
  add(id: string, expiresAt: number): void | Promise<void>;
  /**
   * How many more ids it can remember now, for a store with a cap (expired ids no longer count).
   * The receiver refuses a notification whose ids would not fit (500, so the service delivers it
   * again later) rather than have the store forget an id within its window. A store without this
   * method is taken to have room for every id.
   */
  room?(): number | Promise<number>;
}

/** At most this many ids are held by default (two per notification: about 10 MB). */
export const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * The default replay store: in memory, expired ids evicted, at most `maxEntries` ids. When it is
 * full, `add` of a new id throws a RangeError and every id within its window stays: forgetting
 * one would let its notification be replayed and accepted. `room()` says how many more fit, which
 * the receiver asks before accepting a notification. `now` is the clock that decides expiry
 * (default Date.now).
 */
export function createMemoryReplayStore({
  now = Date.now,
  maxEntries = DEFAULT_MAX_ENTRIES,
}: {
  now?: (() => number) | undefined;
  maxEntries?: number | undefined;
} = {}): ReplayStore & {
  room(): number;
  readonly size: number;
} {
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new TypeError('maxEntries must be a whole number of 1 or more.');
  /** id -> expiry, in insertion order; with one window length that is also expiry order. */
  const entries = new Map<string, number>();

  function evict() {
    const t = now();
    for (const [id, expiresAt] of entries) {
      if (expiresAt > t) break;
      entries.delete(id);
    }
  }

  return {
    has(id: string) {
      evict();
      const expiresAt = entries.get(id);
      return expiresAt !== undefined && expiresAt > now();
    },
    add(id: string, expiresAt: number) {
      evict();
      // Full: nothing within its window is forgotten; the caller learns that this id was not kept.
      if (!entries.has(id) && entries.size >= maxEntries) throw new RangeError(`The replay store is full: it holds ${maxEntries} ids within their window.`);
      entries.delete(id);
      entries.set(id, expiresAt);
    },
    room() {
      evict();
      return maxEntries - entries.size;
    },
    /** How many ids are held (expired ones included until the next call). */
    get size() {
      return entries.size;
    },
  };
}
