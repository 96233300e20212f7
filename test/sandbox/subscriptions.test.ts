// Subscriptions against the sandbox: create (FIX and VARIABLE, the rules of section 4.7 with the
// codes and messages of 7.7, the first payment with the returned txnToken), then list by custId
// with the description's filters (3006, 200 NO CONTENT FOUND, 400).
import { describe, expect } from 'vitest';
import { verifySignature } from '../../src/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { clientFor, control, sandboxTest as it, KEY, MID, OTHER_KEY, payBody, sandboxFor } from './support.js';

let n = 0;
const fixUpi = (extra: Record<string, unknown> = {}) =>
  ({
    mid: MID,
    orderId: `SUB-ORDER-${++n}`,
    requestType: 'SUBSCRIPTION',
    websiteName: 'WEBSTAGING',
    txnAmount: { value: '1.00', currency: 'INR' },
    userInfo: { custId: 'CUST_SUBS' },
    subscriptionAmountType: 'FIX',
    renewalAmount: '299.00',
    subscriptionFrequencyUnit: 'MONTH',
    subscriptionFrequency: '1',
    subscriptionStartDate: '2026-02-01',
    subscriptionGraceDays: '2',
    subscriptionExpiryDate: '2027-01-31',
    subscriptionPaymentMode: 'UPI',
    subscriptionEnableRetry: '1',
    subscriptionRetryCount: '2',
    ...extra,
  }) as any;
const variableMandate = (extra: Record<string, unknown> = {}) =>
  ({
    mid: MID,
    orderId: `SUB-ORDER-${++n}`,
    requestType: 'SUBSCRIPTION',
    websiteName: 'WEBSTAGING',
    txnAmount: { value: '1.00', currency: 'INR' },
    userInfo: { custId: 'CUST_SUBS' },
    subscriptionAmountType: 'VARIABLE',
    subscriptionMaxAmount: '5000.00',
    subscriptionFrequencyUnit: 'YEAR',
    subscriptionStartDate: '2026-03-01',
    subscriptionExpiryDate: '2030-03-01',
    subscriptionPaymentMode: 'BANK_MANDATE',
    subscriptionEnableRetry: '0',
    ...extra,
  }) as any;
const list = (sandbox: Sandbox, body: Record<string, unknown>, client = clientFor(sandbox)) =>
  client.listSubscriptions({ token: 'SSO-TOKEN', body: { mid: MID, custId: 'CUST_SUBS', ...body } as any });

