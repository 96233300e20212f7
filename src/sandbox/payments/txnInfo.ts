// What a transaction reports to the merchant: txnInfo (section 2.12), signed with its checksumHash.
import type { Schemas } from '../../types.js';
import { txnDate } from '../clock.js';
import { formatPaise } from '../money.js';
import type { Transaction } from '../records.js';
import { withChecksumHash } from '../txnChecksum.js';

/** txnInfo of a transaction, with its checksumHash under the merchant key. */
export function txnInfoOf(
  txn: Transaction,
  merchantKey: string,
): Schemas['TransactionInfo'] & { checksumHash: string } {
  const txnInfo: Schemas['TransactionInfo'] = {
    MID: txn.mid,
    txnID: txn.txnId,
    orderID: txn.orderId,
    bankTxnID: txn.bankTxnId,
    txnAmount: formatPaise(txn.amount),
    currency: 'INR',
    status: txn.status,
    txnDate: txnDate(txn.createdAt),
    gatewayName: txn.gatewayName,
    ...(txn.txnInfoMode ? { paymentMode: txn.txnInfoMode } : {}),
    ...(txn.vpa ? { VPA: txn.vpa } : {}),
  };
  return withChecksumHash(txnInfo, merchantKey);
}
