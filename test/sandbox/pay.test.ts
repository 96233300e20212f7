// Pay against the sandbox: each payment mode of section 4.5 answers as the description says
// (txnInfo for the wallet and digital credit, a bank form for cards, net banking, EMI, UPI, PPBL and
// add-and-pay, a deep link for UPI intent), and the documented test instruments decide success,
// failure or pending. Pending payments complete through the bank form or a control call.
import { describe, expect } from 'vitest';
import { txnInfoChecksumText, verifySignature, verifyTxnInfoChecksum } from '../../src/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { clientFor, control, sandboxTest as it, KEY, newCard, order, payBody } from './support.js';

/** Pays a new order of `value` with `how`; answers the call result and the order. */
async function pay(
  sandbox: Sandbox,
  how: Record<string, unknown>,
  value = '100.00',
  extra: Record<string, unknown> = {},
) {
  const o = order(sandbox, value, extra);
  const result = await clientFor(sandbox).initiatePayment({ txnToken: o.txnToken, body: payBody(o.orderId, how) });
  return { o, result, body: result.data.body as any };
}

/** Submits (or cancels) the bank form of a pay answer, as the customer's browser would. */
async function submitForm(body: any, action: 'submit' | 'cancel' = 'submit') {
  const form = body.bankForm.redirectForm ?? body.bankForm.directForms.find((f: any) => f.type === action);
  const response = await fetch(form.actionURL, {
    method: 'POST',
    headers: form.headers,
    body: new URLSearchParams({ ...form.content, action }).toString(),
  });
  return { status: response.status, json: (await response.json()) as any };
}

const orderStatus = async (sandbox: Sandbox, orderId: string) =>
  (await control(sandbox, 'GET', `/sandbox/orders/${orderId}`)).json.status;

describe('sandbox pay: wallet and digital credit answer txnInfo at once', () => {
  it('the wallet pays when its balance covers the amount; txnInfo.checksumHash verifies with the merchant key', async ({
    sandbox,
  }) => {
    const { o, result, body } = await pay(
      sandbox,
      { paymentMode: 'WALLET', walletInfo: { walletType: 'SVC', paymentFlow: 'PAY' } },
      '25.50',
    );
    expect(result).toMatchObject({ outcome: 'success', code: '0000' });
    expect(body.txnInfo).toMatchObject({
      MID: 'MERCHANT0001',
      orderID: o.orderId,
      txnAmount: '25.50',
      currency: 'INR',
      status: 'TXN_SUCCESS',
      paymentMode: 'PPI',
      gatewayName: 'WALLET',
      bankTxnID: '',
    });
    expect(body.txnInfo.txnID).toMatch(/^[0-9]{32}$/);
    expect(await verifyTxnInfoChecksum(body.txnInfo, KEY)).toBe(true);
    expect(await verifyTxnInfoChecksum({ ...body.txnInfo, txnAmount: '2550.00' }, KEY)).toBe(false);
    expect(txnInfoChecksumText({ b: '2', A: null, checksumHash: 'x', a: 1 })).toBe('|1|2');
    // Keys in UTF-16 code-unit order, as a sorted map of Java strings holds them: a character past
    // U+FFFF (a surrogate pair, from U+D800) comes before U+FFFF itself.
    expect(txnInfoChecksumText({ '\uffff': 'b', '\u{1F600}': 'a', z: 'c' })).toBe('c|a|b');
    expect(await orderStatus(sandbox, o.orderId)).toBe('PAID');
  });

  it("txnInfo.checksumHash meets the service's published checksum utility once checksumHash is taken out", async ({
    sandbox,
  }) => {
    // The utility's map reading: sorted keys, only a key spelled CHECKSUMHASH left out, null and "null" as "".
    const utilityText = (params: Record<string, unknown>) => {
      const copy = { ...params };
      delete copy.CHECKSUMHASH;
      return Object.keys(copy)
        .sort()
        .map((k) => (copy[k] !== null && String(copy[k]).toLowerCase() !== 'null' ? String(copy[k]) : ''))
        .join('|');
    };
    const { body } = await pay(sandbox, { paymentMode: 'WALLET', walletInfo: { paymentFlow: 'PAY' } }, '12.00');
    const received = JSON.parse(JSON.stringify(body.txnInfo));
    const { checksumHash, ...rest } = received;
    // As received, the utility hashes the signature into its own input: never valid.
    expect(await verifySignature(utilityText(received), KEY, checksumHash)).toBe(false);
    expect(await verifySignature(utilityText(rest), KEY, checksumHash)).toBe(true);
    // verifyTxnInfoChecksum takes the object as received, and reads values as the utility does.
    expect(await verifyTxnInfoChecksum(received, KEY)).toBe(true);
    expect(txnInfoChecksumText({ a: 'NULL', b: 'x', CHECKSUMHASH: 'y' })).toBe(
      utilityText({ a: 'NULL', b: 'x', CHECKSUMHASH: 'y' }),
    );
  });

  it('the wallet of a low balance fails the payment (TXN_FAILURE) and the order closes', async ({ sandbox }) => {
    const { o, result, body } = await pay(
      sandbox,
      { paymentMode: 'WALLET', walletInfo: { paymentFlow: 'PAY' } },
      '50.00',
      { svcSsoToken: 'sso-low-balance' },
    );
    expect(result.code).toBe('0000');
    expect(body.txnInfo.status).toBe('TXN_FAILURE');
    expect(await orderStatus(sandbox, o.orderId)).toBe('CLOSED');
  });

  it('the slow wallet leaves the payment PENDING until a control call completes it', async ({ sandbox }) => {
    const { o, body } = await pay(sandbox, { paymentMode: 'WALLET', walletInfo: { paymentFlow: 'PAY' } }, '5.00', {
      svcSsoToken: 'sso-pending-wallet',
    });
    expect(body.txnInfo.status).toBe('PENDING');
    expect(await orderStatus(sandbox, o.orderId)).toBe('PENDING');
    const done = await control(sandbox, 'POST', `/sandbox/orders/${o.orderId}/complete`, { outcome: 'success' });
    expect(done.json.txnInfo).toMatchObject({ status: 'TXN_SUCCESS', orderID: o.orderId });
    expect(await verifyTxnInfoChecksum(done.json.txnInfo, KEY)).toBe(true);
    expect(await orderStatus(sandbox, o.orderId)).toBe('PAID');
    expect(
      (await control(sandbox, 'POST', `/sandbox/orders/${o.orderId}/complete`, { outcome: 'success' })).status,
    ).toBe(409);
  });

  it('PAYMENT_DIGITAL_CREDIT pays from the digital credit line, and fails above it', async ({ sandbox }) => {
    const ok = await pay(sandbox, { paymentMode: 'PAYMENT_DIGITAL_CREDIT' }, '500.00');
    expect(ok.body.txnInfo).toMatchObject({ status: 'TXN_SUCCESS', gatewayName: 'DIGITAL_CREDIT' });
    expect(ok.body.txnInfo).not.toHaveProperty('paymentMode');
    const over = await pay(sandbox, { paymentMode: 'PAYMENT_DIGITAL_CREDIT' }, '1.00', {
      svcSsoToken: 'sso-low-balance',
    });
    expect(over.body.txnInfo.status).toBe('TXN_FAILURE');
  });
});