describe('sandbox create subscription', () => {
  it('creates a FIX UPI subscription: 0 Success with subscriptionId and txnToken, signed; the first payment makes it ACTIVE', async ({
    sandbox,
  }) => {
    const body = fixUpi();
    const created = await clientFor(sandbox).createSubscription({ body });
    expect(created).toMatchObject({ outcome: 'success', code: '0', message: 'Success' });
    const { subscriptionId, txnToken } = created.data.body as any;
    expect(subscriptionId).toMatch(/^SUB[0-9]{16}$/);
    expect(await verifySignature(JSON.stringify(created.data.body), KEY, created.data.head.signature)).toBe(true);
    expect((await control(sandbox, 'GET', `/sandbox/orders/${body.orderId}`)).json).toMatchObject({
      kind: 'SUBSCRIPTION',
      subscriptionId,
      txnAmount: { value: '1.00' },
      paymentModes: ['UPI', 'UPI_INTENT'],
    });
    // The first payment: requestType SUBSCRIPTION, in the subscription's payment mode.
    const client = clientFor(sandbox);
    expect(
      (
        await client.initiatePayment({
          txnToken,
          body: payBody(body.orderId, { paymentMode: 'UPI', payerAccount: 'success@upi' }),
        })
      ).code,
    ).toBe('1001');
    expect(
      (
        await client.initiatePayment({
          txnToken,
          body: {
            ...payBody(body.orderId, { paymentMode: 'NET_BANKING', channelCode: 'SBI' }),
            requestType: 'SUBSCRIPTION',
          },
        })
      ).code,
    ).toBe('317');
    const first = await client.initiatePayment({
      txnToken,
      body: {
        ...payBody(body.orderId, { paymentMode: 'UPI', payerAccount: 'success@upi' }),
        requestType: 'SUBSCRIPTION',
      },
    });
    const form = (first.data.body as any).bankForm.directForms[0];
    await fetch(form.actionURL, {
      method: 'POST',
      headers: form.headers,
      body: new URLSearchParams(form.content).toString(),
    });
    const listed = await list(sandbox, { subscriptionId });
    expect(listed).toMatchObject({
      code: '3006',
      data: {
        body: {
          subscriptionDetails: {
            subscriptionId,
            status: 'ACTIVE',
            renewalAmount: '299.00',
            subscriptionFrequencyUnit: 'MONTH',
          },
        },
      },
    });
  });

  it('creates a VARIABLE mandate subscription capped by subscriptionMaxAmount', async ({ sandbox }) => {
    const created = await clientFor(sandbox).createSubscription({ body: variableMandate() });
    expect(created.code).toBe('0');
    const { subscriptionId } = created.data.body as any;
    const listed = await list(sandbox, { subscriptionId, detailRequired: true });
    expect((listed.data.body as any).subscriptionDetails).toMatchObject({
      subscriptionId,
      status: 'INIT',
      subscriptionAmountType: 'VARIABLE',
      subscriptionMaxAmount: '5000.00',
      subscriptionPaymentMode: 'BANK_MANDATE',
      txnAmount: { value: '1.00' },
      subscriptionStartDate: '2026-03-01',
    });
  });

  it.for<[string, Record<string, unknown>, string, string]>([
    ['a start date in the past', { subscriptionStartDate: '2026-01-20' }, '1102', 'Invalid subscription start date'],
    [
      'an expiry not after the start',
      { subscriptionExpiryDate: '2026-02-01' },
      '1102',
      'Invalid subscription expiry date',
    ],
    [
      'a first payment above the renewal amount (UPI)',
      { txnAmount: { value: '300.00', currency: 'INR' } },
      '2007',
      'Txn amount is invalid',
    ],
    ['a zero first payment', { txnAmount: { value: '0', currency: 'INR' } }, '2007', 'Txn amount is invalid'],
    [
      'a renewal above the UPI limit',
      { renewalAmount: '15000.01' },
      '4001',
      'Subscription Amount Limit For UPI Breached',
    ],
    ['a zero renewal amount', { renewalAmount: '0', subscriptionPaymentMode: 'CC' }, '1102', 'Invalid renewal amount'],
    [
      'more than 3 grace days for cards',
      { subscriptionPaymentMode: 'CC', subscriptionGraceDays: '4' },
      '1102',
      'Invalid grace days for subscription',
    ],
    ['an unknown frequency unit', { subscriptionFrequencyUnit: 'FORTNIGHT' }, '4001', 'Invalid Subscription Frequency'],
    ['a missing websiteName', { websiteName: undefined }, '1007', 'Missing mandatory element'],
  ])('refuses %s', async ([_what, change, code, message], { sandbox }) => {
    const result = await clientFor(sandbox, { requests: false }).createSubscription({ body: fixUpi(change) });
    expect(result.code).toBe(code);
    if (message) expect(result.message).toBe(message);
    expect(result.data.head.signature).toHaveLength(108);
  });

  it.for<[string, Record<string, unknown>, string, string]>([
    [
      'a max amount below the first payment',
      { txnAmount: { value: '6000.00', currency: 'INR' } },
      '4001',
      'Invalid Max Amount',
    ],
    [
      'a max amount above the sandbox limit',
      { subscriptionMaxAmount: '1000000.01' },
      '1102',
      'Maximum Subscription Amount limit breached',
    ],
  ])('refuses a VARIABLE subscription with %s', async ([_what, change, code, message], { sandbox }) => {
    expect(await clientFor(sandbox).createSubscription({ body: variableMandate(change) })).toMatchObject({
      code,
      message,
    });
  });

  it('refuses a reused orderId (1102 Subscription already in progress), an unknown mid and a bad signature (2006)', async ({
    sandbox,
  }) => {
    const body = fixUpi();
    expect((await clientFor(sandbox).createSubscription({ body })).code).toBe('0');
    expect(await clientFor(sandbox).createSubscription({ body })).toMatchObject({
      code: '1102',
      message: 'Subscription already in progress',
    });
    expect(await clientFor(sandbox).createSubscription({ body: fixUpi({ mid: 'NOTAMERCHANT' }) })).toMatchObject({
      code: '2006',
    });
    expect(await clientFor(sandbox, { key: OTHER_KEY }).createSubscription({ body: fixUpi() })).toMatchObject({
      code: '2006',
      message: 'Mid is invalid',
    });
  });
});

