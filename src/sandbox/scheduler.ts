// Jobs due at a time of the sandbox clock (INIT tokens that become ACTIVE or FAILED). A real timer
// wakes the scheduler when the next job should be due; advancing the clock runs what became due at
// once. With a frozen injected clock the timer simply finds nothing due and waits again.
import type { Clock } from './clock.js';

export interface Scheduler {
  /** Runs `run` once the sandbox clock reaches `due`. */
  at(due: number, run: () => unknown): void;
  /** Runs every job that is due, in order of due time; resolves with what they returned. */
  runDue(): Promise<PromiseSettledResult<unknown>[]>;
  /** How many jobs wait. */
  pending(): number;
  /** Forgets every job. */
  clear(): void;
  /** Forgets every job and never arms the timer again. */
  stop(): void;
}

export function createScheduler(clock: Clock): Scheduler {
  let jobs: { due: number; run: () => unknown }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  function arm() {
    clearTimeout(timer);
    timer = undefined;
    if (stopped || jobs.length === 0) return;
    const next = Math.min(...jobs.map((j) => j.due));
    timer = setTimeout(
      () => {
        runDue();
      },
      Math.min(Math.max(next - clock.now(), 10), 2 ** 31 - 1),
    );
    timer.unref();
  }

  function runDue() {
    const now = clock.now();
    const due = jobs.filter((j) => j.due <= now).sort((a, b) => a.due - b.due);
    jobs = jobs.filter((j) => j.due > now);
    const results = due.map((j) => j.run());
    arm();
    return Promise.allSettled(results);
  }

  return {
    at(due, run) {
      jobs.push({ due, run });
      arm();
    },
    runDue,
    pending: () => jobs.length,
    clear() {
      jobs = [];
      arm();
    },
    stop() {
      stopped = true;
      jobs = [];
      clearTimeout(timer);
    },
  };
}
