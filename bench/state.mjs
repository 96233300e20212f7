// The sandbox holds state for a whole CI run: one call must cost the same with 100 000 records of
// what it touches as with none. Each figure is the median latency of a call, through the typed
// client on loopback, against a sandbox holding 100 000 card tokens still INIT, orders with their
// transaction tokens, wallet blocks or subscriptions, and against the same sandbox reset (warm,
// empty), in the same run. The state is built through the operations themselves (tokenize,
// pre-auth, create subscription) or the sandbox's order creation; its clock is frozen, so nothing
// expires or activates meanwhile. INIT tokens are measured at the default retention (10 000), where
// every new token passes the kept ones (at most twice the retention stay pending, D-67); orders,
// blocks and subscriptions at a retention of 200 000, so that all 100 000 stay (docs/decisions.md, D-65).
// Usage: node bench/run.mjs --only state (or node bench/state.mjs)

import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createChecksumSigner, createGatewayClient, encryptCardData } from '../dist/index.js';
import { asker } from './ask.mjs';
import { summarize } from './stats.mjs';

const doc = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8'));
const example = (/** @type {string} */ name) => structuredClone(doc.components.examples[name].value);
const NOW = 1_768_971_330_000;
const STATE = 100_000;
const CALLS = 600;
const WARMUP = 300;
/** Calls of each kind made before anything is measured, so that both sides run warm code. */
const WARM = 3_000;
const BUILDERS = 8;
const KEY = 'SandboxTestKey01';
const MID = 'MERCHANT0001';

/** Server mode (a child): a sandbox with a frozen clock; over IPC the parent asks for orders, a reset, the end. */
async function serve(/** @type {number} */ retention) {
  const { startSandbox } = await import('../dist/sandbox/index.js');
  const sandbox = await startSandbox({ port: 0, now: () => NOW, retention });
  process.on('message', async (/** @type {any} */ m) => {
    if (m.orders) {
      const orders = [];
      for (let i = 0; i < m.orders; i++) {
        const { orderId, txnToken } = sandbox.createOrder({
          orderId: `${m.prefix}-${i}`,
          txnAmount: { value: '1.00', currency: 'INR' },
        });
        orders.push({ orderId, txnToken });
      }
      process.send?.({ orders });
    }
    if (m.reset) {
      sandbox.reset();
      process.send?.({ reset: true });
    }
    if (m.stop) {
      await sandbox.stop();
      process.exit(0);
    }
  });
  process.send?.({ url: sandbox.url, publicKeyPem: sandbox.publicKeyPem });
}

