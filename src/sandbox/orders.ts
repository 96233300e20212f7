// Orders and their transaction tokens. Creating an order is outside the description (it refers to
// order creation without describing it): the sandbox creates orders through its control API, and
// through pre-auth's multi-step flow and create subscription, which answer with a txnToken.
import type { Schemas } from '../types.js';
import type { Clock } from './clock.js';
import { TXN_TOKEN_TTL_MS } from './config.js';
import { newTxnToken } from './ids.js';
import type { Instruments } from './instruments.js';
import type { Order, OrderKind, PaymentMode, PreAuthType } from './records.js';
import type { Store } from './store.js';

/** Modifications allowed per order (section 8). */
export const MAX_MODIFICATIONS = 5;

/** What an order is made of; absent fields are not set. */
export interface OrderSpec {
  mid: string;
  orderId: string;
  amount: number;
  kind?: OrderKind;
  custId?: string;
  svcSsoToken?: string;
  goodsInfo?: Schemas['GoodsInfo'][];
  shippingInfo?: Schemas['ShippingInfo'][];
  extendInfo?: Schemas['OrderExtendInfo'];
  subscriptionId?: string;
  preAuthType?: PreAuthType;
  paymentModes?: PaymentMode[];
}

/** A transaction token and when it expires. */
export interface IssuedToken {
  txnToken: string;
  expiresAt: number;
}

export interface Orders {
  create(spec: OrderSpec): { order: Order } & IssuedToken;
  /** A fresh transaction token for the order, valid 15 minutes (earlier ones stay valid until they expire). */
  issueToken(order: Order): IssuedToken;
  close(order: Order, reason: string): void;
}

export function createOrders({
  store,
  clock,
  instruments,
}: {
  store: Store;
  clock: Clock;
  instruments: Instruments;
}): Orders {
  function issueToken(order: Order): IssuedToken {
    const txnToken = newTxnToken();
    const expiresAt = clock.now() + TXN_TOKEN_TTL_MS;
    store.putTxnToken(txnToken, { mid: order.mid, orderId: order.orderId, expiresAt }, clock.now());
    return { txnToken, expiresAt };
  }

  return {
    create(spec) {
      const order: Order = {
        mid: spec.mid,
        orderId: spec.orderId,
        kind: spec.kind ?? 'PAYMENT',
        status: 'CREATED',
        amount: spec.amount,
        walletToken: spec.svcSsoToken ?? instruments.defaultWallet,
        modifications: 0,
        createdAt: clock.now(),
        txnIds: [],
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
    close(order, reason) {
      order.status = 'CLOSED';
      order.closedReason = reason;
    },
  };
}
