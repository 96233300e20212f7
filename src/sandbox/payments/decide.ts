// Which instrument decides a payment, and how its answer continues: the test instrument's outcome
// (success, failure, or pending until a control call completes it), and whether pay answers with
// txnInfo at once, a bank form, a UPI form or a deep link (section 4.5). An instrument the sandbox
// cannot use refuses the payment with a pay result code.
import { passesLuhn } from '../../card/encryptCardData.js';
import type { BodyOf, ResultCodeOf, Schemas } from '../../types.js';
import type { Clock } from '../clock.js';
import type { Instruments, Outcome } from '../instruments.js';
import type { Funding, Order, Transaction } from '../records.js';
import type { Store } from '../store.js';
import { availableIn } from '../wallets.js';

/** A pay request's body. */
export type PayBody = BodyOf<'initiatePayment'>;

/** A pay result code that refuses the payment before it starts. */
export interface Refusal {
  code: ResultCodeOf<'initiatePayment'>;
  message?: string;
}

/** How the pay answer continues the payment. */
export type AnswerForm = 'txnInfo' | 'bankForm' | 'upiForm' | 'deepLink';

/** What decides the payment: the outcome of the instrument and how the answer continues. */
export interface Decision {
  outcome: Outcome;
  answer: AnswerForm;
  gatewayName: string;
  txnInfoMode?: NonNullable<Transaction['txnInfoMode']>;
  vpa?: string;
  bankName?: string;
  funding?: Funding;
}

/** The instruments pay and add-and-pay share, each with the field that names it. */
type SharedInstrument =
  | { mode: 'UPI'; payerAccount: Schemas['Vpa'] }
  | { mode: 'UPI_INTENT' }
  | { mode: 'CREDIT_CARD' | 'DEBIT_CARD'; cardInfo: Schemas['CardInfo'] }
  | { mode: 'NET_BANKING'; bankCode: string }
  | { mode: 'PPBL'; mpin: Schemas['Mpin'] };

/** The instrument that adds money in add-and-pay, named as pay names its own. */
function addMoneyInstrument(d: Schemas['AddMoneyPaymentDetails']): SharedInstrument {
  switch (d.payMethod) {
    case 'UPI':
      return { mode: 'UPI', payerAccount: d.payerAccount };
    case 'UPI_INTENT':
      return { mode: 'UPI_INTENT' };
    case 'CREDIT_CARD':
    case 'DEBIT_CARD':
      return { mode: d.payMethod, cardInfo: d.cardInfo };
    case 'NET_BANKING':
      return { mode: 'NET_BANKING', bankCode: d.bankCode };
    case 'PPBL':
      return { mode: 'PPBL', mpin: d.mpin };
  }
}

export type Decide = (order: Order, body: PayBody) => Refusal | Decision;

