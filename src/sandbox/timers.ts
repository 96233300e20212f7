// Real-time waits of the sandbox (an answer held back by the fault delay, a notification held back
// by reorder-webhooks), tracked so that stop() and reset() end every one of them.

export interface Timers {
  /** Runs `run` after `ms` real milliseconds, unless cleared first. */
  later(ms: number, run: () => void): void;
  /** Cancels every wait. */
  clear(): void;
  /** How many waits are pending. */
  pending(): number;
}

export function createTimers(): Timers {
  const timers = new Set<NodeJS.Timeout>();
  return {
    later(ms, run) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, ms);
      timers.add(timer);
    },
    clear() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
    pending: () => timers.size,
  };
}
