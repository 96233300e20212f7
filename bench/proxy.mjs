// The validating proxy's cost: a wallet payment through the proxy (request and answer checked,
// signatures and txnInfo.checksumHash verified with the merchant key) against the same payment
// sent to the sandbox directly, in alternating rounds of the same run. Target: at most 1 ms added
// at the median of a call. Client, proxy and sandbox share one process (and its event loop): every
// microsecond of the proxy's work is counted, none hidden on another core.
import { Agent, request } from 'node:http';
import { startProxy } from '../dist/proxy/server.js';
import { startSandbox } from '../dist/sandbox/index.js';
import { pairedMsPerRun } from './stats.mjs';

const KEY = 'SandboxTestKey01';
const CALLS = 200;

/** One POST on a keep-alive connection, the answer read whole. */
/** @param {Agent} agent @param {string} base @param {string} path @param {string} text @returns {Promise<string>} */
function post(agent, base, path, text) {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const req = request(
      {
        agent,
        hostname: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

export async function proxyFigures() {
  const sandbox = await startSandbox({ port: 0, merchantKey: KEY });
  const proxy = await startProxy({
    gatewayUpstream: sandbox.url,
    routerUpstream: sandbox.url,
    port: 0,
    merchantKey: KEY,
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  /** CALLS wallet payments, each of a new order, sent to `base`. */
  const payments = (/** @type {string} */ base) => async () => {
    for (let i = 0; i < CALLS; i++) {
      const order = sandbox.createOrder({ txnAmount: { value: '1.00' } });
      const text = JSON.stringify({
        head: {
          requestTimeStamp: String(Date.now()),
          channelId: 'WEB',
          tokenType: 'TXN_TOKEN',
          token: order.txnToken,
          version: 'v1',
        },
        body: {
          mid: order.mid,
          orderId: order.orderId,
          requestType: 'PAYMENT',
          paymentMode: 'WALLET',
          walletInfo: { paymentFlow: 'PAY' },
        },
      });
      const answer = await post(
        agent,
        base,
        `/aoa-acquiring-biz/v2/payment?mid=${order.mid}&orderId=${order.orderId}`,
        text,
      );
      if (!answer.includes('"0000"')) throw new Error('a payment of the benchmark failed');
    }
  };
  try {
    const m = await pairedMsPerRun(payments(proxy.url), payments(sandbox.url), { rounds: 11, warmup: 3 });
    const invalid = proxy.report().counts.invalid;
    if (invalid) throw new Error(`the proxy judged ${invalid} benchmark exchange(s) invalid`);
    const per = (/** @type {any} */ s) => ({ ...s, median: s.median / CALLS, min: s.min / CALLS, max: s.max / CALLS });
    const added = m.difference.median / CALLS;
    return [
      {
        group: 'proxy',
        name: `wallet payment through the proxy (checked, signatures verified) vs to the sandbox directly; added ${added.toFixed(3)} ms/call`,
        subject: per(m.subject),
        reference: per(m.reference),
        ratio: m.ratio,
        added: { median: added, spread: m.difference.spread },
        unit: 'ms/call',
        target: 'at most +1 ms/call at the median',
        met: added <= 1,
      },
    ];
  } finally {
    agent.destroy();
    await proxy.stop();
    await sandbox.stop();
  }
}
