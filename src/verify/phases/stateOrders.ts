// The order's state across calls (sections 3.3 and 8, D-39, D-40): sequences of modify, pay by
// wallet (answered at once), pay by net banking (a bank form: the payment is in process) and, with
// the fixtures, the end of a payment in process and the order closed, run against a model of the
// order. An order paid once is not paid again (201), a payment in process is not paid again (324)
// nor the order modified (1111), a paid order is not modified (201), a closed one neither paid nor
// modified (410), at most 5 modifications; what txnInfo says was paid is
// what the order asks, after every modification. A broken rule ends the sequence, so that fast-check
// shrinks it to the shortest one that shows it. Then the duplicate pre-auth block (SR_1004).
import fc from 'fast-check';
import { amountInPaise } from '../../validation/amount.js';
import { type PhaseContext, runProperty, type Trial } from '../context.js';
import type { Exchange } from '../types.js';
import { fixtureCall } from './fixtureCall.js';
import { at, codeText, expectRefusal, rupees, succeeded } from './stateExpect.js';

/** The most modifications an order accepts (3.3, 8). */
export const MAX_MODIFICATIONS = 5;

export const ORDER_CHANGES = [
  'order: CREATED -> PAID',
  'order: CREATED -> PENDING (payment in process)',
  'order: PENDING -> PAID',
  'order: modified',
  'order: modification past the limit refused',
  'order: CREATED -> CLOSED',
  'pre-auth: amount blocked',
] as const;

type OrderStatus = 'CREATED' | 'PENDING' | 'PAID' | 'CLOSED';

interface OrderModel {
  status: OrderStatus;
  /** What the order asks, in paise, after its modifications. */
  amount: number;
  modifications: number;
  /** A rule was broken (or the service's state is no longer known): the sequence stops here. */
  stopped: boolean;
}

interface OrderReal {
  ctx: PhaseContext;
  trial: Trial;
  orderId: string;
  txnToken: string;
}

type OrderCommand = fc.AsyncCommand<OrderModel, OrderReal>;

const amountPaise = fc.integer({ min: 100, max: 100_000 });

/** The pay request of the order, with the instrument's fields. */
const payOf = (real: OrderReal, instrument: Record<string, unknown>, note: string) =>
  real.trial.call({
    operationId: 'initiatePayment',
    token: real.txnToken,
    body: { mid: real.ctx.target.mid, orderId: real.orderId, requestType: 'PAYMENT', ...instrument },
    note,
  });

/** A pay of an order already paid, in process or closed: refused with the state's code. */
function payRefusedByState(m: OrderModel, real: OrderReal, exchange: Exchange): boolean {
  if (m.status === 'CLOSED')
    return expectRefusal(real.trial, exchange, {
      code: '410',
      rule: 'closedOrderAccepted',
      why: 'The order is closed',
    });
  if (m.status === 'PAID')
    return expectRefusal(real.trial, exchange, { code: '201', rule: 'paidTwice', why: 'The order is paid' });
  return expectRefusal(real.trial, exchange, {
    code: '324',
    rule: 'paidTwice',
    why: 'A payment of the order is in process',
  });
}

/** txnInfo.txnAmount is what the order asks. */
function checkAmount(m: OrderModel, real: OrderReal, exchange: Exchange): boolean {
  const paid = amountInPaise(at(exchange.answer, 'body', 'txnInfo', 'txnAmount'));
  if (paid === m.amount) return true;
  real.trial.fail(
    'state',
    'amountNotConserved',
    'initiatePayment',
    `txnInfo.txnAmount is ${paid === null ? 'not an amount' : rupees(paid)}; the order asks ${rupees(m.amount)}${m.modifications ? ` after ${m.modifications} modification(s)` : ''}.`,
    '/body/txnInfo/txnAmount',
  );
  return false;
}

class PayWallet implements OrderCommand {
  check = (m: Readonly<OrderModel>) => !m.stopped;
  async run(m: OrderModel, real: OrderReal): Promise<void> {
    const exchange = await payOf(
      real,
      { paymentMode: 'WALLET', walletInfo: { walletType: 'SVC', paymentFlow: 'PAY' } },
      `pay the order (${m.status}) by wallet`,
    );
    if (m.status !== 'CREATED') {
      m.stopped = !payRefusedByState(m, real, exchange);
      return;
    }
    if (!succeeded(exchange) || at(exchange.answer, 'body', 'txnInfo', 'status') !== 'TXN_SUCCESS') {
      // The wallet of the fixtures pays with success; a service that answers otherwise leaves the
      // order's state unknown to the model: the sequence ends without a finding of this check.
      m.stopped = true;
      return;
    }
    real.ctx.coverage.change('order: CREATED -> PAID');
    m.status = 'PAID';
    m.stopped = !checkAmount(m, real, exchange);
  }
  toString = () => 'payByWallet';
}