describe('sandbox pay: bank forms', () => {
  it.for([
    ['4111111111111111', 'TXN_SUCCESS', 'PAID'],
    ['4000000000000002', 'TXN_FAILURE', 'CLOSED'],
  ])(
    'a new card %s continues on a bank form whose submission ends %s',
    async ([card, txnStatus, finalStatus], { sandbox }) => {
      const { o, result, body } = await pay(sandbox, newCard(card));
      expect(result.code).toBe('0000');
      expect(body.bankForm).toMatchObject({
        pageType: 'redirect',
        redirectForm: { method: 'post', type: 'redirect' },
        displayField: { amount: '100.00' },
      });
      expect(body.bankForm.redirectForm.actionURL.startsWith(`${sandbox.url}/sandbox/bank-form/`)).toBe(true);
      expect(await orderStatus(sandbox, o.orderId)).toBe('PENDING');
      const submitted = await submitForm(body);
      expect(submitted).toMatchObject({
        status: 200,
        json: { txnInfo: { status: txnStatus }, order: { status: finalStatus } },
      });
      expect((await submitForm(body)).status).toBe(409);
    },
  );

  it('the pending test card stays PENDING after the bank form until a control call completes it', async ({
    sandbox,
  }) => {
    const { o, body } = await pay(sandbox, newCard('4000000000000010', 'CREDIT_CARD'));
    expect((await submitForm(body)).status).toBe(202);
    expect(await orderStatus(sandbox, o.orderId)).toBe('PENDING');
    expect(sandbox.completePayment(o.orderId, 'failure').txnInfo.status).toBe('TXN_FAILURE');
    expect(await orderStatus(sandbox, o.orderId)).toBe('CLOSED');
  });

  it('an invalid card is refused at once with 312 and the order stays payable', async ({ sandbox }) => {
    const { o, result } = await pay(sandbox, newCard('4000000000000036'));
    expect(result).toMatchObject({ outcome: 'failure', code: '312', message: 'Invalid card details' });
    const luhn = await clientFor(sandbox).initiatePayment({
      txnToken: o.txnToken,
      body: payBody(o.orderId, newCard('4111111111111112')),
    });
    expect(luhn.code).toBe('312');
    const expired = await clientFor(sandbox).initiatePayment({
      txnToken: o.txnToken,
      body: payBody(o.orderId, {
        paymentMode: 'DEBIT_CARD',
        cardInfo: {
          cardFlowType: 'NEW_CARD',
          cardUniqueId: '4111111111111111',
          cvv: '123',
          expiryMonth: '12',
          expiryYear: '2025',
        },
      }),
    });
    expect(expired.code).toBe('312');
    expect(await orderStatus(sandbox, o.orderId)).toBe('CREATED');
  });

  it("a network token (CARD_TOKEN) pays as the token PAN's test card says", async ({ sandbox }) => {
    const { body } = await pay(sandbox, {
      paymentMode: 'CREDIT_CARD',
      cardInfo: {
        cardFlowType: 'CARD_TOKEN',
        cardUniqueId: '4111111111111111',
        cvv: '123',
        expiryMonth: '12',
        expiryYear: '2030',
        cardTokenInfo: {
          cardToken: '4111111111111111',
          tokenExpiry: '122030',
          TAVV: 'TAVV-TEST',
          cardSuffix: '1111',
          panUniqueReference: 'PUR-1',
          tokenType: 'ALTERNATE',
        },
      },
    });
    expect((await submitForm(body)).json.txnInfo.status).toBe('TXN_SUCCESS');
  });

  it.for([
    ['SBI', 'TXN_SUCCESS'],
    ['ICICI', 'TXN_FAILURE'],
  ])('net banking with bank code %s ends %s', async ([bank, status], { sandbox }) => {
    const { body } = await pay(sandbox, { paymentMode: 'NET_BANKING', channelCode: bank });
    expect(body.bankForm.displayField.bankName).toBe(bank);
    expect((await submitForm(body)).json.txnInfo.status).toBe(status);
  });

  it('net banking with a bank code the sandbox does not know is refused with 1011', async ({ sandbox }) => {
    const { result } = await pay(sandbox, { paymentMode: 'NET_BANKING', channelCode: 'NOBANK' });
    expect(result).toMatchObject({ code: '1011', message: 'Parameter [body.channelCode] has invalid value' });
  });

  it('EMI continues on the bank form of emiInfo.channelCode', async ({ sandbox }) => {
    const { body } = await pay(sandbox, {
      paymentMode: 'EMI',
      emiInfo: { planId: 'HDFC|6', channelCode: 'HDFC', emiType: 'STANDARD_EMI', cardType: 'CREDIT_CARD' },
    });
    expect((await submitForm(body)).json.txnInfo.status).toBe('TXN_SUCCESS');
  });

  it.for([
    ['1234', 'TXN_SUCCESS'],
    ['0000', 'TXN_FAILURE'],
    ['4321', 'TXN_FAILURE'],
  ])('PPBL with MPIN %s ends %s', async ([mpin, status], { sandbox }) => {
    const { body } = await pay(sandbox, { paymentMode: 'PPBL', mpin });
    expect((await submitForm(body)).json.txnInfo.status).toBe(status);
  });

  it('UPI collect answers a direct bank form: submit ends as the VPA says, cancel fails', async ({ sandbox }) => {
    const ok = await pay(sandbox, { paymentMode: 'UPI', payerAccount: 'success@upi' });
    expect(ok.body.bankForm.pageType).toBe('direct');
    expect(ok.body.bankForm.directForms.map((f: any) => f.type)).toEqual(['submit', 'cancel']);
    expect((await submitForm(ok.body)).json.txnInfo).toMatchObject({
      status: 'TXN_SUCCESS',
      paymentMode: 'UPI',
      VPA: 'success@upi',
    });
    const cancelled = await pay(sandbox, { paymentMode: 'UPI', payerAccount: 'success@upi' });
    expect((await submitForm(cancelled.body, 'cancel')).json.txnInfo.status).toBe('TXN_FAILURE');
  });

  it('wallet add-and-pay continues on the bank form of the add-money instrument', async ({ sandbox }) => {
    const { o, body } = await pay(
      sandbox,
      {
        paymentMode: 'WALLET',
        walletInfo: {
          walletType: 'SVC',
          paymentFlow: 'ADDNAPAY',
          addMoneyPaymentDetails: { payMethod: 'NET_BANKING', bankCode: 'SBI' },
        },
      },
      '40.00',
      { svcSsoToken: 'sso-low-balance' },
    );
    expect(body.bankForm.pageType).toBe('redirect');
    expect((await submitForm(body)).json.txnInfo.status).toBe('TXN_SUCCESS');
    expect(await orderStatus(sandbox, o.orderId)).toBe('PAID');
    const wallets = (await control(sandbox, 'GET', '/sandbox/wallets')).json.wallets;
    expect(wallets.find((w: any) => w.name === 'low').balance).toBe('0.00');
  });
});

