// The typed client against a bare fetch, on a local server answering a fixed body.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { createGatewayClient } from '../src/client/createGatewayClient.js';
import { createChecksumSigner } from '../src/signing/checksum.js';
import { msPerRun, ratio } from './stats.mjs';

const doc = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8'));
const answer = JSON.stringify(doc.components.examples.PaySucceeded.value);
const request = doc.components.examples.PayWithWallet.value;

export async function clientFigures() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) }); res.end(answer); });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const url = `http://127.0.0.1:${/** @type {any} */ (server.address()).port}`;
  const CALLS = 200;
  const envelope = JSON.stringify(request);
  const bare = async () => {
    for (let i = 0; i < CALLS; i++) {
      const res = await fetch(`${url}/aoa-acquiring-biz/v2/payment?mid=MERCHANT0001&orderId=ORDER-1001`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: envelope });
      JSON.parse(await res.text());
    }
  };
  const plain = createGatewayClient({ gatewayUrl: url, routerUrl: url });
  const full = createGatewayClient({ gatewayUrl: url, routerUrl: url, signer: createChecksumSigner('0123456789abcdef'), validate: true });
  const viaClient = (/** @type {any} */ client, /** @type {boolean} */ sign) => async () => {
    for (let i = 0; i < CALLS; i++) await client.modifyOrder({ mid: 'MERCHANT0001', orderId: 'ORDER-1001', txnToken: 'T', body: { txnAmount: { value: '1.00', currency: 'INR' } }, sign });
  };
  const payViaClient = (/** @type {any} */ client) => async () => {
    for (let i = 0; i < CALLS; i++) await client.initiatePayment({ txnToken: 'T', body: request.body });
  };
  try {
    const reference = await msPerRun(bare, { rounds: 7, warmup: 2 });
    const off = await msPerRun(payViaClient(plain), { rounds: 7, warmup: 2 });
    const on = await msPerRun(viaClient(full, true), { rounds: 7, warmup: 2 });
    const per = (/** @type {any} */ s) => ({ ...s, median: s.median / CALLS, min: s.min / CALLS, max: s.max / CALLS });
    return [
      { group: 'client', name: 'pay, signing and validation off', subject: per(off), reference: per(reference), ratio: ratio(off, reference), unit: 'ms/call', target: '<= 1.10x bare fetch', met: off.median / reference.median <= 1.1 },
      { group: 'client', name: 'modify order, signed and validated both ways', subject: per(on), reference: per(reference), ratio: ratio(on, reference), unit: 'ms/call' },
    ];
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(() => resolve(undefined)));
  }
}
