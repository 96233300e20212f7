// The sandbox's orders across calls: the order rows of section 3.3 (modify before payment, 1111
// while a payment is in process, 410 closed, 201 paid), at most 5 modifications, transaction tokens
// that belong to one order and expire after 15 minutes, and pay's own order checks (324, 2013, 2014).
import { describe, expect } from 'vitest';
import {
  clientFor,
  control,
  sandboxTest as it,
  KEY,
  MID,
  newCard,
  OTHER_KEY,
  order,
  payBody,
  rawCall,
  walletPay,
} from './support.js';

const goods = [{ description: 'Blue mug', quantity: '2.00', price: { value: '60.00', currency: 'INR' as const } }];
const shipping = [
  { carrier: 'Sandbox Post', trackingNo: 'TRK1', chargeAmount: { value: '10.00', currency: 'INR' as const } },
];

describe('sandbox orders (section 3.3)', () => {
  it('creates an order through the control API and answers its txnToken, marked as a sandbox extension', async ({
    sandbox,
  }) => {
    const { status, json } = await control(sandbox, 'POST', '/sandbox/orders', {
      orderId: 'ORDER-CTRL-1',
      txnAmount: { value: '250.00', currency: 'INR' },
      custId: 'CUST_001',
    });
    expect(status).toBe(201);
    expect(json).toMatchObject({
      mid: MID,
      orderId: 'ORDER-CTRL-1',
      order: {
        status: 'CREATED',
        kind: 'PAYMENT',
        txnAmount: { value: '250.00', currency: 'INR' },
        modificationsLeft: 5,
      },
    });
    expect(json.txnToken).toMatch(/^[0-9a-f]{32}$/);
    expect(Date.parse(json.txnTokenExpiresAt) - sandbox.clock.now()).toBe(15 * 60 * 1000);
    expect(
      (await control(sandbox, 'POST', '/sandbox/orders', { orderId: 'ORDER-CTRL-1', txnAmount: { value: '1.00' } }))
        .status,
    ).toBe(409);
    const bad = await control(sandbox, 'POST', '/sandbox/orders', { txnAmount: { value: '1.005', currency: 'INR' } });
    expect(bad).toMatchObject({
      status: 400,
      json: { error: { code: 'invalid-request', pointer: '/txnAmount/value' } },
    });
    expect((await control(sandbox, 'GET', '/sandbox/orders/ORDER-CTRL-1')).json).not.toHaveProperty('txnToken');
  });

  it('row 1: modify order before payment replaces amount, goods and shipping and keeps the orderId', async ({
    sandbox,
  }) => {
    const client = clientFor(sandbox);
    const o = order(sandbox, '100.00');
    const result = await client.modifyOrder({
      mid: MID,
      orderId: o.orderId,
      txnToken: o.txnToken,
      body: {
        txnAmount: { value: '130.00', currency: 'INR' },
        goodsInfo: goods,
        shippingInfo: shipping,
        extendInfo: { udf1: 'gift' },
      },
    });
    expect(result).toMatchObject({ outcome: 'success', code: '0000' });
    expect(result.data.head.signature).toHaveLength(108);
    const { json } = await control(sandbox, 'GET', `/sandbox/orders/${o.orderId}`);
    expect(json).toMatchObject({
      orderId: o.orderId,
      status: 'CREATED',
      txnAmount: { value: '130.00' },
      goodsInfo: goods,
      shippingInfo: shipping,
      extendInfo: { udf1: 'gift' },
      modifications: 1,
      modificationsLeft: 4,
    });
    // The new amount is what the payment charges.
    const paid = await client.initiatePayment({ txnToken: o.txnToken, body: walletPay(o.orderId) });
    expect(paid.code).toBe('0000');
    expect((paid.data.body as any).txnInfo).toMatchObject({
      orderID: o.orderId,
      txnAmount: '130.00',
      status: 'TXN_SUCCESS',
    });
  });

  it('row 1 limit: the sixth modification is refused with 1111 (at most 5, docs/decisions.md D-40)', async ({
    sandbox,
  }) => {
    const client = clientFor(sandbox);
    const o = order(sandbox);
    for (let i = 1; i <= 5; i++) {
      const r = await client.modifyOrder({
        mid: MID,
        orderId: o.orderId,
        txnToken: o.txnToken,
        body: { txnAmount: { value: `${100 + i}.00`, currency: 'INR' } },
      });
      expect(r.code).toBe('0000');
    }
    const sixth = await client.modifyOrder({
      mid: MID,
      orderId: o.orderId,
      txnToken: o.txnToken,
      body: { txnAmount: { value: '200.00', currency: 'INR' } },
    });
    expect(sixth).toMatchObject({
      outcome: 'failure',
      code: '1111',
      message: 'Order modification not allowed. Transaction already in process',
    });
    expect((await control(sandbox, 'GET', `/sandbox/orders/${o.orderId}`)).json).toMatchObject({
      txnAmount: { value: '105.00' },
      modifications: 5,
    });
  });

  it('row 2: modify order while a payment is in process answers 1111 and leaves the order unchanged', async ({
    sandbox,
  }) => {
    const client = clientFor(sandbox);
    const o = order(sandbox, '80.00');
    const pending = await client.initiatePayment({
      txnToken: o.txnToken,
      body: payBody(o.orderId, { paymentMode: 'UPI', payerAccount: 'pending@upi' }),
    });
    expect(pending.code).toBe('0000');
    const modify = await client.modifyOrder({
      mid: MID,
      orderId: o.orderId,
      txnToken: o.txnToken,
      body: { txnAmount: { value: '90.00', currency: 'INR' } },
    });
    expect(modify).toMatchObject({ outcome: 'failure', code: '1111' });
    expect((await control(sandbox, 'GET', `/sandbox/orders/${o.orderId}`)).json).toMatchObject({
      status: 'PENDING',
      txnAmount: { value: '80.00' },
      modifications: 0,
    });
  });

  it('row 3: modify order or pay on a closed order answers 410', async ({ sandbox }) => {
    const client = clientFor(sandbox);
    const o = order(sandbox);
    expect((await control(sandbox, 'POST', `/sandbox/orders/${o.orderId}/close`)).json).toMatchObject({
      status: 'CLOSED',
    });
    expect(await client.modifyOrder({ mid: MID, orderId: o.orderId, txnToken: o.txnToken, body: {} })).toMatchObject({
      code: '410',
      message: 'order status is closed',
    });
    expect(await client.initiatePayment({ txnToken: o.txnToken, body: walletPay(o.orderId) })).toMatchObject({
      code: '410',
      outcome: 'failure',
    });
    // A failed payment closes the order too: the merchant pays again with a new order.
    const failing = order(sandbox);
    const declined = await client.initiatePayment({
      txnToken: failing.txnToken,
      body: payBody(failing.orderId, { paymentMode: 'UPI', payerAccount: 'failure@upi' }),
    });
    const txnId = (declined.data.body as any).bankForm.directForms[0].content.txnId;
    expect(
      (await control(sandbox, 'POST', `/sandbox/bank-form/${txnId}`, { action: 'submit' })).json.txnInfo.status,
    ).toBe('TXN_FAILURE');
    expect(
      await client.initiatePayment({ txnToken: failing.txnToken, body: walletPay(failing.orderId) }),
    ).toMatchObject({ code: '410' });
  });

  it('row 4: modify order or pay on a paid order answers 201', async ({ sandbox }) => {
    const client = clientFor(sandbox);
    const o = order(sandbox);
    expect((await client.initiatePayment({ txnToken: o.txnToken, body: walletPay(o.orderId) })).code).toBe('0000');
    expect(await client.modifyOrder({ mid: MID, orderId: o.orderId, txnToken: o.txnToken, body: {} })).toMatchObject({
      code: '201',
      message: 'order is paid',
    });
    expect(await client.initiatePayment({ txnToken: o.txnToken, body: walletPay(o.orderId) })).toMatchObject({
      code: '201',
      message: 'order is paid',
    });
  });

  it('pay while a payment of the order is in process answers 324 Duplicate Order Id', async ({ sandbox }) => {
    const client = clientFor(sandbox);
    const o = order(sandbox);
    expect(
      (await client.initiatePayment({ txnToken: o.txnToken, body: payBody(o.orderId, newCard('4111111111111111')) }))
        .code,
    ).toBe('0000');
    expect(await client.initiatePayment({ txnToken: o.txnToken, body: walletPay(o.orderId) })).toMatchObject({
      code: '324',
      message: 'Duplicate Order Id',
    });
  });

  it('a transaction token expires after 15 minutes (1006); a new one from the control API works', async ({
    sandbox,
  }) => {
    const client = clientFor(sandbox);
    const o = order(sandbox);
    await sandbox.clock.advance(15 * 60 * 1000 - 1);
    expect((await client.modifyOrder({ mid: MID, orderId: o.orderId, txnToken: o.txnToken, body: {} })).code).toBe(
      '0000',
    );
    await sandbox.clock.advance(1);
    expect(await client.modifyOrder({ mid: MID, orderId: o.orderId, txnToken: o.txnToken, body: {} })).toMatchObject({
      code: '1006',
      message: 'token sent in request has expired or is invalid',
    });
    expect(await client.initiatePayment({ txnToken: o.txnToken, body: walletPay(o.orderId) })).toMatchObject({
      code: '1006',
      message: 'Your Session has expired',
    });
    const fresh = await control(sandbox, 'POST', `/sandbox/orders/${o.orderId}/token`);
    expect(fresh.status).toBe(201);
    expect((await client.initiatePayment({ txnToken: fresh.json.txnToken, body: walletPay(o.orderId) })).code).toBe(
      '0000',
    );
  });

  it('a transaction token works only for its own order: 1006 for pay, 2013 and 2014 for modify', async ({
    sandbox,
  }) => {
    const client = clientFor(sandbox);
    const a = order(sandbox);
    const b = order(sandbox);
    expect((await client.initiatePayment({ txnToken: a.txnToken, body: walletPay(b.orderId) })).code).toBe('1006');
    expect((await client.initiatePayment({ txnToken: 'f'.repeat(32), body: walletPay(a.orderId) })).code).toBe('1006');
    expect(await client.modifyOrder({ mid: MID, orderId: b.orderId, txnToken: a.txnToken, body: {} })).toMatchObject({
      code: '2014',
    });
    expect(
      await client.modifyOrder({ mid: 'MERCHANT0002', orderId: a.orderId, txnToken: a.txnToken, body: {} }),
    ).toMatchObject({ code: '2013' });
  });

  it('modify order checks an optional signature with the merchant key (1001 Invalid signature)', async ({
    sandbox,
  }) => {
    const o = order(sandbox);
    const wrong = await clientFor(sandbox, { key: OTHER_KEY }).modifyOrder({
      mid: MID,
      orderId: o.orderId,
      txnToken: o.txnToken,
      body: {},
    });
    expect(wrong).toMatchObject({ code: '1001', message: 'Invalid signature' });
    const unsigned = await clientFor(sandbox, { key: KEY }).modifyOrder({
      mid: MID,
      orderId: o.orderId,
      txnToken: o.txnToken,
      body: {},
      sign: false,
    });
    expect(unsigned.code).toBe('0000');
  });

  it("modify order refuses a zero amount with 2007 and the contract's own failures with their codes", async ({
    sandbox,
  }) => {
    const client = clientFor(sandbox);
    const o = order(sandbox);
    expect(
      await client.modifyOrder({
        mid: MID,
        orderId: o.orderId,
        txnToken: o.txnToken,
        body: { txnAmount: { value: '0', currency: 'INR' } },
      }),
    ).toMatchObject({ code: '2007' });
    const loose = clientFor(sandbox, { requests: false });
    const badCurrency = await loose.modifyOrder({
      mid: MID,
      orderId: o.orderId,
      txnToken: o.txnToken,
      body: { txnAmount: { value: '5.00', currency: 'USD' as any } },
    });
    expect(badCurrency).toMatchObject({ code: '1001', message: 'Invalid currency' });
  });

  it('pay answers 2013 and 2014 when the query disagrees with the body (validate() names them)', async ({
    sandbox,
  }) => {
    const o = order(sandbox);
    const rewrite = (name: string, value: string) => (request: Request) => {
      const url = new URL(request.url);
      url.searchParams.set(name, value);
      return fetch(new Request(url, request));
    };
    const midMismatch = await clientFor(sandbox, {
      requests: false,
      fetch: rewrite('mid', 'OTHERMID'),
    }).initiatePayment({
      txnToken: o.txnToken,
      body: walletPay(o.orderId),
    });
    expect(midMismatch).toMatchObject({
      code: '2013',
      message: 'Mid in the query param does not match the Mid in the request',
    });
    const orderMismatch = await clientFor(sandbox, {
      requests: false,
      fetch: rewrite('orderId', 'OTHER'),
    }).initiatePayment({
      txnToken: o.txnToken,
      body: walletPay(o.orderId),
    });
    expect(orderMismatch).toMatchObject({ code: '2014' });
    // Without the query at all: 1007 (mandatory element missing), in pay's own envelope.
    const noQuery = await rawCall(
      sandbox,
      '/aoa-acquiring-biz/v2/payment',
      JSON.stringify({ head: { tokenType: 'TXN_TOKEN', token: o.txnToken }, body: walletPay(o.orderId) }),
    );
    expect(noQuery.json.body.resultInfo).toMatchObject({ resultCode: '1007', resultStatus: 'F' });
    expect(JSON.parse(noQuery.headers.get('x-sandbox-issues')!)[0]).toMatchObject({
      in: 'query',
      rule: 'requiredParameters',
    });
  });

  it('pay checks requestType against the order (1001 Invalid requestType) and answers 2006 for an unknown mid', async ({
    sandbox,
  }) => {
    const client = clientFor(sandbox);
    const o = order(sandbox);
    expect(
      await client.initiatePayment({
        txnToken: o.txnToken,
        body: { ...walletPay(o.orderId), requestType: 'SUBSCRIPTION' },
      }),
    ).toMatchObject({
      code: '1001',
      message: 'Invalid requestType',
    });
    expect(
      await client.initiatePayment({ txnToken: o.txnToken, body: { ...walletPay(o.orderId), mid: 'NOTAMERCHANT' } }),
    ).toMatchObject({ code: '2006' });
  });

  it('reset forgets every order and token', async ({ sandbox }) => {
    const client = clientFor(sandbox);
    const o = order(sandbox);
    expect((await control(sandbox, 'POST', '/sandbox/reset')).status).toBe(200);
    expect((await control(sandbox, 'GET', `/sandbox/orders/${o.orderId}`)).status).toBe(404);
    expect((await client.initiatePayment({ txnToken: o.txnToken, body: walletPay(o.orderId) })).code).toBe('1006');
  });
});
