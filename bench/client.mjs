// The typed client against a plain openapi-fetch call with the same headers and body (its target)
// and against a bare fetch of the same request (reported), on a local server answering each path
// with the contract's example answer; and what tracing costs a call when nobody subscribes.

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import createClient from 'openapi-fetch';
import { createGatewayClient } from '../dist/client/index.js';
import { attemptPublisher, traceCall } from '../dist/client/tracing.js';
import { createChecksumSigner } from '../dist/signing/index.js';
import { nsPerOp, pairedMsPerRun, summarize } from './stats.mjs';

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
const modify = {
  head: { tokenType: 'TXN_TOKEN', token: 'T' },
  body: { txnAmount: { value: '1.00', currency: 'INR' } },
};
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
      const res = await fetch(`${url}${path}${QUERY}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(envelope),
      });
      JSON.parse(await res.text());
    }
  };
  /**
   * The target's reference: the same POST with openapi-fetch alone, as a caller writes it without
   * the client: the envelope the client sends (its head as the client builds it), the same headers,
   * openapi-fetch's own serializer and JSON reading.
   */
  /** @type {import('openapi-fetch').Client<import('../generated/openapi.js').paths>} */
  const api = createClient({ baseUrl: url });
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
  const plainPay = async () => {
    for (let i = 0; i < CALLS; i++) {
      const envelope = {
        head: {
          requestTimeStamp: String(Date.now()),
          tokenType: /** @type {const} */ ('TXN_TOKEN'),
          token: 'T',
          version: 'v1',
        },
        body: pay.body,
      };
      await api.POST(PAY, {
        params: { query: { mid: pay.body.mid, orderId: pay.body.orderId } },
        body: envelope,
        headers,
      });
    }
  };
  const plain = createGatewayClient({ gatewayUrl: url, routerUrl: url });
  const full = createGatewayClient({
    gatewayUrl: url,
    routerUrl: url,
    signer: createChecksumSigner('0123456789abcdef'),
    validate: true,
  });
  const payVia = (/** @type {any} */ client) => async () => {
    for (let i = 0; i < CALLS; i++) await client.initiatePayment({ txnToken: 'T', body: pay.body });
  };
  const modifyVia = (/** @type {any} */ client) => async () => {
    for (let i = 0; i < CALLS; i++)
      await client.modifyOrder({
        mid: 'MERCHANT0001',
        orderId: 'ORDER-1001',
        txnToken: 'T',
        body: modify.body,
        sign: true,
      });
  };
  try {
    const payOpenapiFetch = await pairedMsPerRun(payVia(plain), plainPay, { rounds: 11, warmup: 5 });
    const payOff = await pairedMsPerRun(payVia(plain), bare(PAY, pay), { rounds: 11, warmup: 2 });
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
    const tracing = await tracingFigures(payOpenapiFetch.subject.median / CALLS, payVia(plain));
    return [
      figure('pay, signing and validation off, vs plain openapi-fetch (same headers and body)', payOpenapiFetch, {
        target: '<= 1.3x openapi-fetch',
        met: payOpenapiFetch.ratio.value <= 1.3,
      }),
      figure('pay, signing and validation off, vs bare fetch', payOff, { target: 'measured only' }),
      figure('pay, request and answer validated', payOn),
      figure('modify order, signed, request and answer validated', modifyOn),
      { group: 'client', ...tracing.noSubscriber },
      figure('pay, off, a subscriber on every tracing channel, vs none', tracing.withSubscribers, {
        target: 'measured only',
      }),
    ];
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(() => resolve(undefined)));
  }
}

/**
 * What tracing costs a call when nobody subscribes: the checks the client runs per call then
 * (whether the call's tracing channel and the attempt channels have subscribers), timed in
 * process against the call they wrap, and set against the time of a client call measured in the
 * same run (`callMs`). A loopback comparison could not resolve 1% of a call (its rounds spread by
 * several percent); the checks alone are what differs. Also measured: a call with a subscriber on
 * every channel, against the same call with none.
 * @param {number} callMs @param {() => Promise<void>} calls
 */
async function tracingFigures(callMs, calls) {
  /** @type {{ operationId: 'initiatePayment', host: 'router', path: string }} */
  const where = { operationId: 'initiatePayment', host: 'router', path: PAY };
  /** @type {Promise<import('../dist/client/observe.js').Settled>} */
  const answered = Promise.resolve({
    outcome: 'success',
    code: '0000',
    status: 'S',
    httpStatus: 200,
    nextStep: { action: 'none' },
  });
  const run = () => answered;
  const checked = nsPerOp(() => {
    attemptPublisher();
    return traceCall(where, run, null);
  });
  const unchecked = nsPerOp(run);
  const overheadNs = Math.max(0, checked.median - unchecked.median);
  const callNs = callMs * 1e6;
  const subscribers = {
    'tracing:gateway-contract:client:call:start': () => undefined,
    'tracing:gateway-contract:client:call:asyncEnd': () => undefined,
    'tracing:gateway-contract:client:call:error': () => undefined,
    'gateway-contract:client:request': () => undefined,
    'gateway-contract:client:response': () => undefined,
    'gateway-contract:client:error': () => undefined,
  };
  /** The same calls with a subscriber on every channel. */
  const subscribed = async () => {
    for (const [name, fn] of Object.entries(subscribers)) subscribe(name, fn);
    try {
      await calls();
    } finally {
      for (const [name, fn] of Object.entries(subscribers)) unsubscribe(name, fn);
    }
  };
  const withSubscribers = await pairedMsPerRun(subscribed, calls, { rounds: 9, warmup: 2 });
  const ratio = (callNs + overheadNs) / callNs;
  return {
    noSubscriber: {
      name: `tracing with no subscriber: a pay call with its checks vs without (checks ${checked.median.toFixed(1)} ns, none ${unchecked.median.toFixed(1)} ns)`,
      subject: { ...summarize([callNs + overheadNs]), spread: checked.spread + unchecked.spread },
      reference: { ...summarize([callNs]), spread: 0 },
      ratio: { value: ratio, spread: 0 },
      unit: 'ns/call',
      overheadNs,
      target: '<= 1.01x (1% of the call)',
      met: ratio <= 1.01,
    },
    withSubscribers,
  };
}
