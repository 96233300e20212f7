// The default memory of accepted notifications: ids with their expiry, evicted once expired, so
// memory holds only the notifications of the last replay window. One process only: several
// instances behind a load balancer need a shared store (the receiver's `seen` option).

/** Where accepted notifications are remembered for the replay window. Ids are opaque strings. */
export interface ReplayStore {
  has(id: string): boolean | Promise<boolean>;
  /** Remember `id` until `expiresAt` (epoch milliseconds). */
  add(id: string, expiresAt: number): void | Promise<void>;
}

/** The default replay store: in memory, expired ids evicted. `options.now` is the clock that decides expiry (default Date.now). */
export function createMemoryReplayStore({ now = Date.now }: { now?: (() => number) | undefined } = {}): ReplayStore & { readonly size: number } {
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
      entries.set(id, expiresAt);
    },
    /** How many ids are held (expired ones included until the next call). */
    get size() {
      return entries.size;
    },
  };
}
