// startSandbox(options): the stateful sandbox of the service on 127.0.0.1, built on the contract's
// operation index, validators and result-code catalog. Returns its URL, stop(), the clock and the
// programmatic forms of the control calls tests need.
import type { AddressInfo } from 'node:net';
import { generateSignatureSync } from '../signing/checksumNode.js';
import { sendTokenNotification } from '../webhook/send.js';
import { cardKeyPair } from './cardKeys.js';
import { createCardTokens } from './cardTokens.js';
import { createClock } from './clock.js';
import { resolveConfig, type SandboxOptions } from './config.js';
import {
  type CompletedPayment,
  type CreatedOrder,
  type CreateOrderSpec,
  createControlActions,
} from './control/actions.js';
import { createControlHandler } from './control/handle.js';
import type { ControlAnswer } from './control/replies.js';
import { createControlRoutes } from './control/routes.js';
import { type ArmedFault, createFaults, type FaultSpec } from './faults.js';
import { loadInstruments } from './instruments.js';
import { createOperationHandler } from './operations/handle.js';
import type { AnswerProblem } from './operations/respond.js';
import { createOrders } from './orders.js';
import { createPayments } from './payments/index.js';
import type { WebhookDelivery } from './records.js';
import { createScheduler } from './scheduler.js';
import { createSandboxServer, LISTEN_BACKLOG } from './server.js';
import { createStore } from './store.js';
import { createTimers } from './timers.js';
import { createWebhooks } from './webhooks/index.js';

export interface Sandbox {
  /** `http://127.0.0.1:<port>`: both the gateway (`{base_url}`) and the router (`{router_url}`). */
  url: string;
  port: number;
  mids: string[];
  clientId: string;
  /** The RSA public key (PEM) to encrypt card data for tokenize with `encryptCardData`. */
  publicKeyPem: string;
  /** Answers that broke the contract, with `checkAnswers` (empty when all is well). */
  answerProblems: AnswerProblem[];
  clock: {
    now(): number;
    /** Moves the clock forward (at most 3660 days a call, never past the year 9999: a RangeError otherwise); token changes that became due run, and it resolves once their webhooks are delivered (or after webhookTimeoutMs). */
    advance(ms: number): Promise<void>;
  };
  /** The control call POST /sandbox/orders. Throws (with `status`) what the call answers with an error. */
  createOrder(spec: CreateOrderSpec): CreatedOrder;
  /** The control call POST /sandbox/orders/{orderId}/complete. */
  completePayment(orderId: string, outcome: 'success' | 'failure', mid?: string): CompletedPayment;
  /** Every token status notification so far, oldest first. */
  deliveries(): WebhookDelivery[];
  /** Resolves when every delivery attempt started before the call has ended (not those started while it waits, nor retries scheduled for later). */
  idle(): Promise<void>;
  /** The control calls under /sandbox/faults: faults of the next requests of an operation, or of the next notifications. */
  faults: {
    /** Arms a fault (POST /sandbox/faults). Throws (with `status`) what the call answers with an error. */
    arm(spec: FaultSpec): ArmedFault;
    /** The armed faults, oldest first (GET /sandbox/faults). */
    list(): ArmedFault[];
    /** Disarms every fault; answers how many there were (DELETE /sandbox/faults). */
    clear(): number;
  };
  /** The control call POST /sandbox/reset. */
  reset(): void;
  /** Stops the server (idempotent). */
  stop(): Promise<void>;
}

/** The body of a control answer, or the error it answers, thrown with its `status` and `code`. */
function unwrap<T>(answer: ControlAnswer<T>): T {
  if (!answer.ok)
    throw Object.assign(new Error(answer.body.error.message), { status: answer.status, code: answer.body.error.code });
  return answer.body;
}

/** Starts the sandbox and resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const config = resolveConfig(options);
  const [instruments, cardKey] = await Promise.all([
    loadInstruments(options.instruments),
    cardKeyPair(options.cardPrivateKeyPem),
  ]);
  const clock = createClock(options.now);
  const scheduler = createScheduler(clock);
  const faults = createFaults(clock.now);
  const timers = createTimers();
  const store = createStore(instruments, config.retention);
  let baseUrl = '';
  const orders = createOrders({ store, clock, instruments });
  const payments = createPayments({ store, instruments, clock, config, baseUrl: () => baseUrl });
  const webhooks = createWebhooks({
    store,
    clock,
    config,
    scheduler,
    faults,
    timers,
    send: options.sendNotification ?? sendTokenNotification,
  });
  const cardTokens = createCardTokens({ store, clock, scheduler, webhooks, config });
  const answerProblems: AnswerProblem[] = [];
  const ctx = {
    config,
    store,
    clock,
    instruments,
    orders,
    payments,
    cardTokens,
    cardKey,
    scheduler,
    webhooks,
    faults,
    timers,
    answerProblems,
    /** The service's signature over an answer's body. */
    sign: (text: string) => generateSignatureSync(text, config.merchantKey),
    baseUrl: () => baseUrl,
  };
  const actions = createControlActions(ctx);
  const server = createSandboxServer({
    operations: createOperationHandler(ctx),
    control: createControlHandler(createControlRoutes(ctx, actions), config.host),
    requestTimeoutMs: config.requestTimeoutMs,
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve(undefined);
    });
  });
  // Listening on a host and port, the address is an AddressInfo (a string only for pipes).
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  let stopped = false;
  return {
    url: baseUrl,
    port,
    mids: [...config.mids],
    clientId: config.clientId,
    publicKeyPem: cardKey.publicKeyPem,
    answerProblems,
    clock: {
      now: () => clock.now(),
      advance: (ms) => actions.advanceClock(ms),
    },
    createOrder: (spec) => unwrap(actions.createOrder(spec)),
    completePayment(orderId, outcome, mid) {
      const order = actions.orderFrom(orderId, mid ? { mid } : {});
      if (!order) throw Object.assign(new Error('This order is not known to the sandbox.'), { status: 404 });
      return unwrap(actions.completeOrder(order, outcome));
    },
    deliveries: () => webhooks.list(),
    idle: () => webhooks.idle(),
    faults: {
      arm: (spec) => unwrap(actions.armFault(spec)),
      list: () => faults.list(),
      clear: () => faults.clear(),
    },
    reset: () => actions.reset(),
    async stop() {
      if (stopped) return;
      stopped = true;
      scheduler.stop();
      webhooks.stop();
      timers.clear();
      await new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      });
    },
  };
}
