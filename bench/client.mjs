// The typed client against a bare fetch of the same request, on a local server answering each path
// with the contract's example answer.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createGatewayClient } from '../dist/client/createGatewayClient.js';
import { createChecksumSigner } from '../dist/signing/checksum.js';
import { pairedMsPerRun } from './stats.mjs';

const doc = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8'));
const example = (/** @type {string} */ name) => doc.components.examples[name].value;
const PAY = '/aoa-acquiring-biz/v2/payment';
const MODIFY = '/aoa-acquiring-biz/v2/modifyOrder';
const QUERY = '?mid=MERCHANT0001&orderId=ORDER-1001';
/** Each path's answer: a valid answer of its operation, so validation on arrival passes. */
const answers = new Map([
  [PAY, JSON.stringify(example('PaySucceeded'))],
  [MODIFY, JSON.stringify(example('ModifyOrderUpdated'))],
]);
const pay = example('PayWithWallet');
const modify = { head: { tokenType: 'TXN_TOKEN', token: 'T' }, body: { txnAmount: { value: '1.00', currency: 'INR' } } };
const CALLS = 200;

export async function clientFigures() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = answers.get((req.url ?? '').split('?')[0]) ?? '{}';
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const url = `http://127.0.0.1:${/** @type {any} */ (server.address()).port}`;
  /**
   * The reference: what a caller writes without the client: serialize the envelope, post it, read
   * the answer's JSON. @param {string} path @param {unknown} envelope
   */
  const bare = (path, envelope) => async () => {
    for (let i = 0; i < CALLS; i++) {
      const res = await fetch(`${url}${path}${QUERY}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(envelope) });
      JSON.parse(await res.text());
    }
  };
  const plain = createGatewayClient({ gatewayUrl: url, routerUrl: url });
  const full = createGatewayClient({ gatewayUrl: url, routerUrl: url, signer: createChecksumSigner('0123456789abcdef'), validate: true });
  const payVia = (/** @type {any} */ client) => async () => {
    for (let i = 0; i < CALLS; i++) await client.initiatePayment({ txnToken: 'T', body: pay.body });
  };
  const modifyVia = (/** @type {any} */ client) => async () => {
    for (let i = 0; i < CALLS; i++) await client.modifyOrder({ mid: 'MERCHANT0001', orderId: 'ORDER-1001', txnToken: 'T', body: modify.body, sign: true });
  };
  try {
    const payOff = await pairedMsPerRun(payVia(plain), bare(PAY, pay), { rounds: 11, warmup: 5 });
    const payOn = await pairedMsPerRun(payVia(full), bare(PAY, pay));
    const modifyOn = await pairedMsPerRun(modifyVia(full), bare(MODIFY, modify));
    const per = (/** @type {any} */ s) => ({ ...s, median: s.median / CALLS, min: s.min / CALLS, max: s.max / CALLS });
    const figure = (/** @type {string} */ name, /** @type {any} */ m, /** @type {object} */ target = {}) => ({
      group: 'client',
      name,
      subject: per(m.subject),
      reference: per(m.reference),
      ratio: m.ratio,
      unit: 'ms/call',
      ...target,
    });
    return [
      figure('pay, signing and validation off', payOff, { target: '<= 1.05x bare fetch', met: payOff.ratio.value <= 1.05 }),
      figure('pay, request and answer validated', payOn),
      figure('modify order, signed, request and answer validated', modifyOn),
    ];
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(() => resolve(undefined)));
  }
}
