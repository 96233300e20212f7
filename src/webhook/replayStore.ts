// The default memory of accepted notifications: ids with their expiry, evicted once expired, so
// memory holds only the notifications of the last replay window. One process only: several
// instances behind a load balancer need a shared store (the receiver's `seen` option).

/** Where accepted notifications are remembered for the replay window. Ids are opaque strings. */
export interface ReplayStore {
  has(id: string): boolean | Promise<boolean>;
  /** Remember `id` until `expiresAt` (epoch milliseconds). */
  add(id: string, expiresAt: number): void | Promise<void>;
}

/** At most this many ids are held by default (two per notification: about 10 MB). */
export const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * The default replay store: in memory, expired ids evicted, at most `maxEntries` ids (the oldest
 * go first when it is full). `now` is the clock that decides expiry (default Date.now).
 */
export function createMemoryReplayStore({
  now = Date.now,
  maxEntries = DEFAULT_MAX_ENTRIES,
}: {
  now?: (() => number) | undefined;
  maxEntries?: number | undefined;
} = {}): ReplayStore & {
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
      entries.delete(id);
      // Full: the oldest id goes, so memory stays bounded whatever the traffic.
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(id, expiresAt);
    },
    /** How many ids are held (expired ones included until the next call). */
    get size() {
      return entries.size;
    },
  };
}