describe('sandbox pay: UPI intent', () => {
  it('answers deepLinkInfo and waits for a control call', async ({ sandbox }) => {
    const { o, body } = await pay(sandbox, { paymentMode: 'UPI_INTENT' }, '12.00');
    expect(body.deepLinkInfo.url).toMatch(/^upi:\/\/pay\?pa=merchant0001%40sandbox&.*am=12\.00&cu=INR$/);
    expect(body).not.toHaveProperty('bankForm');
    expect(await orderStatus(sandbox, o.orderId)).toBe('PENDING');
    const done = await control(sandbox, 'POST', `/sandbox/orders/${o.orderId}/complete`, { outcome: 'success' });
    expect(done.json.txnInfo).toMatchObject({ status: 'TXN_SUCCESS', paymentMode: 'UPI' });
    expect((await control(sandbox, 'POST', `/sandbox/orders/${o.orderId}/complete`, { outcome: 'maybe' })).status).toBe(
      400,
    );
  });
});

describe('sandbox pay: what the wallet balance shows', () => {
  it('a wallet payment lowers the balance the control API shows', async ({ sandbox }) => {
    const before = (await control(sandbox, 'GET', '/sandbox/wallets')).json.wallets.find((w: any) => w.name === 'slow');
    const { o } = await pay(sandbox, { paymentMode: 'WALLET', walletInfo: { paymentFlow: 'PAY' } }, '100.00', {
      svcSsoToken: 'sso-pending-wallet',
    });
    sandbox.completePayment(o.orderId, 'success');
    const after = (await control(sandbox, 'GET', '/sandbox/wallets')).json.wallets.find((w: any) => w.name === 'slow');
    expect(Number(before.balance) - Number(after.balance)).toBe(100);
  });

  it('every wallet conserves money: payments in process hold their amount, and no balance goes below zero', async ({
    sandbox,
  }) => {
    const slow = async () =>
      (await control(sandbox, 'GET', '/sandbox/wallets')).json.wallets.find((w: any) => w.name === 'slow');
    const start = await slow();
    // Three payments that together ask more than the wallet holds: the third cannot be held.
    const amount = ((Number(start.balanceUnblocked) * 0.6) | 0).toFixed(2);
    const results = [];
    for (let i = 0; i < 3; i++)
      results.push(
        await pay(sandbox, { paymentMode: 'WALLET', walletInfo: { paymentFlow: 'PAY' } }, amount, {
          svcSsoToken: 'sso-pending-wallet',
        }),
      );
    expect(results.map((r) => r.body.txnInfo.status)).toEqual(['PENDING', 'TXN_FAILURE', 'TXN_FAILURE']);
    expect(Number((await slow()).balanceUnblocked)).toBeCloseTo(Number(start.balanceUnblocked) - Number(amount), 2);
    sandbox.completePayment(results[0]!.o.orderId, 'success');
    const end = await slow();
    expect(Number(end.balance)).toBeCloseTo(Number(start.balance) - Number(amount), 2);
    expect(Number(end.balance)).toBeGreaterThanOrEqual(0);
    expect(end.balance).toMatch(/^[0-9]+\.[0-9]{2}$/);
  });

  it('a payment in process that fails gives its held amount back', async ({ sandbox }) => {
    const slow = async () =>
      (await control(sandbox, 'GET', '/sandbox/wallets')).json.wallets.find((w: any) => w.name === 'slow');
    const start = await slow();
    const { o } = await pay(sandbox, { paymentMode: 'WALLET', walletInfo: { paymentFlow: 'PAY' } }, '7.00', {
      svcSsoToken: 'sso-pending-wallet',
    });
    expect(Number((await slow()).balanceUnblocked)).toBeCloseTo(Number(start.balanceUnblocked) - 7, 2);
    sandbox.completePayment(o.orderId, 'failure');
    expect(await slow()).toMatchObject({ balance: start.balance, balanceUnblocked: start.balanceUnblocked });
  });
});
