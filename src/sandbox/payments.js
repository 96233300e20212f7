// The payment of an order: which instrument decides the outcome, what the pay answer carries
// (txnInfo at once, a bank form, or a deep link: section 4.5), and how a pending payment completes
// (the bank form's action, or a control call). Completing settles the order (PAID, or CLOSED when the
// payment failed), the wallet, and the pre-auth or subscription the order belongs to.
import { passesLuhn } from '../card/encryptCardData.js';
import { availableIn } from './store.js';
import { digitsId } from './ids.js';
import { formatPaise } from './money.js';
import { txnDate } from './clock.js';
import { withChecksumHash } from './txnChecksum.js';

/** @typedef {import('./store.js').Order} Order @typedef {import('./store.js').Transaction} Transaction */
/** @typedef {import('./instruments.js').Outcome} Outcome */
/** @typedef {{ code: string, message?: string }} Refusal */

/**
 * @param {{ store: import('./store.js').Store, instruments: import('./instruments.js').Instruments, clock: import('./clock.js').Clock,
 *   config: import('./config.js').SandboxConfig, baseUrl: () => string }} deps
 */
export function createPayments({ store, instruments, clock, config, baseUrl }) {
  /** The card of cardInfo and its pay outcome, or a refusal (312). @param {any} cardInfo @param {string} mid */
  function cardOutcome(cardInfo, mid) {
    /** @type {Refusal} */
    const invalid = { code: '312' };
    if (cardInfo.cardFlowType === 'TOKEN_INDEX_NO') {
      const token = store.cardTokens.get(cardInfo.cardUniqueId);
      if (!token || token.mid !== mid || token.tokenStatus !== 'ACTIVE') return invalid;
      return { outcome: /** @type {Outcome} */ (token.pay), bankName: token.issuingBankName };
    }
    const number = cardInfo.cardUniqueId;
    if (!passesLuhn(number)) return invalid;
    const now = new Date(clock.now());
    if (Number(cardInfo.expiryYear) * 12 + Number(cardInfo.expiryMonth) < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) return invalid;
    const card = instruments.card(number);
    if (card.pay === 'invalid') return invalid;
    return { outcome: card.pay, bankName: card.issuingBankName };
  }

  /**
   * What decides the payment: the outcome of the instrument and how the answer continues.
   * @param {Order} order @param {any} body the pay request body
   * @returns {Refusal | { outcome: Outcome, answer: 'txnInfo' | 'bankForm' | 'upiForm' | 'deepLink', gatewayName: string, txnInfoMode?: 'PPI' | 'UPI', vpa?: string, bankName?: string, funding?: Transaction['funding'] }}
   */
  function decide(order, body) {
    const wallet = store.wallets.get(order.walletToken);
    switch (body.paymentMode) {
      case 'WALLET': {
        if (body.walletInfo.paymentFlow === 'ADDNAPAY') {
          const d = body.walletInfo.addMoneyPaymentDetails;
          const via = decideInstrument(d.payMethod, { cardInfo: d.cardInfo, payerAccount: d.payerAccount, channelCode: d.bankCode, mpin: d.mpin }, order, '/body/walletInfo/addMoneyPaymentDetails/bankCode');
          if ('code' in via) return via;
          return { ...via, answer: d.payMethod === 'UPI_INTENT' ? 'deepLink' : 'bankForm', funding: { walletToken: order.walletToken, source: 'addMoney' } };
        }
        if (!wallet) return { code: '501' };
        const outcome = wallet.pay ?? (availableIn(wallet, 'balance', clock.now()) >= order.amount ? 'success' : 'failure');
        return { outcome, answer: 'txnInfo', gatewayName: 'WALLET', txnInfoMode: 'PPI', funding: { walletToken: order.walletToken, source: 'balance' } };
      }
      case 'PAYMENT_DIGITAL_CREDIT': {
        if (!wallet) return { code: '501' };
        const outcome = wallet.pay ?? (availableIn(wallet, 'digitalCredit', clock.now()) >= order.amount ? 'success' : 'failure');
        return { outcome, answer: 'txnInfo', gatewayName: 'DIGITAL_CREDIT', funding: { walletToken: order.walletToken, source: 'digitalCredit' } };
      }
      case 'EMI': {
        const outcome = instruments.bank(body.emiInfo.channelCode);
        if (!outcome) return { code: '1011', message: 'Parameter [body.emiInfo.channelCode] has invalid value' };
        return { outcome, answer: 'bankForm', gatewayName: body.emiInfo.channelCode, bankName: body.emiInfo.channelCode };
      }
      default:
        return decideInstrument(body.paymentMode, body, order, '/body/channelCode');
    }
  }

  /**
   * The modes shared by pay and add-money: UPI, UPI_INTENT, cards, net banking, PPBL.
   * @param {string} mode @param {{ cardInfo?: any, payerAccount?: string, channelCode?: string, mpin?: string }} fields @param {Order} order @param {string} bankPointer
   * @returns {ReturnType<typeof decide>}
   */
  function decideInstrument(mode, fields, order, bankPointer) {
    switch (mode) {
      case 'UPI':
        return { outcome: instruments.vpa(/** @type {string} */ (fields.payerAccount)), answer: 'upiForm', gatewayName: 'UPI', txnInfoMode: 'UPI', vpa: fields.payerAccount };
      case 'UPI_INTENT':
        return { outcome: 'pending', answer: 'deepLink', gatewayName: 'UPI', txnInfoMode: 'UPI' };
      case 'CREDIT_CARD':
      case 'DEBIT_CARD': {
        const card = cardOutcome(fields.cardInfo, order.mid);
        if ('code' in card) return card;
        return { outcome: card.outcome, answer: 'bankForm', gatewayName: 'SANDBOXBANK', bankName: card.bankName };
      }
      case 'NET_BANKING': {
        const outcome = instruments.bank(/** @type {string} */ (fields.channelCode));
        if (!outcome) return { code: '1011', message: `Parameter [${bankPointer.slice(1).replace(/\//g, '.')}] has invalid value` };
        return { outcome, answer: 'bankForm', gatewayName: /** @type {string} */ (fields.channelCode), bankName: fields.channelCode };
      }
      case 'PPBL':
        return { outcome: instruments.mpin(/** @type {string} */ (fields.mpin)), answer: 'bankForm', gatewayName: 'PPBL', bankName: 'Payments Bank' };
      default:
        return { code: '317' };
    }
  }

  /** The form that continues a payment on the sandbox's bank page. @param {Transaction} txn @param {'bankForm' | 'upiForm'} kind @param {string} [bankName] */
  function bankFormOf(txn, kind, bankName) {
    const actionURL = `${baseUrl()}/sandbox/bank-form/${txn.txnId}`;
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
        displayField: { amount, headerText: 'Approve the collect request in your UPI app', descriptionText: 'Sandbox: submit approves as the VPA decides, cancel declines.' },
        isForceResendOtp: false,
      };
    }
    return {
      pageType: 'redirect',
      redirectForm: { actionURL, method: 'post', type: 'redirect', headers, content: { ...content, action: 'submit' } },
      displayField: { amount, headerText: 'Sandbox bank page', bankName: bankName ?? 'Sandbox Bank', descriptionText: 'Sandbox: submitting completes the payment as the test instrument decides.' },
      isForceResendOtp: false,
    };
  }

  /** txnInfo of a transaction, with its checksumHash (section 2.12). @param {Transaction} txn */
  function txnInfoOf(txn) {
    return withChecksumHash({
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
    }, config.merchantKey);
  }

  /**
   * Ends a pending transaction: success pays the order, failure closes it.
   * @param {Transaction} txn @param {'success' | 'failure'} result
   */
  function complete(txn, result) {
    const now = clock.now();
    txn.status = result === 'success' ? 'TXN_SUCCESS' : 'TXN_FAILURE';
    txn.completedAt = now;
    const order = /** @type {Order} */ (store.order(txn.mid, txn.orderId));
    if (result === 'success') {
      if (txn.txnInfoMode !== 'PPI' && txn.gatewayName !== 'DIGITAL_CREDIT') txn.bankTxnId = digitsId(now).slice(-12);
      order.status = 'PAID';
      const wallet = txn.funding && store.wallets.get(txn.funding.walletToken);
      if (wallet && txn.funding) {
        // The wallet pays; add-and-pay first tops it up by what is missing, so it ends at zero at worst.
        const source = txn.funding.source === 'digitalCredit' ? 'digitalCredit' : 'balance';
        wallet[source] = Math.max(0, wallet[source] - txn.amount);
      }
    } else {
      order.status = 'CLOSED';
      order.closedReason = 'the payment failed';
    }
    settleOwner(order, result);
    return txn;
  }

  /** The pre-auth or subscription the order belongs to follows its first payment. @param {Order} order @param {'success' | 'failure'} result */
  function settleOwner(order, result) {
    if (order.kind === 'PRE_AUTH') {
      const preAuth = store.preAuths.get(`${order.mid}\n${order.orderId}`);
      if (preAuth && preAuth.status === 'PENDING') {
        preAuth.status = result === 'failure' ? 'FAILED' : preAuth.type === 'DELAYED_AUTH' ? 'AUTHORIZED' : 'BLOCKED';
        if (result === 'success' && preAuth.type === 'STANDARD_AUTH') preAuth.blockedAmount = preAuth.amount;
      }
    }
    if (order.kind === 'SUBSCRIPTION' && order.subscriptionId) {
      const subscription = store.subscriptions.get(order.subscriptionId);
      if (subscription && subscription.status === 'INIT') subscription.status = result === 'success' ? 'ACTIVE' : 'FAILED';
    }
  }

  return {
    /**
     * Starts the payment of an order that is CREATED. Returns a refusal (a pay result code) or the
     * fields of the 0000 answer.
     * @param {Order} order @param {any} body the pay request body
     * @returns {Refusal | { fields: Record<string, unknown>, txn: Transaction }}
     */
    start(order, body) {
      const how = decide(order, body);
      if ('code' in how) return how;
      const now = clock.now();
      /** @type {Transaction} */
      const txn = {
        txnId: digitsId(now), mid: order.mid, orderId: order.orderId, amount: order.amount, paymentMode: body.paymentMode,
        gatewayName: how.gatewayName, outcome: how.outcome, status: 'PENDING', bankTxnId: '', createdAt: now,
        ...(how.txnInfoMode ? { txnInfoMode: how.txnInfoMode } : {}), ...(how.vpa ? { vpa: how.vpa } : {}), ...(how.funding ? { funding: how.funding } : {}),
      };
      store.transactions.set(txn.txnId, txn);
      order.txnIds.push(txn.txnId);
      order.status = 'PENDING';
      if (how.answer === 'txnInfo') {
        if (how.outcome !== 'pending') complete(txn, how.outcome);
        return { txn, fields: { txnInfo: txnInfoOf(txn) } };
      }
      if (how.answer === 'deepLink') {
        const link = `upi://pay?pa=${encodeURIComponent(`${order.mid.toLowerCase()}@sandbox`)}&pn=Sandbox%20Merchant&tr=${txn.txnId}&am=${formatPaise(txn.amount)}&cu=INR`;
        return { txn, fields: { deepLinkInfo: { url: link } } };
      }
      return { txn, fields: { bankForm: bankFormOf(txn, how.answer, how.bankName) } };
    },
    complete,
    txnInfoOf,
  };
}

/** @typedef {ReturnType<typeof createPayments>} Payments */
