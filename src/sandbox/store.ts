// The sandbox's state, in memory: orders and their transaction tokens, transactions, pre-auth
// blocks, wallets, card tokens, subscriptions and webhook deliveries. `reset()` returns to the
// seed. Nothing here knows HTTP or the contract's envelopes.

import { MinHeap } from './heap.js';
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
  /** Records a transaction token, and forgets those that have expired by `now`. */
  putTxnToken(token: string, issued: IssuedTxnToken, now: number): void;
  putPreAuth(key: string, preAuth: PreAuth): void;
  putCardToken(token: CardToken): void;
  putSubscription(subscription: Subscription): void;
  /** A customer's subscriptions, oldest first. */
  subscriptionsOf(mid: string, custId: string): Subscription[];
  /** Whether tokenize saw this request id for the merchant before; remembers it. */
  seenTokenizeRequest(key: string): boolean;
  addDelivery(delivery: WebhookDelivery): void;
  /** The current transaction of an order (its last one). */
  currentTransaction(order: Order): Transaction | undefined;
}

/** The key of a pre-auth: merchant id and order id. */
export const orderKey = (mid: string, orderId: string): string => `${mid}\n${orderId}`;

/**
 * Forgets the oldest entries of `map` past `limit`, passing over those `keep` says are still in
 * use (at most a few at a time, so that an insertion stays cheap), calling `forget` for each.
 */
function trim<K, V>(map: Map<K, V>, limit: number, keep: (value: V) => boolean, forget: (key: K, value: V) => void): void {
  if (map.size <= limit) return;
  let looked = 0;
  for (const [key, value] of map) {
    if (map.size <= limit || looked++ >= 64) return;
    if (!keep(value)) forget(key, value);
  }
}

/**
 * The state, with at most `retention` records of each kind (orders, card tokens, pre-auths,
 * subscriptions, deliveries, tokenize request ids): past it the oldest ones that are finished are
 * forgotten, so a long CI run cannot exhaust memory.
 */
export function createStore(instruments: Instruments, retention: number): Store {
  /** Every order in creation order, for forgetting the oldest. */
  const orderQueue = new Map<string, Order>();
  const tokenExpiries = new MinHeap<{ token: string; expiresAt: number }>((a, b) => a.expiresAt < b.expiresAt);
  /** Subscription ids by customer (`mid` and `custId`), in creation order. */
  const byCustomer = new Map<string, Set<string>>();
  const customerKey = (mid: string, custId: string) => `${mid}\n${custId}`;

  function forgetOrder(key: string, order: Order) {
    orderQueue.delete(key);
    store.orders.get(order.mid)?.delete(order.orderId);
    for (const txnId of order.txnIds) store.transactions.delete(txnId);
  }

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
      for (const map of [
        store.orders,
        store.txnTokens,
        store.transactions,
        store.preAuths,
        store.wallets,
        store.cardTokens,
        store.subscriptions,
        orderQueue,
        byCustomer,
      ])
        map.clear();
      tokenExpiries.clear();
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
      orderQueue.set(orderKey(order.mid, order.orderId), order);
      // A payment in process is kept: it holds wallet money and waits for its completion.
      trim(orderQueue, retention, (o) => o.status === 'PENDING', forgetOrder);
    },
    putTxnToken(token, issued, now) {
      store.txnTokens.set(token, issued);
      tokenExpiries.push({ token, expiresAt: issued.expiresAt });
      for (let next = tokenExpiries.peek(); next && next.expiresAt <= now; next = tokenExpiries.peek()) {
        tokenExpiries.pop();
        store.txnTokens.delete(next.token);
      }
    },
    putPreAuth(key, preAuth) {
      store.preAuths.set(key, preAuth);
      trim(
        store.preAuths,
        retention,
        (p) => p.status === 'PENDING',
        (k) => store.preAuths.delete(k),
      );
    },
    putCardToken(token) {
      store.cardTokens.set(token.tokenIndexNumber, token);
      // An INIT token waits for its scheduled change.
      trim(
        store.cardTokens,
        retention,
        (t) => t.tokenStatus === 'INIT',
        (k) => store.cardTokens.delete(k),
      );
    },
    putSubscription(subscription) {
      store.subscriptions.set(subscription.subscriptionId, subscription);
      const key = customerKey(subscription.mid, subscription.custId);
      let ids = byCustomer.get(key);
      if (!ids) {
        ids = new Set();
        byCustomer.set(key, ids);
      }
      ids.add(subscription.subscriptionId);
      trim(
        store.subscriptions,
        retention,
        () => false,
        (id, s) => {
          store.subscriptions.delete(id);
          byCustomer.get(customerKey(s.mid, s.custId))?.delete(id);
        },
      );
    },
    subscriptionsOf(mid, custId) {
      const ids = byCustomer.get(customerKey(mid, custId));
      const found: Subscription[] = [];
      for (const id of ids ?? []) {
        const s = store.subscriptions.get(id);
        if (s) found.push(s);
      }
      return found;
    },
    seenTokenizeRequest(key) {
      if (store.tokenizeRequestIds.has(key)) return true;
      store.tokenizeRequestIds.add(key);
      if (store.tokenizeRequestIds.size > retention) {
        const oldest = store.tokenizeRequestIds.values().next();
        if (!oldest.done) store.tokenizeRequestIds.delete(oldest.value);
      }
      return false;
    },
    addDelivery(delivery) {
      store.deliveries.push(delivery);
      // Forgotten a tenth at a time, so that the cost per delivery stays flat.
      if (store.deliveries.length > retention + Math.ceil(retention / 10)) store.deliveries.splice(0, store.deliveries.length - retention);
    },
    currentTransaction: (order) => {
      const last = order.txnIds.at(-1);
      return last === undefined ? undefined : store.transactions.get(last);
    },
  };
  store.reset();
  return store;
}
