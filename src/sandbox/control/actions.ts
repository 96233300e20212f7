// What the control API changes in the sandbox's state: creating an order (what the description
// leaves to another interface), a new transaction token, closing an order, completing its payment
// (the bank page's submit and cancel too), moving a card token, the clock, and the reset. Shared with
// the programmatic forms of the control calls that startSandbox() returns, so both answer alike.
import { pointerSegment } from '../../json/pointer.js';
import type { Schemas } from '../../types.js';
import { amountInPaise } from '../../validation/amount.js';
import type { CardTokens } from '../cardTokens.js';
import { checkRequest } from '../checkRequest.js';
import type { Clock } from '../clock.js';
import type { SandboxConfig } from '../config.js';
import type { ArmedFault, Faults } from '../faults.js';
import { newOrderId } from '../ids.js';
import type { Orders } from '../orders.js';
import type { PaymentResult, Payments } from '../payments/index.js';
import type { CardToken, Order, Transaction } from '../records.js';
import type { Scheduler } from '../scheduler.js';
import type { Store } from '../store.js';
import { isUntrustedObject } from '../untrusted.js';
import { orderView, type SandboxOrder, tokenView } from '../views.js';
import type { Webhooks } from '../webhooks/index.js';
import { badRequest, type ControlAnswer, refuse, reply } from './replies.js';

export interface CreateOrderSpec {
  txnAmount: { value: string; currency?: 'INR' };
  mid?: string;
  orderId?: string;
  custId?: string;
  /** Links the customer's wallet (a test instrument) for WALLET and PAYMENT_DIGITAL_CREDIT payments. */
  svcSsoToken?: string;
  goodsInfo?: Schemas['GoodsInfo'][];
  shippingInfo?: Schemas['ShippingInfo'][];
  extendInfo?: Record<string, string>;
}

/** An order just created, with its transaction token. */
export interface CreatedOrder {
  mid: string;
  orderId: string;
  txnToken: string;
  txnTokenExpiresAt: string;
  order: SandboxOrder;
}

/** An order whose payment has just completed, with the txnInfo of the payment. */
export interface CompletedPayment {
  order: SandboxOrder;
  txnInfo: Schemas['TransactionInfo'];
}

export interface ControlContext {
  readonly config: SandboxConfig;
  readonly store: Store;
  readonly clock: Clock;
  readonly orders: Orders;
  readonly payments: Payments;
  readonly cardTokens: CardTokens;
  readonly scheduler: Scheduler;
  readonly webhooks: Webhooks;
  readonly faults: Faults;
}

export interface ControlActions {
  /** Creates an order from the control call's body (also used by startSandbox().createOrder). */
  createOrder(input: unknown): ControlAnswer<CreatedOrder>;
  /** The order a control call names: its orderId and `?mid=` (default the first merchant). */
  orderFrom(orderId: string, query: Readonly<Record<string, string>>): Order | undefined;
  /** A new transaction token for an order (earlier ones stay valid until they expire). */
  issueToken(
    order: Order,
  ): ControlAnswer<{ mid: string; orderId: string; txnToken: string; txnTokenExpiresAt: string }>;
  /** Closes an open order; its payment in process fails. */
  closeOrder(order: Order): ControlAnswer<SandboxOrder>;
  /** Completes the pending transaction of an order. */
  completeOrder(order: Order, outcome: unknown): ControlAnswer<CompletedPayment>;
  /** The bank page: submit completes as the instrument decides (a pending one waits), cancel fails the payment. */
  submitBankForm(txn: Transaction, action: 'submit' | 'cancel'): ControlAnswer;
  /** Moves a card token; answers after the delivery of its notification ends. */
  moveToken(token: CardToken, status: Schemas['TokenStatus']): Promise<ControlAnswer>;
  /** Moves the clock forward; due token changes run, and it resolves once their webhooks are delivered, or after webhookTimeoutMs. */
  advanceClock(ms: number): Promise<void>;
  /** Arms a fault from the control call's body (also used by startSandbox().faults.arm). */
  armFault(input: unknown): ControlAnswer<ArmedFault>;
  /** Forgets every order, token, pre-auth, subscription, delivery and fault; wallets back to the seed; clock back to its base. */
  reset(): void;
}

