// The mock: Prism's throughput and latency against a bare node:http server returning a fixed body,
// both driven by autocannon on loopback, bounded in time and connections.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { startPrism } from '../src/mock/launch.js';

const doc = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8'));
const body = JSON.stringify(doc.components.examples.PayWithWallet.value);
const answer = JSON.stringify(doc.components.examples.PaySucceeded.value);
const PATH = '/aoa-acquiring-biz/v2/payment?mid=MERCHANT0001&orderId=ORDER-1001';
const DURATION = 5;
const CONNECTIONS = 10;

/** @param {string} url */
function load(url) {
  return new Promise((resolve, reject) => {
    autocannon({ url: `${url}${PATH}`, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections: CONNECTIONS, duration: DURATION }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** One figure from autocannon's per-second samples (throughput) or latency percentiles. */
function summary(/** @type {any} */ r, /** @type {'rps' | 'p50' | 'p99'} */ what) {
  if (what === 'rps') return { median: r.requests.average, min: r.requests.min, max: r.requests.max, spread: r.requests.average ? r.requests.stddev / r.requests.average : 0, rounds: r.duration };
  const v = what === 'p50' ? r.latency.p50 : r.latency.p99;
  return { median: v, min: r.latency.min, max: r.latency.max, spread: r.latency.average ? r.latency.stddev / r.latency.average : 0, rounds: r.duration };
}

export async function mockFigures() {
  const bare = createServer((req, res) => {
    req.resume();
    req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) }); res.end(answer); });
  });
  await new Promise((resolve) => bare.listen(0, '127.0.0.1', () => resolve(undefined)));
  const bareUrl = `http://127.0.0.1:${/** @type {any} */ (bare.address()).port}`;
  const port = /** @type {any} */ (bare.address()).port + 1;
  const prism = await startPrism({ port, log: 'error' });
  try {
    const b = /** @type {any} */ (await load(bareUrl));
    const p = /** @type {any} */ (await load(prism.url));
    if (p.non2xx > 0) throw new Error(`Prism answered ${p.non2xx} requests with a non-2xx status`);
    const fig = (/** @type {string} */ name, /** @type {'rps'|'p50'|'p99'} */ what, /** @type {string} */ unit) => {
      const s = summary(p, what);
      const r = summary(b, what);
      return { group: 'mock', name, subject: s, reference: r, ratio: { value: s.median / r.median, spread: s.spread + r.spread }, unit };
    };
    return [
      fig(`Prism throughput (${CONNECTIONS} connections, ${DURATION} s)`, 'rps', 'req/s'),
      fig('Prism latency p50', 'p50', 'ms'),
      fig('Prism latency p99', 'p99', 'ms'),
    ];
  } finally {
    await prism.stop();
    bare.closeAllConnections();
    await new Promise((resolve) => bare.close(() => resolve(undefined)));
  }
}
