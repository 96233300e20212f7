// The sandbox holds state for a whole CI run, within bounds: at most `retention` records of each
// kind, the oldest forgotten first; payments in process, pending pre-auths and INIT tokens set
// aside up to as many more (D-67); transaction tokens, wallet blocks, customers, token histories
// and scheduled jobs bounded too; and the control API lists a page at a time.
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { clientFor, control, MID, order, payBody, sandboxFor, tokenizeBody } from './support.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

describe('sandbox retention', () => {
  it('forgets the oldest orders past the retention, but never one whose payment is in process', async () => {
    const s = await sandboxFor({ retention: 5 });
    sandbox = s;
    const client = clientFor(s);
    // The first order's payment stays in process (the slow wallet), so it is kept.
    const pending = order(s, '1.00', { svcSsoToken: 'sso-pending-wallet' });
    await client.initiatePayment({
      txnToken: pending.txnToken,
      body: payBody(pending.orderId, { paymentMode: 'WALLET', walletInfo: { paymentFlow: 'PAY' } }),
    });
    const created = Array.from({ length: 12 }, () => order(s, '1.00'));
    const known = async (orderId: string) => (await control(s, 'GET', `/sandbox/orders/${orderId}`)).status;
    expect(await known(pending.orderId)).toBe(200);
    expect(await Promise.all(created.slice(0, 7).map((o) => known(o.orderId)))).toEqual(Array(7).fill(404));
    expect(await Promise.all(created.slice(-4).map((o) => known(o.orderId)))).toEqual(Array(4).fill(200));
    // A token of a forgotten order is refused as the service refuses an unknown one.
    const forgotten = created[0]!;
    const paid = await client.initiatePayment({
      txnToken: forgotten.txnToken,
      body: payBody(forgotten.orderId, { paymentMode: 'WALLET', walletInfo: { paymentFlow: 'PAY' } }),
    });
    expect(paid.code).toBe('1006');
  });

  it('keeps at most `retention` card tokens and deliveries', async () => {
    const s = await sandboxFor({ retention: 3 });
    sandbox = s;
    const client = clientFor(s);
    const tins: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await client.tokenizeCard({ mid: MID, body: await tokenizeBody(s, '4111111111111111') });
      tins.push(r.data.body.tokenIndexNumber as string);
    }
    await s.idle();
    expect(
      (await control(s, 'GET', '/sandbox/tokens')).json.tokens.map(
        (t: { tokenIndexNumber: string }) => t.tokenIndexNumber,
      ),
    ).toEqual(tins.slice(-3));
    expect(s.deliveries().length).toBeLessThanOrEqual(3 + 1);
  });
});