describe('sandbox list subscriptions', () => {
  it("lists a customer's subscriptions, most recent first, with the filters of section 4.4", async ({ sandbox }) => {
    const c = `CUST_LIST_${++n}`;
    const client = clientFor(sandbox);
    const monthly = ((await client.createSubscription({ body: fixUpi({ userInfo: { custId: c } }) })).data.body as any)
      .subscriptionId;
    const yearly = (
      (await client.createSubscription({ body: variableMandate({ userInfo: { custId: c } }) })).data.body as any
    ).subscriptionId;
    const all = await list(sandbox, { custId: c });
    expect(all).toMatchObject({ code: '3006', status: 'SUCCESS', message: 'SUCCESS' });
    const details = (all.data.body as any).subscriptionDetails;
    expect(details.subscriptionId).toBe(yearly);
    expect(details.subscriptions.map((s: any) => s.subscriptionId)).toEqual([yearly, monthly]);
    expect(details).not.toHaveProperty('subscriptionStartDate');
    expect(
      (
        (await list(sandbox, { custId: c, frequencyUnit: 'MONTH' })).data.body as any
      ).subscriptionDetails.subscriptions.map((s: any) => s.subscriptionId),
    ).toEqual([monthly]);
    expect(
      ((await list(sandbox, { custId: c, subscriptionId: monthly })).data.body as any).subscriptionDetails
        .subscriptionId,
    ).toBe(monthly);
    expect((await list(sandbox, { custId: c, subsStatusFilter: 'init, active' })).code).toBe('3006');
    expect(await list(sandbox, { custId: c, subsStatusFilter: 'ACTIVE' })).toMatchObject({
      code: '200',
      message: 'NO CONTENT FOUND',
    });
    expect((await list(sandbox, { custId: c, frequencyUnit: 'WEEK' })).code).toBe('200');
    expect(await list(sandbox, { custId: 'CUST_NOBODY' })).toMatchObject({ code: '200', status: 'SUCCESS' });
  });

  it('a subscription past its expiry date lists as EXPIRED', async ({ sandbox }) => {
    const c = `CUST_EXP_${++n}`;
    const s = await sandboxFor();
    try {
      await clientFor(s).createSubscription({
        body: fixUpi({ userInfo: { custId: c }, subscriptionExpiryDate: '2026-03-01' }),
      });
      await s.clock.advance(40 * 24 * 3600 * 1000);
      const listed = await list(sandbox, { custId: c }, clientFor(s));
      expect((listed.data.body as any).subscriptionDetails.status).toBe('EXPIRED');
      expect((await list(sandbox, { custId: c, subsStatusFilter: 'EXPIRED' }, clientFor(s))).code).toBe('3006');
    } finally {
      await s.stop();
    }
    expect(s.answerProblems).toEqual([]);
  });

  it('answers 400 for a bad signature, an unknown mid and a request that breaks the contract; the version is echoed', async ({
    sandbox,
  }) => {
    expect(await list(sandbox, {}, clientFor(sandbox, { key: OTHER_KEY }))).toMatchObject({
      code: '400',
      status: 'FAILURE',
    });
    expect((await list(sandbox, { mid: 'NOTAMERCHANT' })).code).toBe('400');
    const invalid = await list(sandbox, { custId: undefined }, clientFor(sandbox, { requests: false }));
    expect(invalid).toMatchObject({
      code: '400',
      message: 'The request cannot be validated. Please refer to the doc and try again',
    });
    expect(invalid.data.head).toMatchObject({ version: 'v2' });
    expect(invalid.data.head.timestamp).toMatch(/^[0-9]{10}$/);
  });
});