class PayBankForm implements OrderCommand {
  check = (m: Readonly<OrderModel>) => !m.stopped;
  async run(m: OrderModel, real: OrderReal): Promise<void> {
    const bank = real.ctx.fixtures.instruments.bankCode;
    const exchange = await payOf(
      real,
      { paymentMode: 'NET_BANKING', channelCode: bank },
      `pay the order (${m.status}) by net banking`,
    );
    if (m.status !== 'CREATED') {
      m.stopped = !payRefusedByState(m, real, exchange);
      return;
    }
    if (!succeeded(exchange) || at(exchange.answer, 'body', 'bankForm') === undefined) {
      m.stopped = true;
      return;
    }
    real.ctx.coverage.change('order: CREATED -> PENDING (payment in process)');
    m.status = 'PENDING';
  }
  toString = () => 'payByNetBanking';
}

class CompletePayment implements OrderCommand {
  check = (m: Readonly<OrderModel>) => !m.stopped && m.status === 'PENDING';
  async run(m: OrderModel, real: OrderReal): Promise<void> {
    const complete = real.ctx.fixtures.completePayment;
    if (!complete) {
      m.stopped = true;
      return;
    }
    await fixtureCall('completePayment()', () => complete(real.orderId));
    real.ctx.coverage.change('order: PENDING -> PAID');
    m.status = 'PAID';
  }
  toString = () => 'completePayment';
}

/** The order closed before any payment, as the merchant's system would (the fixture's `closeOrder`). */
class CloseOrder implements OrderCommand {
  check = (m: Readonly<OrderModel>) => !m.stopped && m.status === 'CREATED';
  async run(m: OrderModel, real: OrderReal): Promise<void> {
    const close = real.ctx.fixtures.closeOrder;
    if (!close) {
      m.stopped = true;
      return;
    }
    await fixtureCall('closeOrder()', () => close(real.orderId));
    real.ctx.coverage.change('order: CREATED -> CLOSED');
    m.status = 'CLOSED';
  }
  toString = () => 'closeOrder';
}

class Modify implements OrderCommand {
  constructor(private readonly amount: number) {}
  check = (m: Readonly<OrderModel>) => !m.stopped;
  async run(m: OrderModel, real: OrderReal): Promise<void> {
    const exchange = await real.trial.call({
      operationId: 'modifyOrder',
      token: real.txnToken,
      query: { mid: real.ctx.target.mid, orderId: real.orderId },
      body: { txnAmount: { value: rupees(this.amount), currency: 'INR' } },
      note: `modify the order (${m.status}, ${m.modifications} modification(s)) to ${rupees(this.amount)}`,
    });
    if (m.status === 'CLOSED')
      m.stopped = !expectRefusal(real.trial, exchange, {
        code: '410',
        rule: 'closedOrderAccepted',
        why: 'The order is closed',
      });
    else if (m.status === 'PAID')
      m.stopped = !expectRefusal(real.trial, exchange, {
        code: '201',
        rule: 'modifiedAfterPayment',
        why: 'The order is paid',
      });
    else if (m.status === 'PENDING')
      m.stopped = !expectRefusal(real.trial, exchange, {
        code: '1111',
        rule: 'modifiedAfterPayment',
        why: 'A payment of the order is in process',
      });
    else if (m.modifications >= MAX_MODIFICATIONS) {
      m.stopped = !expectRefusal(real.trial, exchange, {
        code: '1111',
        rule: 'modificationLimit',
        why: `The order was modified ${MAX_MODIFICATIONS} times, the most the description allows`,
      });
      if (!m.stopped) real.ctx.coverage.change('order: modification past the limit refused');
    } else if (succeeded(exchange)) {
      real.ctx.coverage.change('order: modified');
      m.amount = this.amount;
      m.modifications += 1;
    } else {
      real.trial.fail(
        'acceptance',
        'modifyRefused',
        'modifyOrder',
        `A valid modification of an order not yet paid (modification ${m.modifications + 1} of ${MAX_MODIFICATIONS}) is refused with ${codeText(exchange)}.`,
      );
      m.stopped = true;
    }
  }
  toString = () => `modify(${rupees(this.amount)})`;
}

// The sequences: arrays of commands that fc.asyncModelRun runs against the model (a command the model's
// state does not allow is passed over). Arrays rather than fc.commands: an array shrinks without
// running it, so a finding's --replay path reruns exactly the shrunk sequence (fc.commands shrinks by
// what ran, which a replay cannot know without its own replay log).
const orderCommands: fc.Arbitrary<OrderCommand[]> = fc.array(
  fc.oneof(
    fc.constant(new PayWallet()),
    fc.constant(new PayBankForm()),
    fc.constant(new CompletePayment()),
    fc.constant(new CloseOrder()),
    // Weighted: the limit of modifications is reached only by sequences of several.
    { arbitrary: amountPaise.map((amount) => new Modify(amount)), weight: 3 },
  ),
  { maxLength: 10 },
);

