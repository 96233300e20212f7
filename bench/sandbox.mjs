// The sandbox: throughput, latency and server CPU of real payments (a new order each request: full
// request validation, the order's transaction token and state, the payment, the answer), against
// Prism answering the same stream from an example, and against a bare node:http server returning
// a fixed body, in the same run. Two payments: the wallet (txnInfo signed with checksumHash, a
// CHECKSUM signature per answer) and UPI intent (a deep link). Every server gets the same request
// stream and runs in its own process (as Prism must); autocannon drives them on loopback, bounded
// in time and connections. Usage: node bench/run.mjs --only sandbox (or node bench/sandbox.mjs)

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startPrism } from '../dist/mock/launch.js';
import { asker } from './ask.mjs';
import { load, loadFigures } from './load.mjs';
import { freePort } from './ports.mjs';

const doc = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8'));
const exampleBody = JSON.stringify(doc.components.examples.PayWithWallet.value);
const answer = JSON.stringify(doc.components.examples.PaySucceeded.value);
const EXAMPLE_PATH = '/aoa-acquiring-biz/v2/payment?mid=MERCHANT0001&orderId=ORDER-1001';
const DURATION = 5;
const CONNECTIONS = 10;
/**
 * Orders made before each run of the sandbox, each paid by one request of the run (a run is this
 * many requests, not a time: a faster sandbox must not run out of orders). Each run starts from a
 * reset sandbox holding only these, as a sandbox in use would (the heap an idle sandbox carries
 * shapes its garbage collection); it keeps them all (retention).
 */
const ORDERS = 150_000;
const MODES = /** @type {const} */ ({
  wallet: '"paymentMode":"WALLET","walletInfo":{"walletType":"SVC","paymentFlow":"PAY"}',
  upiIntent: '"paymentMode":"UPI_INTENT"',
});

/** The pay request of one order, as a merchant sends it. @param {{ orderId: string, txnToken: string }} o @param {keyof typeof MODES} mode */
const payRequest = (o, mode) =>
  `{"head":{"requestTimeStamp":"1768971330000","channelId":"WEB","tokenType":"TXN_TOKEN","token":"${o.txnToken}","version":"v1"},"body":{"mid":"MERCHANT0001","orderId":"${o.orderId}","requestType":"PAYMENT",${MODES[mode]}}}`;

/**
 * Server mode (a child process): the sandbox or the bare server. Over IPC the parent asks for the
 * process's CPU time, and (sandbox) for a reset sandbox with a fresh set of orders.
 * @param {string} kind
 */
async function serve(kind) {
  /** @type {any} */
  let sandbox;
  process.on('message', (/** @type {any} */ message) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
    if (message === 'orders') {
      // Orders made with the sandbox's own order creation (the control call's code).
      sandbox.reset();
      const orders = [];
      for (let i = 0; i < ORDERS; i++) {
        const { orderId, txnToken } = sandbox.createOrder({
          orderId: `BENCH-${i}`,
          txnAmount: { value: '1.00', currency: 'INR' },
        });
        orders.push({ orderId, txnToken });
      }
      process.send?.({ orders });
    }
  });
  let url;
  if (kind === 'bare') {
    const bare = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
        res.end(answer);
      });
    });
    await new Promise((resolve) => bare.listen(0, '127.0.0.1', () => resolve(undefined)));
    url = `http://127.0.0.1:${/** @type {any} */ (bare.address()).port}`;
  } else {
    const { startSandbox } = await import('../dist/sandbox/index.js');
    sandbox = await startSandbox({ port: 0, retention: 2 * ORDERS });
    url = sandbox.url;
  }
  process.stdout.write(`${JSON.stringify({ url })}\n`);
}

