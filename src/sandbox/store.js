// The sandbox's state, in memory: orders and their transaction tokens, transactions, pre-auth
// blocks, wallets, card tokens, subscriptions and webhook deliveries. `reset()` returns to the
// seed. Nothing here knows HTTP or the contract's envelopes.

/**
 * @typedef {'CREATED' | 'PENDING' | 'PAID' | 'CLOSED'} OrderStatus
 * @typedef {{ mid: string, orderId: string, kind: 'PAYMENT' | 'SUBSCRIPTION' | 'PRE_AUTH', status: OrderStatus, closedReason?: string,
 *   amount: number, custId?: string, walletToken: string, goodsInfo?: unknown[], shippingInfo?: unknown[], extendInfo?: Record<string, unknown>,
 *   modifications: number, createdAt: number, subscriptionId?: string, preAuthType?: string, paymentModes?: string[], txnIds: string[] }} Order
 * @typedef {{ txnId: string, mid: string, orderId: string, amount: number, paymentMode: string, gatewayName: string, txnInfoMode?: 'PPI' | 'UPI',
 *   outcome: import('./instruments.js').Outcome, status: 'PENDING' | 'TXN_SUCCESS' | 'TXN_FAILURE', bankTxnId: string, vpa?: string,
 *   createdAt: number, completedAt?: number, funding?: { walletToken: string, source: 'balance' | 'digitalCredit' | 'addMoney' } }} Transaction
 * @typedef {{ preAuthId: string, source: 'balance' | 'digitalCredit', amount: number, expiresAt: number }} Block
 * @typedef {import('./instruments.js').WalletSeed & { blocks: Block[] }} Wallet
 * @typedef {{ mid: string, orderId: string, preAuthId: string, type: 'STANDARD_AUTH' | 'DELAYED_AUTH', paymentMode: string | null,
 *   status: 'BLOCKED' | 'AUTHORIZED' | 'PENDING' | 'FAILED', amount: number, blockedAmount?: number, expiresAt?: number, createdAt: number, statusCode: string }} PreAuth
 */

/** The key of a pre-auth: merchant id and order id. @param {string} mid @param {string} orderId */
export const orderKey = (mid, orderId) => `${mid}\n${orderId}`;

/** @param {import('./instruments.js').Instruments} instruments */
export function createStore(instruments) {
  const store = {
    /** Orders by merchant id, then order id (no key to build on the hot path). @type {Map<string, Map<string, Order>>} */ orders: new Map(),
    /** @type {Map<string, { mid: string, orderId: string, expiresAt: number }>} */ txnTokens: new Map(),
    /** @type {Map<string, Transaction>} */ transactions: new Map(),
    /** @type {Map<string, PreAuth>} */ preAuths: new Map(),
    /** @type {Map<string, Wallet>} */ wallets: new Map(),
    /** @type {Map<string, any>} */ cardTokens: new Map(),
    /** @type {Set<string>} */ tokenizeRequestIds: new Set(),
    /** @type {Map<string, any>} */ subscriptions: new Map(),
    /** @type {any[]} */ deliveries: [],
    reset() {
      for (const map of [store.orders, store.txnTokens, store.transactions, store.preAuths, store.wallets, store.cardTokens, store.subscriptions]) map.clear();
      store.tokenizeRequestIds.clear();
      store.deliveries.length = 0;
      for (const w of instruments.wallets) store.wallets.set(w.svcSsoToken, { ...w, blocks: [] });
    },
    /** @param {string} mid @param {string} orderId */
    order: (mid, orderId) => store.orders.get(mid)?.get(orderId),
    /** @param {Order} order */
    putOrder(order) {
      let ofMerchant = store.orders.get(order.mid);
      if (!ofMerchant) store.orders.set(order.mid, (ofMerchant = new Map()));
      ofMerchant.set(order.orderId, order);
    },
    /** The current transaction of an order (its last one). @param {Order} order */
    currentTransaction: (order) => (order.txnIds.length ? store.transactions.get(order.txnIds[order.txnIds.length - 1]) : undefined),
  };
  store.reset();
  return store;
}

/** @typedef {ReturnType<typeof createStore>} Store */

/**
 * What a wallet can still pay or block from one source, after releasing blocks that timed out.
 * @param {Wallet} wallet @param {'balance' | 'digitalCredit'} source @param {number} now
 */
export function availableIn(wallet, source, now) {
  if (wallet.blocks.some((b) => b.expiresAt <= now)) wallet.blocks = wallet.blocks.filter((b) => b.expiresAt > now);
  let blocked = 0;
  for (const b of wallet.blocks) if (b.source === source) blocked += b.amount;
  return wallet[source] - blocked;
}
