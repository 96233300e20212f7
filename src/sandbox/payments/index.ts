// The payment of an order: what the instrument decides (decide.ts), the transaction it starts and
// what the pay answer carries (txnInfo at once, a bank form, or a deep link: section 4.5), and how a
// pending payment completes (settle.ts).

import type { Schemas } from '../../types.js';
import type { Clock } from '../clock.js';
import type { SandboxConfig } from '../config.js';
import { digitsId } from '../ids.js';
import type { Instruments } from '../instruments.js';
import type { Order, Transaction } from '../records.js';
import type { Store } from '../store.js';
import { hold } from '../wallets.js';
import { createDecide, type PayBody, type Refusal } from './decide.js';
import { bankFormOf, deepLinkOf } from './forms.js';
import { completePayment, type PaymentResult } from './settle.js';
import { txnInfoOf } from './txnInfo.js';

export type { PayBody, Refusal } from './decide.js';
export type { PaymentResult } from './settle.js';

/** The body fields of pay's 0000 answer: one of txnInfo, bankForm or deepLinkInfo. */
export type StartedPayment =
  | { txnInfo: Schemas['TransactionInfo'] }
  | { bankForm: Schemas['BankForm'] }
  | { deepLinkInfo: Schemas['DeepLink'] };

export interface Payments {
  /** Starts the payment of an order that is CREATED. Returns a refusal (a pay result code) or the fields of the 0000 answer. */
  start(order: Order, body: PayBody): Refusal | { fields: StartedPayment; txn: Transaction };
  /** Ends a pending transaction: success pays the order, failure closes it. */
  complete(txn: Transaction, result: PaymentResult): Transaction;
  /** txnInfo of a transaction, with its checksumHash (section 2.12). */
  txnInfoOf(txn: Transaction): Schemas['TransactionInfo'] & { checksumHash: string };
}

export function createPayments({
  store,
  instruments,
  clock,
  config,
  baseUrl,
}: {
  store: Store;
  instruments: Instruments;
  clock: Clock;
  config: SandboxConfig;
  baseUrl: () => string;
}): Payments {
  const decide = createDecide({ store, instruments, clock });
  const complete = (txn: Transaction, result: PaymentResult) => completePayment(store, clock, txn, result);
  const txnInfo = (txn: Transaction) => txnInfoOf(txn, config.merchantKey);

  return {
    start(order, body) {
      const how = decide(order, body);
      if ('code' in how) return how;
      const now = clock.now();
      const txn: Transaction = {
        txnId: digitsId(now),
        mid: order.mid,
        orderId: order.orderId,
        amount: order.amount,
        paymentMode: body.paymentMode,
        gatewayName: how.gatewayName,
        outcome: how.outcome,
        status: 'PENDING',
        bankTxnId: '',
        createdAt: now,
        ...(how.txnInfoMode ? { txnInfoMode: how.txnInfoMode } : {}),
        ...(how.vpa ? { vpa: how.vpa } : {}),
        ...(how.funding ? { funding: how.funding } : {}),
      };
      // A wallet payment in process holds its amount until it ends (decide saw it available).
      const wallet =
        how.funding && how.funding.source !== 'addMoney' ? store.wallets.get(how.funding.walletToken) : undefined;
      if (
        wallet &&
        how.funding &&
        how.funding.source !== 'addMoney' &&
        how.outcome === 'pending' &&
        hold(wallet, how.funding.source, txn.amount, now)
      )
        txn.funding = { ...how.funding, held: true };
      store.transactions.set(txn.txnId, txn);
      order.txnIds.push(txn.txnId);
      order.status = 'PENDING';
      if (how.answer === 'txnInfo') {
        if (how.outcome !== 'pending') complete(txn, how.outcome);
        return { txn, fields: { txnInfo: txnInfo(txn) } };
      }
      if (how.answer === 'deepLink') return { txn, fields: { deepLinkInfo: deepLinkOf(txn) } };
      return { txn, fields: { bankForm: bankFormOf(baseUrl(), txn, how.answer, how.bankName) } };
    },
    complete,
    txnInfoOf: txnInfo,
  };
}
