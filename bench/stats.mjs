// Timing helpers: repeated rounds, median and spread, no timed assertions anywhere.

/** The q-quantile (0 to 1) of sorted values, interpolated between neighbours. */
function quantile(/** @type {number[]} */ sorted, /** @type {number} */ q) {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (at - low);
}

/**
 * Median, min, max and spread of a list of numbers. The spread is half the interquartile range
 * relative to the median: one slow round (a garbage collection, the other core busy) moves the
 * min or the max, not the spread.
 */
export function summarize(/** @type {number[]} */ values) {
  const sorted = [...values].sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  const spread = median ? (quantile(sorted, 0.75) - quantile(sorted, 0.25)) / 2 / median : 0;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], spread, rounds: values.length };
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
export function ratio(
  /** @type {{ median: number, spread: number }} */ a,
  /** @type {{ median: number, spread: number }} */ b,
) {
  return { value: a.median / b.median, spread: a.spread + b.spread };
}

/**
 * Nanoseconds per call of `subject` and of `reference`, measured in alternating rounds, and their
 * ratio round by round: a slow moment of the machine weighs on both sides of a ratio, not on one.
 * @param {() => unknown} subject @param {() => unknown} reference
 * @param {{ rounds?: number, roundMs?: number }} [o]
 */
export function pairedNsPerOp(subject, reference, { rounds = 9, roundMs = 40 } = {}) {
  /** @type {number[]} */
  const s = [];
  /** @type {number[]} */
  const r = [];
  /** @type {number[]} */
  const ratios = [];
  for (let i = 0; i < rounds; i++) {
    const a = nsPerOp(subject, { rounds: 1, roundMs }).median;
    const b = nsPerOp(reference, { rounds: 1, roundMs }).median;
    s.push(a);
    r.push(b);
    ratios.push(a / b);
  }
  const ratio = summarize(ratios);
  return { subject: summarize(s), reference: summarize(r), ratio: { value: ratio.median, spread: ratio.spread } };
}

/**
 * Milliseconds per run of two async functions, in alternating rounds, with their ratio round by
 * round (see pairedNsPerOp).
 * @param {() => Promise<unknown>} subject @param {() => Promise<unknown>} reference
 * @param {{ rounds?: number, warmup?: number }} [o]
 */
export async function pairedMsPerRun(subject, reference, { rounds = 9, warmup = 2 } = {}) {
  for (let i = 0; i < warmup; i++) {
    await subject();
    await reference();
  }
  /** @type {number[]} */
  const s = [];
  /** @type {number[]} */
  const r = [];
  /** @type {number[]} */
  const ratios = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate which goes first, so neither always follows the other's garbage.
    const [first, second] = i % 2 ? [reference, subject] : [subject, reference];
    const t0 = process.hrtime.bigint();
    await first();
    const t1 = process.hrtime.bigint();
    await second();
    const t2 = process.hrtime.bigint();
    const [a, b] = i % 2 ? [Number(t2 - t1), Number(t1 - t0)] : [Number(t1 - t0), Number(t2 - t1)];
    s.push(a / 1e6);
    r.push(b / 1e6);
    ratios.push(a / b);
  }
  const ratio = summarize(ratios);
  return {
    subject: summarize(s),
    reference: summarize(r),
    ratio: { value: ratio.median, spread: ratio.spread },
    difference: summarize(s.map((x, k) => x - r[k])),
  };
}
