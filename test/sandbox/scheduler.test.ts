// The sandbox's ordered state: the heap behind its scheduler and its wallet blocks, and a
// scheduler that holds a CI run's worth of pending token changes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/sandbox/clock.js';
import { MinHeap } from '../../src/sandbox/heap.js';
import { createScheduler } from '../../src/sandbox/scheduler.js';

describe('the heap', () => {
  it('gives its items back in order, whatever order they came in', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1000, max: 1000 })), (values) => {
        const heap = new MinHeap<number>((a, b) => a < b);
        for (const v of values) heap.push(v);
        const out: number[] = [];
        for (let v = heap.pop(); v !== undefined; v = heap.pop()) out.push(v);
        expect(out).toEqual([...values].sort((a, b) => a - b));
      }),
      { seed: 42, numRuns: 200 },
    );
  });
});

describe('the scheduler', () => {
  it('runs jobs in order of due time, those due together in the order they were scheduled', async () => {
    let t = 1_000;
    const clock = createClock(() => t);
    const scheduler = createScheduler(clock);
    const ran: string[] = [];
    scheduler.at(3_000, () => ran.push('c'));
    scheduler.at(2_000, () => ran.push('a'));
    scheduler.at(2_000, () => ran.push('b'));
    scheduler.at(9_000, () => ran.push('late'));
    t = 5_000;
    await scheduler.runDue();
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(scheduler.pending()).toBe(1);
    scheduler.stop();
  });

  it('holds 200 000 pending jobs and runs them all, without a stack overflow', async () => {
    let t = 0;
    const clock = createClock(() => t);
    const scheduler = createScheduler(clock);
    let count = 0;
    for (let i = 0; i < 200_000; i++) scheduler.at(1_000 + (i % 997), () => count++);
    expect(scheduler.pending()).toBe(200_000);
    t = 10_000;
    await scheduler.runDue();
    expect(count).toBe(200_000);
    expect(scheduler.pending()).toBe(0);
    scheduler.stop();
  });

  it('forgets cancelled jobs: they never run and are not counted, with the clock frozen too', async () => {
    let t = 0;
    const clock = createClock(() => t);
    const scheduler = createScheduler(clock);
    const ran: number[] = [];
    const cancels = Array.from({ length: 1_000 }, (_, i) => scheduler.at(1_000 + i, () => ran.push(i)));
    for (const [i, cancel] of cancels.entries()) if (i % 100 !== 0) cancel();
    cancels[0]?.();
    expect(scheduler.pending()).toBe(9);
    t = 10_000;
    await scheduler.runDue();
    expect(ran).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900]);
    // Cancelling a job that already ran changes nothing.
    cancels[100]?.();
    expect(scheduler.pending()).toBe(0);
    scheduler.stop();
  });
});

describe('the heap, rebuilt', () => {
  it('keeps what it is told to keep, in order', () => {
    const heap = new MinHeap<number>((a, b) => a < b);
    for (const v of [5, 3, 9, 1, 7, 2, 8]) heap.push(v);
    heap.retain((v) => v % 2 === 1);
    const out: number[] = [];
    for (let v = heap.pop(); v !== undefined; v = heap.pop()) out.push(v);
    expect(out).toEqual([1, 3, 5, 7, 9]);
  });
});