/** Orders across calls: a model-based property, each trial one fresh order. */
export async function checkOrders(ctx: PhaseContext): Promise<void> {
  await runProperty(
    ctx,
    'state.order',
    fc.tuple(amountPaise, orderCommands),
    async ([amount, commands], trial) => {
      const orderId = ctx.fresh('VS');
      const custId = ctx.fresh('C');
      const { txnToken } = await fixtureCall('createOrder()', () =>
        ctx.fixtures.createOrder({ orderId, amount: rupees(amount), custId }),
      );
      const setup = () => ({
        model: { status: 'CREATED' as OrderStatus, amount, modifications: 0, stopped: false },
        real: { ctx, trial, orderId, txnToken },
      });
      await fc.asyncModelRun(setup, commands);
    },
    { runs: Math.min(ctx.runs, 16), examples: ORDER_EXAMPLES },
  );
}

/** Sequences every run tries first: one past the limit of modifications, one through every state of a payment. */
const ORDER_EXAMPLES: readonly [number, OrderCommand[]][] = [
  [10_000, [1, 2, 3, 4, 5, 6].map((n) => new Modify(10_000 + n * 100))],
  [
    25_050,
    [
      new Modify(30_000),
      new PayBankForm(),
      new PayWallet(),
      new Modify(40_000),
      new CompletePayment(),
      new PayWallet(),
      new Modify(50_000),
    ],
  ],
  [12_300, [new Modify(12_400), new CloseOrder(), new PayWallet(), new Modify(12_500), new PayBankForm()]],
];

/** A pre-auth block of more than the wallet holds is refused with WM_1006 (3.3), with the fixtures' low wallet. */
export async function checkInsufficientBalance(ctx: PhaseContext): Promise<void> {
  const low = ctx.fixtures.instruments.lowBalance;
  if (!low) {
    ctx.note('state: the fixtures have no instruments.lowBalance: a block beyond the balance was not tried.');
    return;
  }
  await runProperty(
    ctx,
    'state.lowBalance',
    fc.constant(low),
    async ({ svcSsoToken, amount }, trial) => {
      const exchange = await trial.call({
        operationId: 'preAuthorize',
        body: {
          mid: ctx.target.mid,
          orderId: ctx.fresh('VL'),
          txnAmount: amount,
          paymentMode: 'BALANCE',
          cardPreAuthType: 'STANDARD_AUTH',
          svcSsoToken,
          userInfo: { custId: ctx.fresh('C') },
        },
        note: `block ${amount} in a wallet that holds less`,
      });
      expectRefusal(trial, exchange, {
        code: 'WM_1006',
        rule: 'blockedBeyondBalance',
        why: 'The wallet holds less than the amount to block',
      });
    },
    { runs: 1 },
  );
}

/** A second pre-auth block for the same order is refused with SR_1004 (3.3, D-43). */
export async function checkDuplicateBlock(ctx: PhaseContext): Promise<void> {
  await runProperty(
    ctx,
    'state.preAuth',
    fc.tuple(amountPaise, amountPaise),
    async ([first, second], trial) => {
      const orderId = ctx.fresh('VP');
      const block = (amount: number, note: string) =>
        trial.call({
          operationId: 'preAuthorize',
          body: {
            mid: ctx.target.mid,
            orderId,
            txnAmount: rupees(amount),
            paymentMode: 'BALANCE',
            cardPreAuthType: 'STANDARD_AUTH',
            svcSsoToken: ctx.fixtures.instruments.svcSsoToken,
            userInfo: { custId: ctx.fresh('C') },
          },
          note,
        });
      const blocked = await block(first, `block ${rupees(first)} for a new order`);
      if (!succeeded(blocked)) return;
      ctx.coverage.change('pre-auth: amount blocked');
      // A STANDARD_AUTH block of BALANCE answers the amount it blocked (3.3): the amount asked.
      const held = amountInPaise(at(blocked.answer, 'body', 'blockedAmount'));
      if (held !== first)
        trial.fail(
          'state',
          'amountNotConserved',
          'preAuthorize',
          `The block of ${rupees(first)} answers ${held === null ? 'no blockedAmount' : `a blockedAmount of ${rupees(held)}`}: a STANDARD_AUTH block of BALANCE blocks the amount asked.`,
          '/body/blockedAmount',
        );
      const again = await block(second, `block ${rupees(second)} again for the same order`);
      expectRefusal(trial, again, {
        code: 'SR_1004',
        rule: 'duplicateBlockAccepted',
        why: 'The order holds a block already',
      });
    },
    { runs: Math.min(ctx.runs, 4) },
  );
}
