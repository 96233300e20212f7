// The sandbox holds state for a whole CI run, within bounds: at most `retention` records of each
// kind (the oldest finished ones are forgotten first; payments in process are kept), expired
// transaction tokens are forgotten, and the control API lists a page at a time.
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/sandbox/index.js';
import { clientFor, control, MID, order, payBody, sandboxFor, tokenizeBody } from './sandbox.support.js';

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
    await client.initiatePayment({ txnToken: pending.txnToken, body: payBody(pending.orderId, { paymentMode: 'WALLET', walletInfo: { paymentFlow: 'PAY' } }) });
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
    expect((await control(s, 'GET', '/sandbox/tokens')).json.tokens.map((t: { tokenIndexNumber: string }) => t.tokenIndexNumber)).toEqual(tins.slice(-3));
    expect(s.deliveries().length).toBeLessThanOrEqual(3 + 1);
  });
});

describe('sandbox control listings', () => {
  it('list card tokens a page at a time, oldest first, with the cursor of the next page', async () => {
    const s = await sandboxFor();
    sandbox = s;
    const client = clientFor(s);
    const tins: string[] = [];
    for (let i = 0; i < 7; i++)
      tins.push((await client.tokenizeCard({ mid: MID, body: await tokenizeBody(s, '4111111111111111') })).data.body.tokenIndexNumber as string);
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
