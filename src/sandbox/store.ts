// The sandbox's state, in memory: orders and their transaction tokens, transactions, pre-auth
// blocks, wallets, card tokens, subscriptions and webhook deliveries. `reset()` returns to the
// seed. Nothing here knows HTTP or the contract's envelopes.
import type { Instruments } from './instruments.js';
import type { CardToken, IssuedTxnToken, Order, PreAuth, Subscription, Transaction, Wallet, WebhookDelivery } from './records.js';
import { newWallet } from './wallets.js';

export interface Store {
  /** Orders by merchant id, then order id (no key to build on the hot path). */
  readonly orders: Map<string, Map<string, Order>>;
  readonly txnTokens: Map<string, IssuedTxnToken>;
  readonly transactions: Map<string, Transaction>;
  /** Pre-auths by `orderKey(mid, orderId)`. */
  readonly preAuths: Map<string, PreAuth>;
  /** Wallets by svcSsoToken. */
  readonly wallets: Map<string, Wallet>;
  readonly cardTokens: Map<string, CardToken>;
  /** The head.requestId values tokenize has seen, per merchant. */
  readonly tokenizeRequestIds: Set<string>;
  readonly subscriptions: Map<string, Subscription>;
  readonly deliveries: WebhookDelivery[];
  reset(): void;
  order(mid: string, orderId: string): Order | undefined;
  putOrder(order: Order): void;
  /** The current transaction of an order (its last one). */
  currentTransaction(order: Order): Transaction | undefined;
}

/** The key of a pre-auth: merchant id and order id. */
export const orderKey = (mid: string, orderId: string): string => `${mid}\n${orderId}`;

export function createStore(instruments: Instruments): Store {
  const store: Store = {
    orders: new Map(),
    txnTokens: new Map(),
    transactions: new Map(),
    preAuths: new Map(),
    wallets: new Map(),
    cardTokens: new Map(),
    tokenizeRequestIds: new Set(),
    subscriptions: new Map(),
    deliveries: [],
    reset() {
      for (const map of [store.orders, store.txnTokens, store.transactions, store.preAuths, store.wallets, store.cardTokens, store.subscriptions]) map.clear();
      store.tokenizeRequestIds.clear();
      store.deliveries.length = 0;
      for (const w of instruments.wallets) store.wallets.set(w.svcSsoToken, newWallet(w));
    },
    order: (mid, orderId) => store.orders.get(mid)?.get(orderId),
    putOrder(order) {
      let ofMerchant = store.orders.get(order.mid);
      if (!ofMerchant) {
        ofMerchant = new Map();
        store.orders.set(order.mid, ofMerchant);
      }
      ofMerchant.set(order.orderId, order);
    },
    currentTransaction: (order) => {
      const last = order.txnIds.at(-1);
      return last === undefined ? undefined : store.transactions.get(last);
    },
  };
  store.reset();
  return store;
}