const ORDER_ID = /^[A-Za-z0-9@._-]{1,50}$/;
const ORDER_FIELDS = [
  'mid',
  'orderId',
  'txnAmount',
  'custId',
  'svcSsoToken',
  'goodsInfo',
  'shippingInfo',
  'extendInfo',
];

/** The merchant a control call names with `?mid=` (default the first merchant), when the sandbox serves it. */
export function merchantOf(config: SandboxConfig, query: Readonly<Record<string, string>>): string | undefined {
  const mid = query.mid ?? config.defaultMid;
  return config.mids.includes(mid) ? mid : undefined;
}

export function createControlActions(ctx: ControlContext): ControlActions {
  const { config, store, clock, orders, payments, cardTokens, scheduler, webhooks, faults } = ctx;

  function completeOrder(order: Order, outcome: unknown): ControlAnswer<CompletedPayment> {
    if (outcome !== 'success' && outcome !== 'failure')
      return badRequest('outcome must be "success" or "failure".', '/outcome');
    const txn = store.currentTransaction(order);
    if (order.status !== 'PENDING' || !txn || txn.status !== 'PENDING')
      return refuse(409, 'not-pending', `The order has no payment in process (its status is ${order.status}).`);
    payments.complete(txn, outcome satisfies PaymentResult);
    return reply(200, { order: orderView(store, order), txnInfo: payments.txnInfoOf(txn) });
  }

  return {
    createOrder(input) {
      if (!isUntrustedObject(input) || Array.isArray(input)) return badRequest('The body must be a JSON object.');
      const unknownField = Object.keys(input).find((k) => !ORDER_FIELDS.includes(k));
      if (unknownField !== undefined)
        return badRequest(
          `Unknown field: the fields are ${ORDER_FIELDS.join(', ')}.`,
          `/${pointerSegment(unknownField)}`,
        );
      const mid = input.mid ?? config.defaultMid;
      if (typeof mid !== 'string' || !config.mids.includes(mid))
        return badRequest(`mid must be a merchant the sandbox serves: ${config.mids.join(', ')}.`, '/mid');
      const orderId = input.orderId ?? newOrderId(clock.now());
      if (typeof orderId !== 'string' || !ORDER_ID.test(orderId))
        return badRequest('orderId must be 1 to 50 letters, digits or @ . _ -.', '/orderId');
      // The order's amount, goods, shipping and extendInfo have the shapes of modify order's body
      // (the currency may be left out: INR is the only one).
      const givenAmount = input.txnAmount;
      const txnAmount =
        isUntrustedObject(givenAmount) && givenAmount.currency === undefined
          ? { ...givenAmount, currency: 'INR' }
          : givenAmount;
      const shape = checkRequest(
        'modifyOrder',
        {
          head: { tokenType: 'TXN_TOKEN', token: 'x' },
          body: {
            txnAmount,
            goodsInfo: input.goodsInfo,
            shippingInfo: input.shippingInfo,
            extendInfo: input.extendInfo,
          },
        },
        // The shapes only: this is no modify order request, so it has no query.
        { parameters: false },
      );
      if (givenAmount === undefined)
        return badRequest('txnAmount is mandatory: {"value": "100.00", "currency": "INR"}.', '/txnAmount');
      if (!shape.valid) {
        const issue = shape.errors[0];
        return badRequest(issue?.message ?? 'The order is not valid.', issue?.pointer.replace(/^\/body/, ''));
      }
      const { body } = shape.request;
      const amount = amountInPaise(body.txnAmount?.value);
      // Never null: txnAmount was given, and the contract's Amount pattern is the one amountInPaise reads.
      if (amount === null)
        return badRequest('txnAmount is mandatory: {"value": "100.00", "currency": "INR"}.', '/txnAmount');
      if (amount === 0) return badRequest('txnAmount.value must be more than zero.', '/txnAmount/value');
      const custId = input.custId;
      if (custId !== undefined && (typeof custId !== 'string' || custId === '' || custId.length > 64))
        return badRequest('custId must be a string of 1 to 64 characters.', '/custId');
      const svcSsoToken = input.svcSsoToken;
      if (svcSsoToken !== undefined && (typeof svcSsoToken !== 'string' || !store.wallets.has(svcSsoToken)))
        return badRequest(
          'svcSsoToken names no wallet of the test instruments (GET /sandbox/instruments).',
          '/svcSsoToken',
        );
      if (store.order(mid, orderId))
        return refuse(409, 'order-exists', 'An order with this orderId already exists for this merchant.');
      const { order, txnToken, expiresAt } = orders.create({
        mid,
        orderId,
        amount,
        ...(custId ? { custId } : {}),
        ...(svcSsoToken ? { svcSsoToken } : {}),
        ...(body.goodsInfo ? { goodsInfo: body.goodsInfo } : {}),
        ...(body.shippingInfo ? { shippingInfo: body.shippingInfo } : {}),
        ...(body.extendInfo ? { extendInfo: body.extendInfo } : {}),
      });
      return reply(201, {
        mid,
        orderId,
        txnToken,
        txnTokenExpiresAt: new Date(expiresAt).toISOString(),
        order: orderView(store, order),
      });
    },

    orderFrom(orderId, query) {
      const mid = merchantOf(config, query);
      return mid === undefined ? undefined : store.order(mid, orderId);
    },

    issueToken(order) {
      const { txnToken, expiresAt } = orders.issueToken(order);
      return reply(201, {
        mid: order.mid,
        orderId: order.orderId,
        txnToken,
        txnTokenExpiresAt: new Date(expiresAt).toISOString(),
      });
    },

    closeOrder(order) {
      if (order.status === 'PAID' || order.status === 'CLOSED')
        return refuse(409, 'not-open', `The order is already ${order.status}.`);
      // A payment in process fails first: what its wallet held goes back.
      const txn = store.currentTransaction(order);
      if (txn && txn.status === 'PENDING') payments.complete(txn, 'failure');
      orders.close(order, 'closed by a control call');
      return reply(200, orderView(store, order));
    },

    completeOrder,

    submitBankForm(txn, action) {
      const order = store.order(txn.mid, txn.orderId);
      if (!order || txn.status !== 'PENDING' || order.status !== 'PENDING')
        return refuse(409, 'not-pending', `This payment is no longer in process (${txn.status}).`);
      if (action === 'cancel') return completeOrder(order, 'failure');
      if (txn.outcome === 'pending')
        return reply(202, {
          order: orderView(store, order),
          txnInfo: payments.txnInfoOf(txn),
          message: 'The bank has not answered: complete it with POST /sandbox/orders/{orderId}/complete.',
        });
      return completeOrder(order, txn.outcome);
    },

    async moveToken(token, status) {
      const before = store.deliveries.at(-1);
      // The notification of this move is recorded at once; the answer waits for its delivery at
      // most as long as one delivery may take (earlier ones of the token go first), then tells
      // where it stands.
      const moving = cardTokens.move(token, status);
      // The move records its delivery synchronously, before its first wait.
      const recorded = store.deliveries.at(-1);
      const moved = await within(moving, config.webhookTimeoutMs);
      if (moved === TIMED_OUT)
        return reply(202, { token: tokenView(token), delivery: recorded === before ? null : recorded });
      if (!moved.allowed)
        return refuse(
          409,
          'transition-not-allowed',
          `A ${moved.from} token cannot become ${moved.to}${moved.possible.length ? `; it can become ${moved.possible.join(' or ')}` : '; it is final'}.`,
        );
      return reply(200, { token: tokenView(token), delivery: moved.delivery });
    },

    async advanceClock(ms) {
      clock.advance(ms);
      // Only the deliveries of the changes that became due now, and at most as long as one
      // delivery may take: deliveries started later, or slow ones, do not hold the answer.
      await within(scheduler.runDue(), config.webhookTimeoutMs);
    },

    armFault(input) {
      const result = faults.arm(input);
      return result.ok ? reply(201, result.armed) : badRequest(result.message, result.pointer);
    },

    reset() {
      store.reset();
      scheduler.clear();
      webhooks.reset();
      faults.clear();
      clock.reset();
    },
  };
}

const TIMED_OUT = Symbol('timed out');

/** What `promise` resolves to, or TIMED_OUT when it takes longer than `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
