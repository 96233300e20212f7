// The sandbox's state, in memory: orders and their transaction tokens, transactions, pre-auth
// blocks, wallets, card tokens, subscriptions and webhook deliveries. `reset()` returns to the
// seed. Nothing here knows HTTP or the contract's envelopes. Every kind of record is bounded by
// the retention (docs/decisions.md, D-67): what is forgotten first is decided here.

import { Fifo } from './fifo.js';
import type { Instruments } from './instruments.js';
import type {
  CardToken,
  IssuedTxnToken,
  Order,
  PreAuth,
  Subscription,
  Transaction,
  Wallet,
  WebhookDelivery,
} from './records.js';
import { endHold, newWallet, unblock } from './wallets.js';

/** How many records of each kind the store holds now (GET /sandbox shows them). */
export interface KeptCounts {
  orders: number;
  transactions: number;
  txnTokens: number;
  preAuths: number;
  walletBlocks: number;
  cardTokens: number;
  subscriptions: number;
  customers: number;
  tokenizeRequestIds: number;
  deliveries: number;
}

/** Told of the records the store forgets past the retention (not of a reset, which forgets everything). */
export interface ForgetListeners {
  /** A card token was forgotten (its scheduled change, if any, no longer applies). */
  cardToken?: ((token: CardToken) => void) | undefined;
  /** A delivery record was forgotten (no further attempt of it is made). */
  delivery?: ((delivery: WebhookDelivery) => void) | undefined;
}

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
  /** Set by the services that hold more of a record than the store (scheduled changes, retries). */
  readonly forgotten: ForgetListeners;
  reset(): void;
  order(mid: string, orderId: string): Order | undefined;
  putOrder(order: Order): void;
  /** Records a transaction token, and forgets those that have expired by `now` and the oldest past the retention. */
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
  /** How many records of each kind are held now. */
  counts(): KeptCounts;
}

/** The key of a pre-auth: merchant id and order id. */
export const orderKey = (mid: string, orderId: string): string => `${mid}\n${orderId}`;

/**
 * The forgetting order of one kind of record that may be in use (a payment in process, a pending
 * pre-auth, an INIT token). The `limit` most recent records are kept; when the oldest of them is
 * still in use as its turn comes, it is set aside instead, with at most `limit` others; past that,
 * the one set aside longest is forgotten to make room. A record set aside that has finished goes
 * back among the recent ones (it counts as new: a payment just completed is not forgotten at
 * once). So a kind holds at most twice `limit` records, and adding one costs O(1): a few looks.
 */
class Retention<T> {
  private readonly recent = new Fifo<T>();
  private readonly aside = new Fifo<T>();

  constructor(
    private readonly limit: number,
    private readonly inUse: (record: T) => boolean,
    private readonly forget: (record: T) => void,
  ) {}

  add(record: T): void {
    this.recent.push(record);
    // Those set aside that have finished go back, oldest first, two per record added.
    for (let looked = 0; looked < 2; looked++) {
      const first = this.aside.peek();
      if (first === undefined || this.inUse(first)) break;
      this.aside.shift();
      this.recent.push(first);
    }
    while (this.recent.size > this.limit) {
      const oldest = this.recent.shift() as T;
      if (!this.inUse(oldest)) {
        this.forget(oldest);
        continue;
      }
      if (this.aside.size >= this.limit) this.forget(this.aside.shift() as T);
      this.aside.push(oldest);
    }
  }

  clear(): void {
    this.recent.clear();
    this.aside.clear();
  }
}

/**
 * The state, with at most `retention` records of each kind, and at most `retention` more of those
 * still in use (D-67): past it the oldest are forgotten, so a long CI run cannot exhaust memory.
 */