describe('sandbox retention: every kind of record', () => {
  const walletOf = async (s: Sandbox, name: string) =>
    (await control(s, 'GET', '/sandbox/wallets')).json.wallets.find((w: any) => w.name === name);
  const kept = async (s: Sandbox) => (await control(s, 'GET', '/sandbox')).json.retention.kept;

  it('payments in process at the head do not stop forgetting behind them; past the retention the longest kept end, their money back', async () => {
    const s = await sandboxFor({ retention: 5 });
    sandbox = s;
    const client = clientFor(s);
    const pending: string[] = [];
    for (let i = 0; i < 70; i++) {
      const o = order(s, '1.00', { svcSsoToken: 'sso-pending-wallet' });
      await client.initiatePayment({
        txnToken: o.txnToken,
        body: payBody(o.orderId, { paymentMode: 'WALLET', walletInfo: { paymentFlow: 'PAY' } }),
      });
      pending.push(o.orderId);
    }
    const created = Array.from({ length: 20 }, () => order(s, '1.00').orderId);
    const known = async (ids: string[]) =>
      (await Promise.all(ids.map(async (id) => (await control(s, 'GET', `/sandbox/orders/${id}`)).status))).filter(
        (x) => x === 200,
      ).length;
    // The 5 newest orders, and 5 payments in process set aside: past 5, the one set aside longest went.
    expect(await known(created)).toBe(5);
    expect(await known(created.slice(-5))).toBe(5);
    expect(await known(pending)).toBe(5);
    expect(await known(pending.slice(-5))).toBe(5);
    // What the forgotten payments held in the slow wallet is available again.
    expect((await walletOf(s, 'slow')).balanceUnblocked).toBe('9995.00');
    // A payment in process that is kept completes.
    expect(
      (await control(s, 'POST', `/sandbox/orders/${pending[69]}/complete`, { outcome: 'success' })).json.order.status,
    ).toBe('PAID');
    expect(await kept(s)).toMatchObject({ orders: 10, transactions: 5 });
  });

  it('INIT tokens at the head do not stop forgetting behind them; past the retention their scheduled changes are forgotten with them', async () => {
    const s = await sandboxFor({ retention: 3 });
    sandbox = s;
    const client = clientFor(s);
    for (let i = 0; i < 70; i++)
      await client.tokenizeCard({ mid: MID, body: await tokenizeBody(s, '5555555555554444') });
    const active: string[] = [];
    for (let i = 0; i < 10; i++)
      active.push(
        (await client.tokenizeCard({ mid: MID, body: await tokenizeBody(s, '4111111111111111') })).data.body
          .tokenIndexNumber as string,
      );
    const tokens = (await control(s, 'GET', '/sandbox/tokens?limit=1000')).json.tokens as {
      tokenIndexNumber: string;
      tokenStatus: string;
    }[];
    expect(tokens.filter((t) => t.tokenStatus === 'ACTIVE').map((t) => t.tokenIndexNumber)).toEqual(active.slice(-3));
    expect(tokens.filter((t) => t.tokenStatus === 'INIT')).toHaveLength(3);
    expect((await control(s, 'GET', '/sandbox/clock')).json.pendingTokenChanges).toBe(3);
    await s.idle();
    await s.clock.advance(60_000);
    expect(
      (await control(s, 'GET', '/sandbox/tokens?limit=1000')).json.tokens.map(
        (t: { tokenStatus: string }) => t.tokenStatus,
      ),
    ).toEqual(Array(6).fill('ACTIVE'));
  });

  it('transaction tokens: at most `retention`, the oldest forgotten first (1006), whatever their expiry', async () => {
    const s = await sandboxFor({ retention: 3 });
    sandbox = s;
    const first = order(s, '1.00');
    const later: string[] = [];
    for (let i = 0; i < 5; i++)
      later.push((await control(s, 'POST', `/sandbox/orders/${first.orderId}/token`)).json.txnToken);
    const pay = (txnToken: string) =>
      clientFor(s).initiatePayment({
        txnToken,
        body: payBody(first.orderId, { paymentMode: 'WALLET', walletInfo: { paymentFlow: 'PAY' } }),
      });
    expect((await pay(first.txnToken)).code).toBe('1006');
    expect((await pay(later[1]!)).code).toBe('1006');
    expect((await pay(later[4]!)).code).toBe('0000');
    expect((await kept(s)).txnTokens).toBe(3);
  });

  it('wallet blocks end with their pre-auth: at most `retention` of them, the money of the forgotten ones available again', async () => {
    const s = await sandboxFor({ retention: 3 });
    sandbox = s;
    const before = await walletOf(s, 'funded');
    for (let i = 0; i < 10; i++) {
      const body = {
        mid: MID,
        orderId: `PA-${i}`,
        txnAmount: '1.00',
        paymentMode: 'BALANCE',
        svcSsoToken: 'sso-funded-wallet',
        userInfo: { custId: 'C' },
      } as any;
      expect((await clientFor(s).preAuthorize({ body })).code).toBe('01');
    }
    const after = await walletOf(s, 'funded');
    expect(after.blocks.map((b: { amount: string }) => b.amount)).toEqual(['1.00', '1.00', '1.00']);
    expect(Number(before.balanceUnblocked) - Number(after.balanceUnblocked)).toBe(3);
    expect((await control(s, 'GET', '/sandbox/pre-auths/PA-0')).status).toBe(404);
    expect((await control(s, 'GET', '/sandbox/pre-auths/PA-9')).json.blockedAmount).toBe('1.00');
    expect(await kept(s)).toMatchObject({ preAuths: 3, walletBlocks: 3 });
  });

  it("a token's history keeps its latest 20 changes", async () => {
    const s = await sandboxFor();
    sandbox = s;
    const tin = (await clientFor(s).tokenizeCard({ mid: MID, body: await tokenizeBody(s, '4111111111111111') })).data
      .body.tokenIndexNumber as string;
    for (let i = 0; i < 30; i++)
      await control(s, 'POST', `/sandbox/tokens/${tin}/status`, { status: i % 2 ? 'ACTIVE' : 'SUSPENDED' });
    const { history, tokenStatus } = (await control(s, 'GET', `/sandbox/tokens/${tin}`)).json;
    expect(history).toHaveLength(20);
    expect(history.at(-1).status).toBe(tokenStatus);
  });

  it('subscriptions, their customers and tokenize request ids: at most `retention`', async () => {
    const s = await sandboxFor({ retention: 3 });
    sandbox = s;
    const client = clientFor(s);
    for (let i = 0; i < 8; i++) {
      await client.createSubscription({
        body: {
          mid: MID,
          orderId: `SUB-${i}`,
          requestType: 'SUBSCRIPTION',
          websiteName: 'WEBSTAGING',
          txnAmount: { value: '1.00', currency: 'INR' },
          userInfo: { custId: `CUST_${i}` },
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
        } as any,
      });
    }
    for (let i = 0; i < 8; i++)
      await client.tokenizeCard({ mid: MID, body: await tokenizeBody(s, '4111111111111111') });
    const list = (custId: string) => client.listSubscriptions({ token: 'SSO', body: { mid: MID, custId } as any });
    expect((await list('CUST_0')).code).toBe('200');
    expect((await list('CUST_7')).code).toBe('3006');
    expect(await kept(s)).toMatchObject({ subscriptions: 3, customers: 3, tokenizeRequestIds: 3, cardTokens: 3 });
  });

  it('GET /sandbox shows the retention and how many records of each kind are kept', async () => {
    const s = await sandboxFor({ retention: 7 });
    sandbox = s;
    expect((await control(s, 'GET', '/sandbox')).json.retention).toEqual({
      limit: 7,
      kept: {
        orders: 0,
        transactions: 0,
        txnTokens: 0,
        preAuths: 0,
        walletBlocks: 0,
        cardTokens: 0,
        subscriptions: 0,
        customers: 0,
        tokenizeRequestIds: 0,
        deliveries: 0,
        scheduledJobs: 0,
      },
    });
  });
});

