// Completing a payment in process (the bank form's action, or a control call) settles what it
// touches: the transaction, its order (PAID, or CLOSED when the payment failed), the wallet that
// paid, and the pre-auth or subscription the order belongs to.
import type { Clock } from '../clock.js';
import { digitsId } from '../ids.js';
import type { Order, Transaction } from '../records.js';
import { orderKey, type Store } from '../store.js';
import { endHold, payAfterTopUp } from '../wallets.js';

export type PaymentResult = 'success' | 'failure';

/** Ends a pending transaction: success pays the order, failure closes it. */
export function completePayment(store: Store, clock: Clock, txn: Transaction, result: PaymentResult): Transaction {
  const now = clock.now();
  txn.status = result === 'success' ? 'TXN_SUCCESS' : 'TXN_FAILURE';
  txn.completedAt = now;
  const order = store.order(txn.mid, txn.orderId);
  // Orders are never removed while their transactions remain (a reset clears both).
  if (!order) throw new Error('The order of a transaction is missing from the store.');
  if (result === 'success') {
    if (txn.txnInfoMode !== 'PPI' && txn.gatewayName !== 'DIGITAL_CREDIT') txn.bankTxnId = digitsId(now).slice(-12);
    order.status = 'PAID';
    const wallet = txn.funding && store.wallets.get(txn.funding.walletToken);
    if (wallet && txn.funding) {
      const { source } = txn.funding;
      if (source === 'addMoney') payAfterTopUp(wallet, txn.amount, now);
      else if (txn.funding.held) endHold(wallet, source, txn.amount, true);
      // Paid at once: decide found the amount available a moment ago, in the same turn.
      else wallet[source] -= txn.amount;
    }
  } else {
    const wallet = txn.funding?.held ? store.wallets.get(txn.funding.walletToken) : undefined;
    if (wallet && txn.funding && txn.funding.source !== 'addMoney')
      endHold(wallet, txn.funding.source, txn.amount, false);
    order.status = 'CLOSED';
    order.closedReason = 'the payment failed';
  }
  settleOwner(store, order, result);
  return txn;
}

/** The pre-auth or subscription the order belongs to follows its first payment. */
function settleOwner(store: Store, order: Order, result: PaymentResult): void {
  if (order.kind === 'PRE_AUTH') {
    const preAuth = store.preAuths.get(orderKey(order.mid, order.orderId));
    if (preAuth && preAuth.status === 'PENDING') {
      preAuth.status = result === 'failure' ? 'FAILED' : preAuth.type === 'DELAYED_AUTH' ? 'AUTHORIZED' : 'BLOCKED';
      if (result === 'success' && preAuth.type === 'STANDARD_AUTH') preAuth.blockedAmount = preAuth.amount;
    }
  }
  if (order.kind === 'SUBSCRIPTION' && order.subscriptionId) {
    const subscription = store.subscriptions.get(order.subscriptionId);
    if (subscription && subscription.status === 'INIT')
      subscription.status = result === 'success' ? 'ACTIVE' : 'FAILED';
  }
}
