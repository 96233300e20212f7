// The exchanges in flight, for a stop with a bounded grace (docs/decisions.md, D-111): each from the
// moment it is routed until its answer is sent or its client goes away, with how to cut it off.
import type { ServerResponse } from 'node:http';

export class InFlight<K> {
  readonly #cuts = new Map<K, () => void>();
  #idle: (() => void) | undefined;
  #graceOver = false;

  /** Counts an exchange until `res` closes; `cut` ends it with a verdict if the grace runs out first. */
  track(key: K, res: Pick<ServerResponse, 'on'>, cut: () => void): void {
    this.#cuts.set(key, cut);
    res.on('close', () => {
      this.#cuts.delete(key);
      if (this.#cuts.size === 0) this.#idle?.();
    });
  }

  get size(): number {
    return this.#cuts.size;
  }

  /** Resolves when no exchange is in flight, after `ms`, or when endGrace() is called. */
  settledOrAfter(ms: number): Promise<void> {
    if (this.#cuts.size === 0 || this.#graceOver) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#idle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Ends the wait at once. */
  endGrace(): void {
    this.#graceOver = true;
    this.#idle?.();
  }

  /** Cuts off every exchange still in flight. */
  cutAll(): void {
    for (const cut of [...this.#cuts.values()]) cut();
  }
}
