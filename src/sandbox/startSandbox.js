// startSandbox(options): the stateful sandbox of the service on 127.0.0.1, built on the contract's
// operation index, validators and result-code catalog. Returns its URL, stop(), the clock and the
// programmatic forms of the control calls tests need.
import { generateSignature } from '../signing/checksum.js';
import { validate } from '../validation/validate.js';
import { sendTokenNotification } from '../webhook/send.js';
import { resolveConfig } from './config.js';
import { createClock } from './clock.js';
import { createScheduler } from './scheduler.js';
import { loadInstruments } from './instruments.js';
import { createStore } from './store.js';
import { createOrders } from './orders.js';
import { createPayments } from './payments.js';
import { createWebhooks } from './webhooks.js';
import { createCardTokens } from './cardTokens.js';
import { cardKeyPair } from './cardKeys.js';
import { createControl } from './control.js';
import { createSandboxServer } from './server.js';

/** @param {import('./index.js').SandboxOptions} [options] */
export async function startSandbox(options = {}) {
  const config = resolveConfig(options);
  // validate() loads its every-problem validators and the bundled contract (synchronously) the
  // first time a payload is invalid: that happens here, before the first request, not during one.
  validate('initiatePayment', 'request', null);
  const [instruments, cardKey] = await Promise.all([loadInstruments(options.instruments), cardKeyPair(options.cardPrivateKeyPem)]);
  const clock = createClock(options.now);
  const scheduler = createScheduler(clock);
  const store = createStore(instruments);
  let baseUrl = '';
  const orders = createOrders({ store, clock, instruments });
  const payments = createPayments({ store, instruments, clock, config, baseUrl: () => baseUrl });
  const webhooks = createWebhooks({ store, clock, config, send: options.sendNotification ?? sendTokenNotification });
  const cardTokens = createCardTokens({ store, clock, scheduler, webhooks, config });
  /** @type {{ operationId: string, code: string, issues: unknown[] }[]} */
  const answerProblems = [];
  const ctx = {
    config, store, clock, instruments, orders, payments, cardTokens, cardKey, scheduler, webhooks, answerProblems,
    /** The service's signature over an answer's body. @param {string} text */
    sign: (text) => generateSignature(text, config.merchantKey),
    baseUrl: () => baseUrl,
  };
  const control = createControl(ctx);
  const server = createSandboxServer(ctx, control);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => { server.off('error', reject); resolve(undefined); });
  });
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  baseUrl = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  /** @param {{ status: number, body: any }} answer */
  const unwrap = (answer) => {
    if (answer.status >= 400) throw Object.assign(new Error(answer.body?.error?.message ?? `control call failed (${answer.status})`), { status: answer.status, code: answer.body?.error?.code });
    return answer.body;
  };

  let stopped = false;
  return {
    url: baseUrl,
    port,
    mids: [...config.mids],
    clientId: config.clientId,
    publicKeyPem: cardKey.publicKeyPem,
    /** Answers that broke the contract (recorded when checkAnswers is on; empty when all is well). */
    answerProblems,
    clock: {
      now: () => clock.now(),
      /** Moves the clock forward; due token changes run and their webhooks are delivered. @param {number} ms */
      async advance(ms) {
        clock.advance(ms);
        await scheduler.runDue();
        await webhooks.idle();
      },
    },
    /** @param {any} spec */
    createOrder: (spec) => unwrap(control.createOrder(spec)),
    /** @param {string} orderId @param {'success' | 'failure'} outcome @param {string} [mid] */
    completePayment(orderId, outcome, mid) {
      const order = control.orderFrom(orderId, mid ? { mid } : {});
      if (!order) throw Object.assign(new Error('This order is not known to the sandbox.'), { status: 404 });
      return unwrap(control.completeOrder(order, outcome));
    },
    deliveries: () => webhooks.list(),
    /** Resolves when every webhook delivery started so far has ended. */
    idle: () => webhooks.idle(),
    reset() {
      store.reset();
      scheduler.clear();
      clock.reset();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      scheduler.stop();
      await new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      });
    },
  };
}
