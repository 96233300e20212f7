// What the control API shows of the sandbox's state: orders, pre-auths, wallets, card tokens, the
// clock and the overview of GET /sandbox. Never a transaction token, a key or a card number.
import type { Schemas } from '../types.js';
import { tokenInfo } from './cardTokens.js';
import type { Clock } from './clock.js';
import { type SandboxConfig, TXN_TOKEN_TTL_MS } from './config.js';
import { formatPaise } from './money.js';
import { SERVED_OPERATIONS } from './operationIndex.js';
import { MAX_MODIFICATIONS } from './orders.js';
import type { CardToken, Order, OrderKind, OrderStatus, PaymentMode, PreAuth, Wallet } from './records.js';
import type { Scheduler } from './scheduler.js';
import type { Store } from './store.js';
import { availableIn } from './wallets.js';

/** An order as the control API shows it. */
export interface SandboxOrder {
  mid: string;
  orderId: string;
  kind: OrderKind;
  status: OrderStatus;
  closedReason?: string;
  txnAmount: Schemas['Money'];
  custId?: string;
  modifications: number;
  modificationsLeft: number;
  goodsInfo?: Schemas['GoodsInfo'][];
  shippingInfo?: Schemas['ShippingInfo'][];
  extendInfo?: Schemas['OrderExtendInfo'];
  subscriptionId?: string;
  paymentModes?: PaymentMode[];
  transaction?: { txnId: string; paymentMode: PaymentMode; status: Schemas['TransactionStatus'] };
  createdAt: string;
}

/** What the control API shows of an order (never its tokens). */
export function orderView(store: Store, order: Order): SandboxOrder {
  const txn = store.currentTransaction(order);
  return {
    mid: order.mid,
    orderId: order.orderId,
    kind: order.kind,
    status: order.status,
    ...(order.closedReason ? { closedReason: order.closedReason } : {}),
    txnAmount: { value: formatPaise(order.amount), currency: 'INR' },
    ...(order.custId ? { custId: order.custId } : {}),
    modifications: order.modifications,
    modificationsLeft: Math.max(0, MAX_MODIFICATIONS - order.modifications),
    ...(order.goodsInfo ? { goodsInfo: order.goodsInfo } : {}),
    ...(order.shippingInfo ? { shippingInfo: order.shippingInfo } : {}),
    ...(order.extendInfo ? { extendInfo: order.extendInfo } : {}),
    ...(order.subscriptionId ? { subscriptionId: order.subscriptionId } : {}),
    ...(order.paymentModes ? { paymentModes: order.paymentModes } : {}),
    ...(txn ? { transaction: { txnId: txn.txnId, paymentMode: txn.paymentMode, status: txn.status } } : {}),
    createdAt: new Date(order.createdAt).toISOString(),
  };
}

/** A pre-auth and its block, amounts in rupees. */
export function preAuthView(p: PreAuth) {
  return {
    mid: p.mid,
    orderId: p.orderId,
    preAuthId: p.preAuthId,
    type: p.type,
    paymentMode: p.paymentMode,
    status: p.status,
    txnAmount: formatPaise(p.amount),
    ...(p.blockedAmount !== undefined ? { blockedAmount: formatPaise(p.blockedAmount) } : {}),
    ...(p.expiresAt !== undefined ? { blockExpiresAt: new Date(p.expiresAt).toISOString() } : {}),
  };
}

/** A wallet's balances, what its blocks leave of them at `now`, and the blocks. */
export function walletView(w: Wallet, now: number) {
  return {
    name: w.name,
    balance: formatPaise(w.balance),
    balanceUnblocked: formatPaise(availableIn(w, 'balance', now)),
    digitalCredit: formatPaise(w.digitalCredit),
    digitalCreditUnblocked: formatPaise(availableIn(w, 'digitalCredit', now)),
    // After availableIn, which releases the blocks that timed out.
    blocks: [...w.blocks.values()].map((b) => ({
      preAuthId: b.preAuthId,
      source: b.source,
      amount: formatPaise(b.amount),
      expiresAt: new Date(b.expiresAt).toISOString(),
    })),
  };
}

/** A card token: what its notification carries, its owner, its history and how it pays. */
export function tokenView(token: CardToken) {
  return {
    ...tokenInfo(token),
    mid: token.mid,
    custId: token.custId,
    createdAt: token.createdAt,
    history: token.history,
    payOutcome: token.pay,
  };
}

export function clockView(clock: Clock, scheduler: Scheduler) {
  return {
    now: new Date(clock.now()).toISOString(),
    epochMs: clock.now(),
    offsetMs: clock.offset(),
    txnTokenTtlMs: TXN_TOKEN_TTL_MS,
    pendingTokenChanges: scheduler.pending(),
  };
}

/** One control call, as the overview lists it. */
export interface ControlCallInfo {
  method: string;
  path: string;
  what: string;
}

/**
 * GET /sandbox: the merchant settings (never the key), the operations at their addresses, the
 * control calls, and the retention with how many records of each kind are kept (D-67).
 */
export function overview(
  { config, clock, store, scheduler }: { config: SandboxConfig; clock: Clock; store: Store; scheduler: Scheduler },
  baseUrl: string,
  control: readonly ControlCallInfo[],
) {
  return {
    sandbox:
      "A stateful sandbox of the service. The operations answer at the description's paths; everything under /sandbox/ is a sandbox extension, outside the contract.",
    merchant: {
      mids: config.mids,
      clientId: config.clientId,
      merchantKey: config.usesDefaultKey ? 'the documented default test key' : 'configured',
      webhookUrl: config.webhookUrl ?? null,
    },
    now: new Date(clock.now()).toISOString(),
    operations: SERVED_OPERATIONS.map((o) => ({
      operationId: o.operationId,
      method: o.method,
      path: `${baseUrl}${o.path}`,
    })),
    control: control.map(({ method, path, what }) => ({ method, path, what })),
    retention: { limit: config.retention, kept: { ...store.counts(), scheduledJobs: scheduler.pending() } },
  };
}
