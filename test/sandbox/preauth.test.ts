// Pre-auth against the sandbox: the pre-auth rows of section 3.3 (multi-step pending with a
// txnToken, STANDARD_AUTH blocking with blockedAmount, DELAYED_AUTH blocking nothing, SR_1004,
// WM_1006) and the description's other pre-auth failures, every answer signed by the service.
import { describe, expect } from 'vitest';
import { verifySignature } from '../../src/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { clientFor, control, sandboxTest as it, KEY, MID, OTHER_KEY, payBody, rawCall } from './support.js';

let n = 0;
const nextOrderId = () => `PA-${++n}`;
const walletPreAuth = (extra: Record<string, unknown> = {}) =>
  ({
    mid: MID,
    orderId: nextOrderId(),
    txnAmount: '150.00',
    paymentMode: 'BALANCE',
    svcSsoToken: 'sso-funded-wallet',
    userInfo: { custId: 'CUST_001' },
    ...extra,
  }) as any;
const wallet = async (sandbox: Sandbox, name: string) =>
  (await control(sandbox, 'GET', '/sandbox/wallets')).json.wallets.find((w: any) => w.name === name);

describe('sandbox pre-auth (section 3.3)', () => {
  it('row 6: STANDARD_AUTH on the balance blocks the amount and answers blockedAmount, signed', async ({ sandbox }) => {
    const before = await wallet(sandbox, 'funded');
    const body = walletPreAuth({ cardPreAuthType: 'STANDARD_AUTH' });
    const result = await clientFor(sandbox).preAuthorize({ body });
    expect(result).toMatchObject({
      outcome: 'success',
      code: '01',
      data: {
        body: {
          orderId: body.orderId,
          blockedAmount: '150.00',
          status: 'TXN_SUCCESS',
          statusMessage: 'Txn Successful',
        },
      },
    });
    expect((result.data.body as any).preAuthId).toMatch(/^[0-9]{1,64}$/);
    expect(result.data.head).toMatchObject({ clientId: 'C11', version: 'v2' });
    expect(await verifySignature(JSON.stringify(result.data.body), KEY, result.data.head.signature)).toBe(true);
    const after = await wallet(sandbox, 'funded');
    expect(Number(before.balanceUnblocked) - Number(after.balanceUnblocked)).toBe(150);
    expect(after.balance).toBe(before.balance);
    expect((await control(sandbox, 'GET', `/sandbox/pre-auths/${body.orderId}`)).json).toMatchObject({
      status: 'BLOCKED',
      blockedAmount: '150.00',
      type: 'STANDARD_AUTH',
    });
  });

  it('row 6: SVC_DIGITAL_CREDIT blocks the digital credit; the block ends after preAuthBlockSeconds', async ({
    sandbox,
  }) => {
    const body = walletPreAuth({
      paymentMode: 'SVC_DIGITAL_CREDIT',
      txnAmount: '1000.00',
      preAuthBlockSeconds: '3600',
    });
    const before = await wallet(sandbox, 'funded');
    expect((await clientFor(sandbox).preAuthorize({ body })).data.body).toMatchObject({
      statusCode: '01',
      blockedAmount: '1000.00',
    });
    expect(
      Number(before.digitalCreditUnblocked) - Number((await wallet(sandbox, 'funded')).digitalCreditUnblocked),
    ).toBe(1000);
    await sandbox.clock.advance(3600 * 1000);
    expect((await wallet(sandbox, 'funded')).digitalCreditUnblocked).toBe(before.digitalCreditUnblocked);
  });

  it('row 7: DELAYED_AUTH blocks nothing and answers no blockedAmount', async ({ sandbox }) => {
    const before = await wallet(sandbox, 'funded');
    const result = await clientFor(sandbox).preAuthorize({ body: walletPreAuth({ cardPreAuthType: 'DELAYED_AUTH' }) });
    expect(result.code).toBe('01');
    expect(result.data.body).not.toHaveProperty('blockedAmount');
    expect((await wallet(sandbox, 'funded')).balanceUnblocked).toBe(before.balanceUnblocked);
  });

  it('row 5: the multi-step flow (UPI) answers 02 pending with a txnToken that pays the order', async ({ sandbox }) => {
    const body = {
      mid: MID,
      orderId: nextOrderId(),
      txnAmount: '75.00',
      paymentMode: 'UPI',
      websiteName: 'WEBSTAGING',
      userInfo: { custId: 'CUST_001' },
    } as any;
    const result = await clientFor(sandbox).preAuthorize({ body });
    expect(result).toMatchObject({
      outcome: 'pending',
      code: '02',
      status: 'PENDING',
      data: { body: { statusMessage: 'Txn Pending' } },
    });
    const txnToken = (result.data.body as any).txnToken;
    expect(txnToken).toMatch(/^[0-9a-f]{32}$/);
    // A card is not this pre-auth's mode (317); UPI intent is.
    const card = await clientFor(sandbox).initiatePayment({
      txnToken,
      body: payBody(body.orderId, {
        paymentMode: 'CREDIT_CARD',
        cardInfo: {
          cardFlowType: 'NEW_CARD',
          cardUniqueId: '4111111111111111',
          cvv: '123',
          expiryMonth: '12',
          expiryYear: '2030',
        },
      }),
    });
    expect(card.code).toBe('317');
    const paid = await clientFor(sandbox).initiatePayment({
      txnToken,
      body: payBody(body.orderId, { paymentMode: 'UPI_INTENT' }),
    });
    expect((paid.data.body as any).deepLinkInfo.url).toContain('am=75.00');
    expect((await control(sandbox, 'GET', `/sandbox/pre-auths/${body.orderId}`)).json.status).toBe('PENDING');
    sandbox.completePayment(body.orderId, 'success');
    expect((await control(sandbox, 'GET', `/sandbox/pre-auths/${body.orderId}`)).json).toMatchObject({
      status: 'BLOCKED',
      blockedAmount: '75.00',
    });
  });

  it('row 5: a card pre-auth and one with no mode run the multi-step flow too (no mode needs websiteName: 805)', async ({
    sandbox,
  }) => {
    const card = await clientFor(sandbox).preAuthorize({
      body: {
        mid: MID,
        orderId: nextOrderId(),
        txnAmount: '10.00',
        paymentMode: 'DEBIT_CARD',
        websiteName: 'W',
        userInfo: { custId: 'C' },
      },
    });
    expect(card.code).toBe('02');
    const noMode = await clientFor(sandbox).preAuthorize({
      body: { mid: MID, orderId: nextOrderId(), txnAmount: '10.00', userInfo: { custId: 'C' } },
    });
    expect(noMode).toMatchObject({ code: '805', message: 'websiteName is required for a transaction' });
  });

  it('row 8: a second pre-auth for the same order is SR_1004', async ({ sandbox }) => {
    const body = walletPreAuth();
    expect((await clientFor(sandbox).preAuthorize({ body })).code).toBe('01');
    const again = await clientFor(sandbox).preAuthorize({ body });
    expect(again).toMatchObject({
      outcome: 'failure',
      code: 'SR_1004',
      status: 'TXN_FAILURE',
      message: 'Duplicate block request for Merchant Order ID',
    });
    expect(again.data.body).toMatchObject({ orderId: body.orderId });
  });

  it('row 9: insufficient balance is WM_1006; the same orderId is then refused (350) and a new one works', async ({
    sandbox,
  }) => {
    const body = walletPreAuth({ svcSsoToken: 'sso-low-balance', txnAmount: '10.01' });
    expect(await clientFor(sandbox).preAuthorize({ body })).toMatchObject({
      code: 'WM_1006',
      message: 'Balance is insufficient for this request',
    });
    expect(await clientFor(sandbox).preAuthorize({ body: { ...body, txnAmount: '10.00' } })).toMatchObject({
      code: '350',
    });
    expect(
      (await clientFor(sandbox).preAuthorize({ body: { ...body, orderId: nextOrderId(), txnAmount: '10.00' } })).code,
    ).toBe('01');
  });

  it('orderId limits: longer than 50 characters is 332 (validate() names it), in the signed pre-auth envelope', async ({
    sandbox,
  }) => {
    const result = await clientFor(sandbox, { requests: false }).preAuthorize({
      body: walletPreAuth({ orderId: 'O'.repeat(51) }),
    });
    expect(result).toMatchObject({ code: '332', message: "Order id can't be greater than 50 characters" });
    expect(result.data.body).not.toHaveProperty('orderId');
    expect(await verifySignature(JSON.stringify(result.data.body), KEY, result.data.head.signature)).toBe(true);
  });

  it('authentication: 330 for a signature under another key or an unknown clientId, 804 without a signature', async ({
    sandbox,
  }) => {
    expect(await clientFor(sandbox, { key: OTHER_KEY }).preAuthorize({ body: walletPreAuth() })).toMatchObject({
      code: '330',
      message: 'Checksum mismatch',
    });
    expect((await clientFor(sandbox, { clientId: 'C99' }).preAuthorize({ body: walletPreAuth() })).code).toBe('330');
    const unsigned = await rawCall(
      sandbox,
      '/order/v2/preAuth',
      JSON.stringify({ head: { clientId: 'C11' }, body: walletPreAuth() }),
    );
    expect(unsigned.json.body).toMatchObject({
      statusCode: '804',
      statusMessage: 'signature is required',
      status: 'TXN_FAILURE',
    });
    expect(unsigned.status).toBe(200);
  });

  it('the wallet, merchant, amount and block period are checked: 343, 305, GE_1007, 704', async ({ sandbox }) => {
    const client = clientFor(sandbox);
    expect((await client.preAuthorize({ body: walletPreAuth({ svcSsoToken: 'sso-nobody' }) })).code).toBe('343');
    expect((await client.preAuthorize({ body: walletPreAuth({ mid: 'NOTAMERCHANT' }) })).code).toBe('305');
    expect((await client.preAuthorize({ body: walletPreAuth({ txnAmount: '0.00' }) })).code).toBe('GE_1007');
    expect((await client.preAuthorize({ body: walletPreAuth({ preAuthBlockSeconds: '604801' }) })).code).toBe('704');
  });
});