/** Starts a server process and reads its first line: its URL. @param {string} kind */
function startChild(kind) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve', kind], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const ask = asker(child);
  const server = {
    /** The child's CPU time so far, microseconds (user + system). */
    cpu: async () => {
      const u = /** @type {any} */ (await ask('cpu', 'cpu'));
      return u.user + u.system;
    },
    /** A reset sandbox with ORDERS new orders: their ids and transaction tokens. */
    orders: () => /** @type {Promise<{ orderId: string, txnToken: string }[]>} */ (ask('orders', 'orders')),
    stop: () =>
      new Promise((r) => {
        if (child.exitCode !== null || child.signalCode !== null) r(undefined);
        else {
          child.once('exit', r);
          child.kill('SIGTERM');
        }
      }),
  };
  return new Promise((resolve, reject) => {
    let text = '';
    /** @type {import('node:stream').Readable} */ (child.stdout).setEncoding('utf8').on('data', (d) => {
      text += d;
      const end = text.indexOf('\n');
      if (end >= 0) resolve({ ...JSON.parse(text.slice(0, end)), ...server });
    });
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited (${code}) before it was ready`)));
  });
}

/**
 * A load on a server child, with the child's CPU time per request; with `amount`, throughput is the
 * requests over the run's own wall time (autocannon counts whole seconds).
 * @param {any} server @param {any} options
 */
async function measured(server, options) {
  const before = await server.cpu();
  const run = await load({ connections: CONNECTIONS, duration: DURATION, ...options });
  const used = (await server.cpu()) - before;
  const figures = loadFigures([run]);
  if (options.amount) figures.rps = { ...figures.rps, median: run.result.requests.total / run.seconds };
  return { result: run.result, figures, cpuPerRequest: used / Math.max(1, run.result.requests.total) };
}

export async function sandboxFigures() {
  /** @type {(() => Promise<unknown>)[]} */
  const stops = [];
  try {
    const sandbox = /** @type {any} */ (await startChild('sandbox'));
    stops.push(sandbox.stop);
    const bare = /** @type {any} */ (await startChild('bare'));
    stops.push(bare.stop);
    // Each request pays the next order of the set made for the run. Only the sandbox knows the
    // orders; for the others they are just requests.
    /** @param {{ orderId: string, txnToken: string }[]} orders @param {keyof typeof MODES} mode */
    const stream = (orders, mode) => {
      let next = 0;
      /** @type {import('autocannon').Request[]} */
      const requests = [
        {
          method: 'POST',
          setupRequest: () => {
            const o = orders[next++ % ORDERS];
            return {
              method: 'POST',
              path: `/aoa-acquiring-biz/v2/payment?mid=MERCHANT0001&orderId=${o.orderId}`,
              headers: { 'content-type': 'application/json' },
              body: payRequest(o, mode),
            };
          },
        },
      ];
      return { count: () => next, requests };
    };
    const sample = await sandbox.orders();
    // The load generator's own ceiling: the bare server with one fixed request (no per-request work in autocannon).
    const ceiling = await measured(bare, { url: `${bare.url}${EXAMPLE_PATH}`, body: exampleBody });
    const b = await measured(bare, { url: bare.url, requests: stream(sample, 'wallet').requests });
    await bare.stop();

    /** The funded wallet's balance, in paise. */
    const balance = async () => {
      const { wallets } = /** @type {{ wallets: { name: string, balance: string }[] }} */ (
        await (await fetch(`${sandbox.url}/sandbox/wallets`)).json()
      );
      const funded = wallets.find((w) => w.name === 'funded');
      return Math.round(Number(funded?.balance) * 100);
    };
    /** One run of the sandbox, from a reset sandbox with fresh orders: each request pays one. @param {keyof typeof MODES} mode */
    const runSandbox = async (mode) => {
      const orders = await sandbox.orders();
      const s = stream(orders, mode);
      const before = await balance();
      const run = await measured(sandbox, { url: sandbox.url, requests: s.requests, amount: ORDERS });
      if (run.result.non2xx > 0)
        throw new Error(`The sandbox answered ${run.result.non2xx} requests with a non-2xx status`);
      const total = run.result.requests.total;
      if (total !== ORDERS) throw new Error(`The run made ${total} requests, not ${ORDERS}`);
      // Every request paid its order: the wallet paid 1.00 for each; a UPI intent leaves each order pending.
      if (mode === 'wallet' && before - (await balance()) !== 100 * total)
        throw new Error('The benchmark did not pay every order');
      const last = /** @type {{ status: string }} */ (
        await (await fetch(`${sandbox.url}/sandbox/orders/${orders[ORDERS - 1]?.orderId}`)).json()
      );
      if (last.status !== (mode === 'wallet' ? 'PAID' : 'PENDING'))
        throw new Error('The benchmark did not pay its orders');
      return { ...run, count: total };
    };
    const wallet = await runSandbox('wallet');
    const intent = await runSandbox('upiIntent');
    await sandbox.stop();

    const prism = await startPrism({ port: await freePort() });
    stops.push(prism.stop);
    const p = loadFigures([
      await load({
        url: prism.url,
        requests: stream(sample, 'wallet').requests,
        connections: CONNECTIONS,
        duration: DURATION,
      }),
    ]);
    if (p.non2xx > 0) throw new Error(`Prism answered ${p.non2xx} requests with a non-2xx status`);
    await prism.stop();

    const ratioOf = (/** @type {any} */ x, /** @type {any} */ y) => ({
      value: x.median / y.median,
      spread: x.spread + y.spread,
    });
    const latency = (/** @type {any} */ x, /** @type {any} */ y) => ({
      value: x.median / y.median,
      spread: x.spread + y.spread,
    });
    const cpuFigure = (/** @type {number} */ us) => ({ median: us, min: us, max: us, spread: 0, rounds: 1 });
    const figures = [];
    for (const [label, run] of /** @type {const} */ ([
      ['wallet (txnInfo, checksumHash)', wallet],
      ['UPI intent (deep link)', intent],
    ])) {
      const count = run.count;
      const rps = run.figures.rps;
      figures.push(
        {
          group: 'sandbox',
          name: `pay, ${label}: throughput vs Prism (${CONNECTIONS} connections, ${count} payments)`,
          subject: rps,
          reference: p.rps,
          ratio: ratioOf(rps, p.rps),
          unit: 'req/s',
          target: '>= 5x Prism',
          met: rps.median / p.rps.median >= 5,
        },
        {
          group: 'sandbox',
          name: `pay, ${label}: throughput vs bare node:http (same stream)`,
          subject: rps,
          reference: b.figures.rps,
          ratio: ratioOf(rps, b.figures.rps),
          unit: 'req/s',
          target: '>= 0.5x bare node:http',
          met: rps.median / b.figures.rps.median >= 0.5,
        },
        {
          group: 'sandbox',
          name: `pay, ${label}: server CPU per request vs bare node:http`,
          subject: cpuFigure(run.cpuPerRequest),
          reference: cpuFigure(b.cpuPerRequest),
          ratio: { value: run.cpuPerRequest / b.cpuPerRequest, spread: 0 },
          unit: 'us',
          ...(label.startsWith('wallet')
            ? { target: '<= 3x bare node:http', met: run.cpuPerRequest / b.cpuPerRequest <= 3 }
            : { target: 'measured only' }),
        },
        {
          group: 'sandbox',
          name: `pay, ${label}: latency p99 vs bare node:http`,
          subject: run.figures.p99,
          reference: b.figures.p99,
          ratio: latency(run.figures.p99, b.figures.p99),
          unit: 'ms',
          target: 'measured only',
        },
      );
    }
    figures.push(
      {
        group: 'sandbox',
        name: "bare node:http, same stream vs one fixed request (the load generator's ceiling)",
        subject: b.figures.rps,
        reference: ceiling.figures.rps,
        ratio: ratioOf(b.figures.rps, ceiling.figures.rps),
        unit: 'req/s',
        target: 'measured only',
      },
      {
        group: 'sandbox',
        name: 'Prism latency p99 vs bare node:http (same stream)',
        subject: p.p99,
        reference: b.figures.p99,
        ratio: latency(p.p99, b.figures.p99),
        unit: 'ms',
        target: 'measured only',
      },
    );
    return figures;
  } finally {
    await Promise.allSettled(stops.map((stop) => stop()));
  }
}

const self = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (self && process.argv[2] === '--serve') await serve(process.argv[3]);
else if (self) {
  for (const f of await sandboxFigures())
    console.log(
      `${f.name}: ${f.subject.median.toFixed(1)} ${f.unit} vs ${f.reference.median.toFixed(1)} (${f.ratio.value.toFixed(2)}x)${f.target ? `, target ${f.target}${f.met === undefined ? '' : f.met ? ' (met)' : ' (MISSED)'}` : ''}`,
    );
}
