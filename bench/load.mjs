// Load on loopback with autocannon, bounded in time and connections. Latency percentiles are
// computed from autocannon's per-response times (fractions of a millisecond), not from its
// histogram, which keeps whole milliseconds only: a bare server answers in well under one.
import autocannon from 'autocannon';
import { summarize } from './stats.mjs';

/** The p-th percentile (0 to 100) of sorted values. @param {number[]} sorted @param {number} p */
function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * One load: autocannon's result plus its latencies, and the wall time from its start to its last
 * answer in seconds (autocannon notices the end of a run of `amount` requests on its own
 * one-second ticks).
 * @param {import('autocannon').Options} options
 * @returns {Promise<{ result: any, latencies: number[], seconds: number }>}
 */
export function load(options) {
  return new Promise((resolve, reject) => {
    /** @type {number[]} */
    const latencies = [];
    const started = performance.now();
    let last = started;
    const instance = autocannon(
      { method: 'POST', headers: { 'content-type': 'application/json' }, ...options },
      (error, result) => (error ? reject(error) : resolve({ result, latencies, seconds: (last - started) / 1000 })),
    );
    instance.on(
      'response',
      (
        /** @type {unknown} */ _client,
        /** @type {number} */ statusCode,
        /** @type {number} */ _bytes,
        /** @type {number} */ responseTime,
      ) => {
        last = performance.now();
        if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      },
    );
  });
}

/**
 * Throughput (requests per second) and latency (p50, p99, ms) of one or more loads: with several
 * rounds, each figure's median and spread are over the rounds; with one, throughput's spread is
 * over its seconds.
 * @param {{ result: any, latencies: number[] }[]} rounds
 */
export function loadFigures(rounds) {
  const p = (/** @type {number} */ q) =>
    summarize(
      rounds.map((r) =>
        percentile(
          [...r.latencies].sort((a, b) => a - b),
          q,
        ),
      ),
    );
  const rps =
    rounds.length > 1
      ? summarize(rounds.map((r) => r.result.requests.total / r.result.duration))
      : (() => {
          const r = rounds[0].result.requests;
          return {
            median: r.average,
            min: r.min,
            max: r.max,
            spread: r.average ? r.stddev / r.average : 0,
            rounds: rounds[0].result.duration,
          };
        })();
  return {
    rps,
    p50: p(50),
    p99: p(99),
    non2xx: rounds.reduce((n, r) => n + r.result.non2xx, 0),
    total: rounds.reduce((n, r) => n + r.result.requests.total, 0),
  };
}