/** A sandbox in a child process, and the typed client for it. @param {number} retention */
async function sandboxChild(retention) {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', String(retention)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = asker(child);
  const ready = /** @type {{ url: string, publicKeyPem: string }} */ (
    await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it was ready`)));
    })
  );
  const client = createGatewayClient({
    gatewayUrl: ready.url,
    routerUrl: ready.url,
    signer: createChecksumSigner(KEY),
    clientId: 'C11',
    version: 'v2',
    channelId: 'WEB',
    now: () => NOW,
  });
  return {
    ...ready,
    client,
    /** @param {number} count @param {string} prefix @returns {Promise<{ orderId: string, txnToken: string }[]>} */
    orders: (count, prefix) => /** @type {Promise<any>} */ (ask({ orders: count, prefix }, 'orders')),
    reset: () => ask({ reset: true }, 'reset'),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.send({ stop: true });
      }),
  };
}

/** Runs `call(i)` for i in [from, to), `BUILDERS` at a time. @param {number} from @param {number} to @param {(i: number) => Promise<unknown>} call */
async function build(from, to, call) {
  let next = from;
  await Promise.all(
    Array.from({ length: BUILDERS }, async () => {
      while (next < to) await call(next++);
    }),
  );
}

/** Median latency (ms) of CALLS sequential calls, after WARMUP. @param {(i: number) => Promise<unknown>} call @param {number} from */
async function latency(call, from) {
  for (let i = 0; i < WARMUP; i++) await call(from + i);
  /** @type {number[]} */
  const times = [];
  for (let i = WARMUP; i < WARMUP + CALLS; i++) {
    const t = performance.now();
    await call(from + i);
    times.push(performance.now() - t);
  }
  return summarize(times);
}

/** @param {any} result @param {string} code */
function expectCode(result, code) {
  if (result.code !== code) throw new Error(`expected result code ${code}, got ${result.code} (${result.message})`);
}

export async function stateFigures() {
  const figures = [];
  /** @param {string} name @param {any} full @param {any} empty */
  const figure = (name, full, empty) => ({
    group: 'state',
    name,
    subject: full,
    reference: empty,
    ratio: { value: full.median / empty.median, spread: full.spread + empty.spread },
    unit: 'ms',
    target: '<= 1.2x empty',
    met: full.median / empty.median <= 1.2,
  });

  // Card tokens still INIT, at the default retention.
  const tokens = await sandboxChild(10_000);
  try {
    const card = await encryptCardData(
      { cardNumber: '5555555555554444', expiryMonth: '12', expiryYear: '2030', securityCode: '123' },
      tokens.publicKeyPem,
      {
        now: new Date(NOW),
      },
    );
    const body = { ...example('TokenizeCardRequest').body, encryptedCardData: card, userInfo: { custId: 'CUST_001' } };
    const tokenize = async () => expectCode(await tokens.client.tokenizeCard({ mid: MID, body }), '100');
    await build(0, WARM, tokenize);
    await tokens.reset();
    const empty = await latency(tokenize, 0);
    await tokens.reset();
    await build(0, STATE, tokenize);
    const full = await latency(tokenize, 0);
    figures.push(figure(`tokenize, ${STATE} INIT tokens pending vs none (median latency)`, full, empty));
  } finally {
    await tokens.stop();
  }

  // Orders, wallet blocks and subscriptions, with a retention that keeps them all.
  const records = await sandboxChild(200_000);
  try {
    const { client } = records;
    /** @param {{ orderId: string, txnToken: string }[]} orders */
    const pay = (orders) => async (/** @type {number} */ i) => {
      const o = orders[i];
      if (!o) throw new Error('not enough orders');
      expectCode(
        await client.initiatePayment({
          txnToken: o.txnToken,
          body: { mid: MID, orderId: o.orderId, requestType: 'PAYMENT', paymentMode: 'UPI_INTENT' },
        }),
        '0000',
      );
    };
    const preAuthBody = example('PreAuthWalletRequest').body;
    const preAuth = (/** @type {string} */ prefix) => async (/** @type {number} */ i) =>
      expectCode(
        await client.preAuthorize({
          body: { ...preAuthBody, orderId: `${prefix}-${i}`, txnAmount: '1.00', svcSsoToken: 'sso-funded-wallet' },
        }),
        '01',
      );
    const subscriptionBody = example('CreateFixedUpiSubscription').body;
    const subscribe = (/** @type {string} */ prefix) => async (/** @type {number} */ i) =>
      expectCode(
        await client.createSubscription({
          body: {
            ...subscriptionBody,
            orderId: `${prefix}-${i}`,
            userInfo: { ...subscriptionBody.userInfo, custId: `${prefix}${i}` },
          },
        }),
        '0',
      );
    const listBody = example('ListSubscriptionsRequest').body;
    const list = async () => expectCode(await client.listSubscriptions({ token: 'SSO', body: listBody }), '3006');
    /** The listed customer's own subscription. */
    const own = async () =>
      expectCode(
        await client.createSubscription({
          body: {
            ...subscriptionBody,
            orderId: 'OWN-1',
            userInfo: { ...subscriptionBody.userInfo, custId: listBody.custId },
          },
        }),
        '0',
      );

    await build(0, WARM, pay(await records.orders(WARM, 'OW')));
    await build(0, WARM, preAuth('PW'));
    await build(0, WARM, subscribe('SW'));
    await own();
    for (let i = 0; i < WARM; i++) await list();
    await records.reset();
    await own();
    const empty = {
      pay: await latency(pay(await records.orders(WARMUP + CALLS, 'OE')), 0),
      preAuth: await latency(preAuth('PE'), 0),
      subscribe: await latency(subscribe('SE'), 0),
      list: await latency(list, 0),
    };
    await records.reset();
    await own();
    await records.orders(STATE, 'OS');
    await build(0, STATE, preAuth('PS'));
    await build(0, STATE, subscribe('SS'));
    const full = {
      pay: await latency(pay(await records.orders(WARMUP + CALLS, 'OF')), 0),
      preAuth: await latency(preAuth('PF'), 0),
      subscribe: await latency(subscribe('SF'), 0),
      list: await latency(list, 0),
    };
    figures.push(
      figure(`pay (UPI intent), ${STATE} orders vs none (median latency)`, full.pay, empty.pay),
      figure(
        `pre-auth (a wallet block), ${STATE} blocks on the wallet vs none (median latency)`,
        full.preAuth,
        empty.preAuth,
      ),
      figure(`create subscription, ${STATE} subscriptions vs none (median latency)`, full.subscribe, empty.subscribe),
      figure(`list a customer's subscriptions, ${STATE} of others vs none (median latency)`, full.list, empty.list),
    );
  } finally {
    await records.stop();
  }
  return figures;
}

const self = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (self && process.argv[2] === '--serve') await serve(Number(process.argv[3]));
else if (self) {
  const started = Date.now();
  for (const f of await stateFigures())
    console.log(
      `${f.name}: ${f.subject.median.toFixed(3)} ms vs ${f.reference.median.toFixed(3)} (${f.ratio.value.toFixed(2)}x), target ${f.target}${f.met ? ' (met)' : ' (MISSED)'}`,
    );
  console.log(`${Math.round((Date.now() - started) / 1000)} s`);
}
