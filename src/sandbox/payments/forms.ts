// How a payment that does not complete at once continues (section 2.13): the bank form of cards,
// net banking, EMI, PPBL and add-and-pay, the UPI collect form, both posted to the sandbox's bank
// page, and the deep link of UPI intent.
import type { Schemas } from '../../types.js';
import { formatPaise } from '../money.js';
import type { Transaction } from '../records.js';

/** The form that continues a payment on the sandbox's bank page at `baseUrl`. */
export function bankFormOf(
  baseUrl: string,
  txn: Transaction,
  kind: 'bankForm' | 'upiForm',
  bankName?: string,
): Schemas['BankForm'] {
  const actionURL = `${baseUrl}/sandbox/bank-form/${txn.txnId}`;
  const headers = { 'Content-Type': 'application/x-www-form-urlencoded' };
  const content = { txnId: txn.txnId, orderId: txn.orderId };
  const amount = formatPaise(txn.amount);
  if (kind === 'upiForm') {
    return {
      pageType: 'direct',
      directForms: [
        { actionURL, method: 'post', type: 'submit', headers, content: { ...content, action: 'submit' } },
        { actionURL, method: 'post', type: 'cancel', headers, content: { ...content, action: 'cancel' } },
      ],
      displayField: {
        amount,
        headerText: 'Approve the collect request in your UPI app',
        descriptionText: 'Sandbox: submit approves as the VPA decides, cancel declines.',
      },
      isForceResendOtp: false,
    };
  }
  return {
    pageType: 'redirect',
    redirectForm: { actionURL, method: 'post', type: 'redirect', headers, content: { ...content, action: 'submit' } },
    displayField: {
      amount,
      headerText: 'Sandbox bank page',
      bankName: bankName ?? 'Sandbox Bank',
      descriptionText: 'Sandbox: submitting completes the payment as the test instrument decides.',
    },
    isForceResendOtp: false,
  };
}

/** The UPI intent link that opens a UPI app for the payment. */
export function deepLinkOf(txn: Transaction): Schemas['DeepLink'] {
  return {
    url: `upi://pay?pa=${encodeURIComponent(`${txn.mid.toLowerCase()}@sandbox`)}&pn=Sandbox%20Merchant&tr=${txn.txnId}&am=${formatPaise(txn.amount)}&cu=INR`,
  };
}
