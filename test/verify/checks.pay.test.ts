// Pay's answer rules that tie it to its request: a success carries what its paymentMode continues
// with (txnInfo, bankForm or deepLinkInfo, section 4.5), and txnInfo carries its checksumHash
// (section 5, rule 1). The sandbox keeps both in every payment mode; an answer without them is found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { checkExchange } from '../../src/verify/checks.js';
import { send } from '../../src/verify/send.js';
import type { Exchange, Target } from '../../src/verify/types.js';

const MID = 'MERCHANT0001';
let sandbox: Sandbox;
let target: Target;
const budget = { maxRequests: 1_000, deadline: Number.POSITIVE_INFINITY, sent: 0 };

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  target = {
    gatewayUrl: sandbox.url,
    routerUrl: sandbox.url,
    key: 'SandboxTestKey01',
    mid: MID,
    clientId: 'C11',
    timeoutMs: 10_000,
    maxAnswerBytes: 1 << 20,
  };
});
afterAll(async () => {
  await sandbox?.stop();
});

const card = {
  cardFlowType: 'NEW_CARD',
  cardUniqueId: '4111111111111111',
  cvv: '123',
  expiryMonth: '12',
  expiryYear: '2030',
};
const MODES: [string, Record<string, unknown>][] = [
  ['WALLET', { walletInfo: { paymentFlow: 'PAY' } }],
  [
    'WALLET',
    {
      walletInfo: {
        walletType: 'SVC',
        paymentFlow: 'ADDNAPAY',
        addMoneyPaymentDetails: { payMethod: 'NET_BANKING', bankCode: 'SBI' },
      },
    },
  ],
  ['PAYMENT_DIGITAL_CREDIT', {}],
  ['UPI_INTENT', {}],
  ['UPI', { payerAccount: 'success@upi' }],
  ['CREDIT_CARD', { cardInfo: card }],
  ['DEBIT_CARD', { cardInfo: card }],
  ['NET_BANKING', { channelCode: 'SBI' }],
  ['EMI', { emiInfo: { planId: 'HDFC|6', channelCode: 'HDFC', emiType: 'STANDARD_EMI', cardType: 'CREDIT_CARD' } }],
  ['PPBL', { mpin: '1234' }],
];

async function pay(paymentMode: string, fields: Record<string, unknown>): Promise<Exchange> {
  const order = sandbox.createOrder({ txnAmount: { value: '40.00' } });
  return send(target, budget, {
    operationId: 'initiatePayment',
    token: order.txnToken,
    body: { mid: MID, orderId: order.orderId, requestType: 'PAYMENT', paymentMode, ...fields },
    note: paymentMode,
  });
}

/** The exchange with its answer's body edited, as a service could have answered it. */
function answered(exchange: Exchange, edit: (body: Record<string, unknown>) => void): Exchange {
  const answer = structuredClone(exchange.answer) as { head: unknown; body: Record<string, unknown> };
  edit(answer.body);
  const answerText = JSON.stringify(answer);
  return { ...exchange, answer: JSON.parse(answerText), answerText };
}

describe("verify's checks of pay answers", () => {
  it.each(MODES)('finds nothing in the sandbox answer of a %s payment', async (mode, fields) => {
    const exchange = await pay(mode, fields);
    expect((exchange.answer as { body: { resultInfo: { resultCode: string } } }).body.resultInfo.resultCode).toBe(
      '0000',
    );
    expect(checkExchange(target, exchange)).toEqual([]);
  });

  it('finds a success without what its paymentMode continues with (payOutcome)', async () => {
    const wallet = await pay('WALLET', { walletInfo: { paymentFlow: 'PAY' } });
    const noTxnInfo = answered(wallet, (body) => delete body.txnInfo);
    expect(checkExchange(target, noTxnInfo).map((f) => [f.rule, f.pointer])).toEqual([['payOutcome', '/body']]);
    const byCard = await pay('CREDIT_CARD', { cardInfo: card });
    const txnInfoInstead = answered(byCard, (body) => {
      body.txnInfo = (wallet.answer as { body: { txnInfo: unknown } }).body.txnInfo;
      delete body.bankForm;
    });
    expect(checkExchange(target, txnInfoInstead).map((f) => f.rule)).toContain('payOutcome');
  });

  it('finds txnInfo without its checksumHash (checksumHash), never naming its values', async () => {
    const wallet = await pay('WALLET', { walletInfo: { paymentFlow: 'PAY' } });
    const bare = answered(wallet, (body) => delete (body.txnInfo as Record<string, unknown>).checksumHash);
    const found = checkExchange(target, bare);
    expect(found.map((f) => [f.rule, f.pointer])).toEqual([['checksumHash', '/body/txnInfo/checksumHash']]);
    expect(found[0]?.message).not.toMatch(/\d{3,}/);
  });
});
