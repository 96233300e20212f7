// Jobs due at a time of the sandbox clock (INIT tokens that become ACTIVE or FAILED, notification
// retries), each of which can be cancelled when its record is forgotten. A real timer
// wakes the scheduler when the next job should be due; advancing the clock runs what became due at
// once. With a frozen injected clock the timer simply finds nothing due and waits again.
import type { Clock } from './clock.js';
import { MinHeap } from './heap.js';

export interface Scheduler {
  /** Runs `run` once the sandbox clock reaches `due`; the function returned cancels it. */
  at(due: number, run: () => unknown): () => void;
  /** Runs every job that is due, in order of due time; resolves with what they returned. */
  runDue(): Promise<PromiseSettledResult<unknown>[]>;
  /** How many jobs wait (cancelled ones are not counted). */
  pending(): number;
  /** Forgets every job. */
  clear(): void;
  /** Forgets every job and never arms the timer again. */
  stop(): void;
}

interface Job {
  due: number;
  /** Order of scheduling: jobs due at the same time run in that order. */
  seq: number;
  run: () => unknown;
  /** Cancelled (it stays in the heap until it is due or the heap is rebuilt), or taken to run. */
  state?: 'cancelled' | 'taken';
}

const nothing = () => undefined;

export function createScheduler(clock: Clock): Scheduler {
  // Ordered by due time, then by scheduling order; adding a job costs O(log n), not a scan.
  let sequence = 0;
  const jobs = new MinHeap<Job>((a, b) => a.due < b.due || (a.due === b.due && a.seq < b.seq));
  let timer: NodeJS.Timeout | undefined;
  let armedFor = Number.POSITIVE_INFINITY;
  let stopped = false;
  /** Cancelled jobs still in the heap. */
  let cancelled = 0;

  function arm() {
    const next = jobs.peek();
    if (stopped || !next) {
      clearTimeout(timer);
      timer = undefined;
      armedFor = Number.POSITIVE_INFINITY;
      return;
    }
    // Armed for this time or earlier already: nothing to change (most new jobs are due later).
    if (timer && armedFor <= next.due) return;
    clearTimeout(timer);
    armedFor = next.due;
    timer = setTimeout(
      () => {
        timer = undefined;
        armedFor = Number.POSITIVE_INFINITY;
        runDue();
      },
      Math.min(Math.max(next.due - clock.now(), 10), 2 ** 31 - 1),
    );
    timer.unref();
  }

  function runDue() {
    const now = clock.now();
    const results: unknown[] = [];
    for (let next = jobs.peek(); next && next.due <= now; next = jobs.peek()) {
      jobs.pop();
      if (next.state === 'cancelled') {
        cancelled--;
        continue;
      }
      next.state = 'taken';
      results.push(next.run());
    }
    arm();
    return Promise.allSettled(results);
  }

  return {
    at(due, run) {
      const job: Job = { due, seq: sequence++, run };
      jobs.push(job);
      arm();
      return () => {
        if (job.state) return;
        job.state = 'cancelled';
        // What it would have run is let go at once; the job itself once it is due, or sooner when
        // cancelled jobs are most of the heap (a frozen clock makes nothing due).
        job.run = nothing;
        cancelled++;
        if (cancelled > 64 && cancelled * 2 > jobs.size) {
          jobs.retain((j) => j.state !== 'cancelled');
          cancelled = 0;
        }
      };
    },
    runDue,
    pending: () => jobs.size - cancelled,
    clear() {
      jobs.clear();
      cancelled = 0;
      arm();
    },
    stop() {
      stopped = true;
      jobs.clear();
      cancelled = 0;
      clearTimeout(timer);
    },
  };
}
