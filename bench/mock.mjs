// The mock: Prism's throughput and latency against a bare node:http server returning a fixed body,
// both driven by autocannon on loopback, bounded in time and connections, in alternating rounds.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { startPrism } from '../dist/mock/launch.js';
import { load, loadFigures } from './load.mjs';
import { freePort } from './ports.mjs';

const doc = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8'));
const body = JSON.stringify(doc.components.examples.PayWithWallet.value);
const answer = JSON.stringify(doc.components.examples.PaySucceeded.value);
const PATH = '/aoa-acquiring-biz/v2/payment?mid=MERCHANT0001&orderId=ORDER-1001';
const ROUNDS = 3;
const DURATION = 2;
const CONNECTIONS = 10;

export async function mockFigures() {
  const bare = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  await new Promise((resolve) => bare.listen(0, '127.0.0.1', () => resolve(undefined)));
  const bareUrl = `http://127.0.0.1:${/** @type {any} */ (bare.address()).port}`;
  // As `npm start` runs it (log level silent), on a port nothing else holds.
  const prism = await startPrism({ port: await freePort() });
  try {
    const options = (/** @type {string} */ url) => ({
      url: `${url}${PATH}`,
      body,
      connections: CONNECTIONS,
      duration: DURATION,
    });
    const bareRounds = [];
    const prismRounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      bareRounds.push(await load(options(bareUrl)));
      prismRounds.push(await load(options(prism.url)));
    }
    const b = loadFigures(bareRounds);
    const p = loadFigures(prismRounds);
    if (p.non2xx > 0) throw new Error(`Prism answered ${p.non2xx} requests with a non-2xx status`);
    const fig = (/** @type {string} */ name, /** @type {'rps'|'p50'|'p99'} */ what, /** @type {string} */ unit) => ({
      group: 'mock',
      name,
      subject: p[what],
      reference: b[what],
      ratio: { value: p[what].median / b[what].median, spread: p[what].spread + b[what].spread },
      unit,
    });
    return [
      fig(`Prism throughput (${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s)`, 'rps', 'req/s'),
      fig('Prism latency p50', 'p50', 'ms'),
      fig('Prism latency p99', 'p99', 'ms'),
    ];
  } finally {
    await prism.stop();
    bare.closeAllConnections();
    await new Promise((resolve) => bare.close(() => resolve(undefined)));
  }
}
