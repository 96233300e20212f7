// The default memory of accepted notifications: ids with their expiry, evicted once expired, so
// memory holds only the notifications of the last replay window. One process only: several
// instances behind a load balancer need a shared store (the receiver's `seen` option).

/**
 * @param {{ now?: () => number }} [options] the clock that decides expiry (default Date.now)
 */
export function createMemoryReplayStore({ now = Date.now } = {}) {
  /** id -> expiry, in insertion order; with one window length that is also expiry order. */
  const entries = new Map();

  function evict() {
    const t = now();
    for (const [id, expiresAt] of entries) {
      if (expiresAt > t) break;
      entries.delete(id);
    }
  }

  return {
    /** @param {string} id */
    has(id) {
      evict();
      const expiresAt = entries.get(id);
      return expiresAt !== undefined && expiresAt > now();
    },
    /** @param {string} id @param {number} expiresAt epoch milliseconds */
    add(id, expiresAt) {
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
