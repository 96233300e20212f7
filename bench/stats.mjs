// Timing helpers: repeated rounds, median and spread, no timed assertions anywhere.

/** Median and spread (min, max, and the relative half-range) of a list of numbers. */
export function summarize(/** @type {number[]} */ values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], spread: median ? (sorted[sorted.length - 1] - sorted[0]) / 2 / median : 0, rounds: values.length };
}

/**
 * Nanoseconds per call of `fn`, measured in `rounds` rounds of about `roundMs` each.
 * @param {() => unknown} fn @param {{ rounds?: number, roundMs?: number }} [o]
 */
export function nsPerOp(fn, { rounds = 7, roundMs = 60 } = {}) {
  // Warm up and size the batch so one batch takes about 1 ms.
  let batch = 1;
  for (;;) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) fn();
    if (Number(process.hrtime.bigint() - t) > 1e6 || batch > 1e7) break;
    batch *= 2;
  }
  const results = [];
  for (let r = 0; r < rounds; r++) {
    let calls = 0;
    const start = process.hrtime.bigint();
    const end = start + BigInt(roundMs * 1e6);
    let now = start;
    while (now < end) {
      for (let i = 0; i < batch; i++) fn();
      calls += batch;
      now = process.hrtime.bigint();
    }
    results.push(Number(now - start) / calls);
  }
  return summarize(results);
}

/** Milliseconds per run of an async function, over `rounds` rounds. */
export async function msPerRun(/** @type {() => Promise<unknown>} */ fn, { rounds = 5, warmup = 1 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const results = [];
  for (let r = 0; r < rounds; r++) {
    const t = process.hrtime.bigint();
    await fn();
    results.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return summarize(results);
}

/** The ratio of two summaries, with the spread of both combined. */
export function ratio(/** @type {{ median: number, spread: number }} */ a, /** @type {{ median: number, spread: number }} */ b) {
  return { value: a.median / b.median, spread: a.spread + b.spread };
}