export function createStore(instruments: Instruments, retention: number): Store {
  /** Transaction tokens in order of issue, which is their order of expiry (every token lives 15 minutes). */
  const tokenQueue = new Fifo<{ token: string; issued: IssuedTxnToken }>();
  const subscriptionQueue = new Fifo<Subscription>();
  const requestIdQueue = new Fifo<string>();
  /** Subscription ids by customer (`mid` and `custId`), in creation order; a customer without one is not kept. */
  const byCustomer = new Map<string, Set<string>>();
  const customerKey = (mid: string, custId: string) => `${mid}\n${custId}`;

  /** Forgets an order and its transactions; a payment still in process ends, and what its wallet held goes back. */
  function forgetOrder(order: Order) {
    const ofMerchant = store.orders.get(order.mid);
    if (ofMerchant?.get(order.orderId) !== order) return;
    ofMerchant.delete(order.orderId);
    for (const txnId of order.txnIds) {
      const txn = store.transactions.get(txnId);
      store.transactions.delete(txnId);
      const wallet =
        txn?.status === 'PENDING' && txn.funding?.held ? store.wallets.get(txn.funding.walletToken) : undefined;
      if (wallet && txn?.funding && txn.funding.source !== 'addMoney')
        endHold(wallet, txn.funding.source, txn.amount, false);
    }
  }

  /** Forgets a pre-auth; its wallet block, if any, ends (the money is available again). */
  function forgetPreAuth(preAuth: PreAuth) {
    const key = orderKey(preAuth.mid, preAuth.orderId);
    if (store.preAuths.get(key) !== preAuth) return;
    store.preAuths.delete(key);
    const wallet = preAuth.walletToken === undefined ? undefined : store.wallets.get(preAuth.walletToken);
    if (wallet) unblock(wallet, preAuth.preAuthId);
  }

  function forgetCardToken(token: CardToken) {
    if (store.cardTokens.get(token.tokenIndexNumber) !== token) return;
    store.cardTokens.delete(token.tokenIndexNumber);
    store.forgotten.cardToken?.(token);
  }

  // A payment in process holds wallet money and waits for its completion; a pending pre-auth
  // waits for its order's payment; an INIT token waits for its scheduled change.
  const orderRetention = new Retention<Order>(retention, (o) => o.status === 'PENDING', forgetOrder);
  const preAuthRetention = new Retention<PreAuth>(retention, (p) => p.status === 'PENDING', forgetPreAuth);
  const cardTokenRetention = new Retention<CardToken>(retention, (t) => t.tokenStatus === 'INIT', forgetCardToken);

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
    forgotten: {},
    reset() {
      for (const map of [
        store.orders,
        store.txnTokens,
        store.transactions,
        store.preAuths,
        store.wallets,
        store.cardTokens,
        store.subscriptions,
        byCustomer,
      ])
        map.clear();
      for (const queue of [
        tokenQueue,
        subscriptionQueue,
        requestIdQueue,
        orderRetention,
        preAuthRetention,
        cardTokenRetention,
      ])
        queue.clear();
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
      orderRetention.add(order);
    },
    putTxnToken(token, issued, now) {
      store.txnTokens.set(token, issued);
      tokenQueue.push({ token, issued });
      // Expired ones, and the oldest past the retention: a token only starts a payment, which a
      // new one from POST /sandbox/orders/{orderId}/token starts as well.
      for (
        let first = tokenQueue.peek();
        first && (tokenQueue.size > retention || first.issued.expiresAt <= now);
        first = tokenQueue.peek()
      ) {
        tokenQueue.shift();
        if (store.txnTokens.get(first.token) === first.issued) store.txnTokens.delete(first.token);
      }
    },
    putPreAuth(key, preAuth) {
      store.preAuths.set(key, preAuth);
      preAuthRetention.add(preAuth);
    },
    putCardToken(token) {
      store.cardTokens.set(token.tokenIndexNumber, token);
      cardTokenRetention.add(token);
    },
    putSubscription(subscription) {
      store.subscriptions.set(subscription.subscriptionId, subscription);
      subscriptionQueue.push(subscription);
      const key = customerKey(subscription.mid, subscription.custId);
      let ids = byCustomer.get(key);
      if (!ids) {
        ids = new Set();
        byCustomer.set(key, ids);
      }
      ids.add(subscription.subscriptionId);
      while (subscriptionQueue.size > retention) {
        const oldest = subscriptionQueue.shift() as Subscription;
        if (store.subscriptions.get(oldest.subscriptionId) !== oldest) continue;
        store.subscriptions.delete(oldest.subscriptionId);
        const oldKey = customerKey(oldest.mid, oldest.custId);
        const ofCustomer = byCustomer.get(oldKey);
        ofCustomer?.delete(oldest.subscriptionId);
        // A customer with no subscription left is not kept: each unique custId would stay otherwise.
        if (ofCustomer?.size === 0) byCustomer.delete(oldKey);
      }
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
      requestIdQueue.push(key);
      while (requestIdQueue.size > retention) store.tokenizeRequestIds.delete(requestIdQueue.shift() as string);
      return false;
    },
    addDelivery(delivery) {
      store.deliveries.push(delivery);
      // Forgotten a tenth at a time, so that the cost per delivery stays flat.
      if (store.deliveries.length > retention + Math.ceil(retention / 10)) {
        const gone = store.deliveries.splice(0, store.deliveries.length - retention);
        const tell = store.forgotten.delivery;
        if (tell) for (const d of gone) tell(d);
      }
    },
    currentTransaction: (order) => {
      const last = order.txnIds.at(-1);
      return last === undefined ? undefined : store.transactions.get(last);
    },
    counts() {
      let orders = 0;
      for (const ofMerchant of store.orders.values()) orders += ofMerchant.size;
      let walletBlocks = 0;
      for (const wallet of store.wallets.values()) walletBlocks += wallet.blocks.size;
      return {
        orders,
        transactions: store.transactions.size,
        txnTokens: store.txnTokens.size,
        preAuths: store.preAuths.size,
        walletBlocks,
        cardTokens: store.cardTokens.size,
        subscriptions: store.subscriptions.size,
        customers: byCustomer.size,
        tokenizeRequestIds: store.tokenizeRequestIds.size,
        deliveries: store.deliveries.length,
      };
    },
  };
  store.reset();
  return store;
}