export function createDecide({
  store,
  instruments,
  clock,
}: {
  store: Store;
  instruments: Instruments;
  clock: Clock;
}): Decide {
  /** The card of cardInfo and its pay outcome, or a refusal (312). */
  function cardOutcome(cardInfo: Schemas['CardInfo'], mid: string): Refusal | { outcome: Outcome; bankName: string } {
    const invalid: Refusal = { code: '312' };
    if (cardInfo.cardFlowType === 'TOKEN_INDEX_NO') {
      const token = store.cardTokens.get(cardInfo.cardUniqueId);
      if (!token || token.mid !== mid || token.tokenStatus !== 'ACTIVE') return invalid;
      return { outcome: token.pay, bankName: token.issuingBankName };
    }
    const number = cardInfo.cardUniqueId;
    if (!passesLuhn(number)) return invalid;
    const now = new Date(clock.now());
    if (
      Number(cardInfo.expiryYear) * 12 + Number(cardInfo.expiryMonth) <
      now.getUTCFullYear() * 12 + now.getUTCMonth() + 1
    )
      return invalid;
    const card = instruments.card(number);
    if (card.pay === 'invalid') return invalid;
    return { outcome: card.pay, bankName: card.issuingBankName };
  }

  /** The modes shared by pay and add-money: UPI, UPI_INTENT, cards, net banking, PPBL. */
  function decideInstrument(instrument: SharedInstrument, order: Order, bankPointer: string): Refusal | Decision {
    switch (instrument.mode) {
      case 'UPI':
        return {
          outcome: instruments.vpa(instrument.payerAccount),
          answer: 'upiForm',
          gatewayName: 'UPI',
          txnInfoMode: 'UPI',
          vpa: instrument.payerAccount,
        };
      case 'UPI_INTENT':
        return { outcome: 'pending', answer: 'deepLink', gatewayName: 'UPI', txnInfoMode: 'UPI' };
      case 'CREDIT_CARD':
      case 'DEBIT_CARD': {
        const card = cardOutcome(instrument.cardInfo, order.mid);
        if ('code' in card) return card;
        return { outcome: card.outcome, answer: 'bankForm', gatewayName: 'SANDBOXBANK', bankName: card.bankName };
      }
      case 'NET_BANKING': {
        const outcome = instruments.bank(instrument.bankCode);
        if (!outcome)
          return { code: '1011', message: `Parameter [${bankPointer.slice(1).replace(/\//g, '.')}] has invalid value` };
        return { outcome, answer: 'bankForm', gatewayName: instrument.bankCode, bankName: instrument.bankCode };
      }
      case 'PPBL':
        return {
          outcome: instruments.mpin(instrument.mpin),
          answer: 'bankForm',
          gatewayName: 'PPBL',
          bankName: 'Payments Bank',
        };
    }
  }

  return function decide(order, body) {
    const wallet = store.wallets.get(order.walletToken);
    switch (body.paymentMode) {
      case 'WALLET': {
        if (body.walletInfo.paymentFlow === 'ADDNAPAY') {
          const d = body.walletInfo.addMoneyPaymentDetails;
          const via = decideInstrument(
            addMoneyInstrument(d),
            order,
            '/body/walletInfo/addMoneyPaymentDetails/bankCode',
          );
          if ('code' in via) return via;
          return {
            ...via,
            answer: d.payMethod === 'UPI_INTENT' ? 'deepLink' : 'bankForm',
            funding: { walletToken: order.walletToken, source: 'addMoney' },
          };
        }
        if (!wallet) return { code: '501' };
        // A wallet pays only what it has, whatever its test behaviour: money is never made.
        const outcome =
          availableIn(wallet, 'balance', clock.now()) >= order.amount ? (wallet.pay ?? 'success') : 'failure';
        return {
          outcome,
          answer: 'txnInfo',
          gatewayName: 'WALLET',
          txnInfoMode: 'PPI',
          funding: { walletToken: order.walletToken, source: 'balance' },
        };
      }
      case 'PAYMENT_DIGITAL_CREDIT': {
        if (!wallet) return { code: '501' };
        const outcome =
          availableIn(wallet, 'digitalCredit', clock.now()) >= order.amount ? (wallet.pay ?? 'success') : 'failure';
        return {
          outcome,
          answer: 'txnInfo',
          gatewayName: 'DIGITAL_CREDIT',
          funding: { walletToken: order.walletToken, source: 'digitalCredit' },
        };
      }
      case 'EMI': {
        const outcome = instruments.bank(body.emiInfo.channelCode);
        if (!outcome) return { code: '1011', message: 'Parameter [body.emiInfo.channelCode] has invalid value' };
        return {
          outcome,
          answer: 'bankForm',
          gatewayName: body.emiInfo.channelCode,
          bankName: body.emiInfo.channelCode,
        };
      }
      case 'UPI':
        return decideInstrument({ mode: 'UPI', payerAccount: body.payerAccount }, order, '/body/channelCode');
      case 'UPI_INTENT':
        return decideInstrument({ mode: 'UPI_INTENT' }, order, '/body/channelCode');
      case 'CREDIT_CARD':
      case 'DEBIT_CARD':
        return decideInstrument({ mode: body.paymentMode, cardInfo: body.cardInfo }, order, '/body/channelCode');
      case 'NET_BANKING':
        return decideInstrument({ mode: 'NET_BANKING', bankCode: body.channelCode }, order, '/body/channelCode');
      case 'PPBL':
        return decideInstrument({ mode: 'PPBL', mpin: body.mpin }, order, '/body/channelCode');
    }
  };
}