describe('sandbox control listings', () => {
  it('list card tokens a page at a time, oldest first, with the cursor of the next page', async () => {
    const s = await sandboxFor();
    sandbox = s;
    const client = clientFor(s);
    const tins: string[] = [];
    for (let i = 0; i < 7; i++)
      tins.push(
        (await client.tokenizeCard({ mid: MID, body: await tokenizeBody(s, '4111111111111111') })).data.body
          .tokenIndexNumber as string,
      );
    const first = await control(s, 'GET', '/sandbox/tokens?limit=3');
    expect(first.json.tokens.map((t: { tokenIndexNumber: string }) => t.tokenIndexNumber)).toEqual(tins.slice(0, 3));
    const second = await control(s, 'GET', `/sandbox/tokens?limit=3&after=${first.json.next}`);
    expect(second.json.tokens.map((t: { tokenIndexNumber: string }) => t.tokenIndexNumber)).toEqual(tins.slice(3, 6));
    const last = await control(s, 'GET', `/sandbox/tokens?limit=3&after=${second.json.next}`);
    expect(last.json.tokens.map((t: { tokenIndexNumber: string }) => t.tokenIndexNumber)).toEqual(tins.slice(6));
    expect(last.json.next).toBeUndefined();
    expect((await control(s, 'GET', '/sandbox/tokens?limit=5000')).status).toBe(400);
    const deliveries = await control(s, 'GET', '/sandbox/webhooks/deliveries?limit=2');
    expect(deliveries.json.deliveries).toHaveLength(2);
    expect(deliveries.json.next).toBe(deliveries.json.deliveries[1].id);
  });
});
