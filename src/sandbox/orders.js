// Orders and their transaction tokens. Creating an order is outside the description (it refers to
// order creation without describing it): the sandbox creates orders through its control API, and
// through pre-auth's multi-step flow and create subscription, which answer with a txnToken.
import { TXN_TOKEN_TTL_MS } from './config.js';
import { newTxnToken } from './ids.js';
import { formatPaise } from './money.js';

/** @typedef {import('./store.js').Order} Order */

/** @param {{ store: import('./store.js').Store, clock: import('./clock.js').Clock, instruments: import('./instruments.js').Instruments }} deps */
export function createOrders({ store, clock, instruments }) {
  /** A fresh transaction token for the order, valid 15 minutes. @param {Order} order */
  function issueToken(order) {
    const txnToken = newTxnToken();
    const expiresAt = clock.now() + TXN_TOKEN_TTL_MS;
    store.txnTokens.set(txnToken, { mid: order.mid, orderId: order.orderId, expiresAt });
    return { txnToken, expiresAt };
  }

  return {
    /**
     * @param {{ mid: string, orderId: string, amount: number, kind?: Order['kind'], custId?: string, svcSsoToken?: string,
     *   goodsInfo?: unknown[], shippingInfo?: unknown[], extendInfo?: Record<string, unknown>, subscriptionId?: string, preAuthType?: string, paymentModes?: string[] }} spec
     */
    create(spec) {
      /** @type {Order} */
      const order = {
        mid: spec.mid, orderId: spec.orderId, kind: spec.kind ?? 'PAYMENT', status: 'CREATED', amount: spec.amount,
        walletToken: spec.svcSsoToken ?? instruments.defaultWallet, modifications: 0, createdAt: clock.now(), txnIds: [],
        ...(spec.custId ? { custId: spec.custId } : {}),
        ...(spec.goodsInfo ? { goodsInfo: spec.goodsInfo } : {}),
        ...(spec.shippingInfo ? { shippingInfo: spec.shippingInfo } : {}),
        ...(spec.extendInfo ? { extendInfo: spec.extendInfo } : {}),
        ...(spec.subscriptionId ? { subscriptionId: spec.subscriptionId } : {}),
        ...(spec.preAuthType ? { preAuthType: spec.preAuthType } : {}),
        ...(spec.paymentModes ? { paymentModes: spec.paymentModes } : {}),
      };
      store.putOrder(order);
      return { order, ...issueToken(order) };
    },
    issueToken,
    /** @param {Order} order @param {string} reason */
    close(order, reason) {
      order.status = 'CLOSED';
      order.closedReason = reason;
    },
    /** What the control API shows of an order (never its tokens). @param {Order} order */
    view(order) {
      const txn = store.currentTransaction(order);
      return {
        mid: order.mid, orderId: order.orderId, kind: order.kind, status: order.status,
        ...(order.closedReason ? { closedReason: order.closedReason } : {}),
        txnAmount: { value: formatPaise(order.amount), currency: 'INR' },
        ...(order.custId ? { custId: order.custId } : {}),
        modifications: order.modifications, modificationsLeft: Math.max(0, 5 - order.modifications),
        ...(order.goodsInfo ? { goodsInfo: order.goodsInfo } : {}),
        ...(order.shippingInfo ? { shippingInfo: order.shippingInfo } : {}),
        ...(order.extendInfo ? { extendInfo: order.extendInfo } : {}),
        ...(order.subscriptionId ? { subscriptionId: order.subscriptionId } : {}),
        ...(order.paymentModes ? { paymentModes: order.paymentModes } : {}),
        ...(txn ? { transaction: { txnId: txn.txnId, paymentMode: txn.paymentMode, status: txn.status } } : {}),
        createdAt: new Date(order.createdAt).toISOString(),
      };
    },
  };
}

/** @typedef {ReturnType<typeof createOrders>} Orders */
