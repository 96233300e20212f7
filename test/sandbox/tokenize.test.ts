// Tokenize against the sandbox, with the merchant's webhook receiver (createWebhookReceiver) on a
// local server: the test cards decide ACTIVE, INIT (then ACTIVE or FAILED after a delay of sandbox
// time) or FAILED, every change is notified, signed with the merchant key and judged by the
// receiver, and a control call moves tokens to SUSPENDED, ACTIVE or DEAD. An ACTIVE token pays.

import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChecksumVerifier,
  createWebhookReceiver,
  encryptCardData,
  type TokenStatusEvent,
} from '../../src/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { clientFor, control, KEY, MID, OTHER_KEY, order, payBody, sandboxFor, tokenizeBody } from './support.js';

/** A merchant's webhook endpoint: the package's receiver behind node:http, recording what it accepted. */
async function merchantEndpoint(key: string, now: () => number) {
  const events: TokenStatusEvent[] = [];
  const receiver = createWebhookReceiver({ verifier: createChecksumVerifier(key), now, expectedMid: MID });
  const server: Server = createServer(
    receiver.nodeHandler((event) => {
      events.push(event);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/token-status`,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let sandbox: Sandbox;
let merchant: Awaited<ReturnType<typeof merchantEndpoint>>;
beforeAll(async () => {
  merchant = await merchantEndpoint(KEY, () => sandbox.clock.now());
  sandbox = await sandboxFor({ webhookUrl: merchant.url, tokenActivationDelayMs: 5_000 });
});
afterAll(async () => {
  await sandbox?.stop();
  await merchant?.close();
  expect(sandbox.answerProblems).toEqual([]);
});

const tokenize = async (card: string, extra: Record<string, unknown> = {}, client = clientFor(sandbox)) =>
  client.tokenizeCard({ mid: MID, body: await tokenizeBody(sandbox, card, extra) });
const eventsOf = (tin: string) =>
  merchant.events.filter((e) => e.body.tokenInfo.tokenIndexNumber === tin).map((e) => e.body.tokenInfo.tokenStatus);
const deliveriesOf = (tin: string) => sandbox.deliveries().filter((d) => d.tokenIndexNumber === tin);

describe('sandbox tokenize and token status notifications', () => {
  it('an ACTIVE test card answers 00 ACTIVE and notifies the merchant, whose reply is validated and recorded', async () => {
    const result = await tokenize('4111111111111111');
    expect(result).toMatchObject({
      outcome: 'success',
      code: '00',
      data: { body: { mid: MID, tokenStatus: 'ACTIVE' } },
    });
    const tin = (result.data.body as any).tokenIndexNumber;
    expect(tin).toMatch(/^TIN[A-Z0-9]+$/);
    await sandbox.idle();
    const event = merchant.events.find((e) => e.body.tokenInfo.tokenIndexNumber === tin)!;
    expect(event.head).toMatchObject({ signatureType: 'CHECKSUM', version: 'v1' });
    expect(event.body).toMatchObject({
      mid: MID,
      tokenInfo: {
        tokenStatus: 'ACTIVE',
        cardScheme: 'VISA',
        cardType: 'CC',
        cardSuffix: '1111',
        tokenExpiry: '122030',
        issuingBankName: 'Sandbox Bank',
      },
    });
    expect(event.body.tokenInfo.tokenUniqueReference).toBeTruthy();
    expect(deliveriesOf(tin)).toMatchObject([
      {
        tokenStatus: 'ACTIVE',
        state: 'delivered',
        httpStatus: 200,
        code: '00',
        valid: true,
        outcome: 'success',
        url: merchant.url,
      },
    ]);
    const listed = await control(sandbox, 'GET', '/sandbox/webhooks/deliveries');
    expect(listed.json.deliveries.some((d: any) => d.tokenIndexNumber === tin && d.state === 'delivered')).toBe(true);
    expect(JSON.stringify(listed.json)).not.toContain('4111111111111111');
  });

  it('an ACTIVE token pays with cardFlowType TOKEN_INDEX_NO; a SUSPENDED one is refused (312) until ACTIVE again; DEAD is final', async () => {
    const tin = ((await tokenize('4111111111111111')).data.body as any).tokenIndexNumber;
    const saved = (o: { orderId: string }) =>
      payBody(o.orderId, {
        paymentMode: 'CREDIT_CARD',
        cardInfo: { cardFlowType: 'TOKEN_INDEX_NO', cardUniqueId: tin, cvv: '123' },
      });
    const first = order(sandbox);
    const paid = await clientFor(sandbox).initiatePayment({ txnToken: first.txnToken, body: saved(first) });
    expect((paid.data.body as any).bankForm.pageType).toBe('redirect');

    const suspended = await control(sandbox, 'POST', `/sandbox/tokens/${tin}/status`, { status: 'SUSPENDED' });
    expect(suspended).toMatchObject({
      status: 200,
      json: { token: { tokenStatus: 'SUSPENDED' }, delivery: { tokenStatus: 'SUSPENDED', state: 'delivered' } },
    });
    const second = order(sandbox);
    expect((await clientFor(sandbox).initiatePayment({ txnToken: second.txnToken, body: saved(second) })).code).toBe(
      '312',
    );
    expect(
      (await control(sandbox, 'POST', `/sandbox/tokens/${tin}/status`, { status: 'ACTIVE' })).json.delivery.state,
    ).toBe('delivered');
    expect((await clientFor(sandbox).initiatePayment({ txnToken: second.txnToken, body: saved(second) })).code).toBe(
      '0000',
    );
    expect((await control(sandbox, 'POST', `/sandbox/tokens/${tin}/status`, { status: 'DEAD' })).status).toBe(200);
    const revive = await control(sandbox, 'POST', `/sandbox/tokens/${tin}/status`, { status: 'ACTIVE' });
    expect(revive).toMatchObject({ status: 409, json: { error: { code: 'transition-not-allowed' } } });
    expect(eventsOf(tin)).toEqual(['ACTIVE', 'SUSPENDED', 'ACTIVE', 'DEAD']);
  });

  it('an INIT test card answers 100 INIT; the token becomes ACTIVE with a notification when the delay has passed', async () => {
    const result = await tokenize('5555555555554444');
    expect(result).toMatchObject({
      outcome: 'pending',
      code: '100',
      message: 'Pending',
      data: { body: { tokenStatus: 'INIT' } },
    });
    const tin = (result.data.body as any).tokenIndexNumber;
    await sandbox.clock.advance(4_999);
    expect(eventsOf(tin)).toEqual([]);
    await sandbox.clock.advance(1);
    expect(eventsOf(tin)).toEqual(['ACTIVE']);
    expect(merchant.events.find((e) => e.body.tokenInfo.tokenIndexNumber === tin)!.body.tokenInfo.cardScheme).toBe(
      'MASTER',
    );
    expect((await control(sandbox, 'GET', `/sandbox/tokens/${tin}`)).json).toMatchObject({
      tokenStatus: 'ACTIVE',
      history: [{ status: 'INIT' }, { status: 'ACTIVE' }],
    });
  });

  it('the INIT-then-FAILED test card becomes FAILED after the delay; the clock control call delivers it', async () => {
    const tin = ((await tokenize('5105105105105100')).data.body as any).tokenIndexNumber;
    const advanced = await control(sandbox, 'POST', '/sandbox/clock/advance', { seconds: 5 });
    expect(advanced.status).toBe(200);
    expect(eventsOf(tin)).toEqual(['FAILED']);
    expect(deliveriesOf(tin)[0]).toMatchObject({ state: 'delivered', tokenStatus: 'FAILED' });
  });

  it('a control call completes an INIT token before the delay, and the delay then changes nothing', async () => {
    const tin = ((await tokenize('5555555555554444')).data.body as any).tokenIndexNumber;
    expect((await control(sandbox, 'POST', `/sandbox/tokens/${tin}/status`, { status: 'SUSPENDED' })).status).toBe(409);
    expect(
      (await control(sandbox, 'POST', `/sandbox/tokens/${tin}/status`, { status: 'ACTIVE' })).json.delivery.state,
    ).toBe('delivered');
    await sandbox.clock.advance(10_000);
    expect(eventsOf(tin)).toEqual(['ACTIVE']);
  });

  it('the FAILED test card answers 730 with a FAILED token and notifies it', async () => {
    const result = await tokenize('4000000000000069');
    expect(result).toMatchObject({
      outcome: 'failure',
      code: '730',
      message: 'Error from card network',
      data: { body: { tokenStatus: 'FAILED' } },
    });
    await sandbox.idle();
    expect(eventsOf((result.data.body as any).tokenIndexNumber)).toEqual(['FAILED']);
  });

  it.each([
    ['4000000000000127', '712', 'Card not eligible'],
    ['4000000000000119', '716', 'CARD_DECLINED'],
    ['378282246310005', '420', 'Card Bin is not supported'],
  ])('test card %s is refused with %s and no token', async (card, code, message) => {
    const before = sandbox.deliveries().length;
    const result = await tokenize(card);
    expect(result).toMatchObject({ outcome: 'failure', code, message });
    expect(result.data.body).not.toHaveProperty('tokenIndexNumber');
    await sandbox.idle();
    expect(sandbox.deliveries()).toHaveLength(before);
  });

  it('RUPAY cards need authRefId (410 without it)', async () => {
    expect(await tokenize('6521111111111110')).toMatchObject({ code: '410', message: 'Mandatory fields missing' });
    expect(await tokenize('6521111111111110', { authRefId: 'AUTH-REF-1' })).toMatchObject({ code: '00' });
  });

  it('card data encrypted for another key is 711; consent 0 is 409', async () => {
    const { publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const foreign = await encryptCardData(
      { cardNumber: '4111111111111111', expiryMonth: '12', expiryYear: '2030', securityCode: '123' },
      publicKey,
      {
        now: new Date(sandbox.clock.now()),
      },
    );
    expect(await tokenize('4111111111111111', { encryptedCardData: foreign })).toMatchObject({
      code: '711',
      message: 'Invalid card details',
    });
    expect(await tokenize('4111111111111111', { encryptedCardData: 'bm90IGVuY3J5cHRlZA==' })).toMatchObject({
      code: '711',
    });
    expect(
      await tokenize('4111111111111111', {
        tokenizationConsent: { userConsent: 0, createdAt: 'Jan 21, 2026 10:15:30 AM' },
      }),
    ).toMatchObject({
      code: '409',
    });
  });

  it('authentication and request ids: 1001 for another key, 412 for a reused request id, 407 for another mid', async () => {
    expect(await tokenize('4111111111111111', {}, clientFor(sandbox, { key: OTHER_KEY }))).toMatchObject({
      code: '1001',
      message: 'Signature Validation Failure',
    });
    const client = clientFor(sandbox);
    const body = await tokenizeBody(sandbox, '4111111111111111');
    expect((await client.tokenizeCard({ mid: MID, requestId: 'REQ-FIXED-1', body })).code).toBe('00');
    expect(await client.tokenizeCard({ mid: MID, requestId: 'REQ-FIXED-1', body })).toMatchObject({
      code: '412',
      message: 'DUPLICATE_REQUEST',
    });
    expect((await client.tokenizeCard({ mid: 'OTHERMID', body })).code).toBe('407');
    const loose = clientFor(sandbox, { requests: false });
    expect(await loose.tokenizeCard({ mid: MID, body: { ...body, mid: 'OTHERMID' } })).toMatchObject({
      code: '407',
      message: 'Incorrect mid',
    });
  });

  it('the card encryption key is published by a control call', async () => {
    const { json } = await control(sandbox, 'GET', '/sandbox/card-encryption-key');
    expect(json).toMatchObject({
      publicKeyPem: sandbox.publicKeyPem,
      padding: 'RSA_PKCS1_OAEP_PADDING',
      oaepHash: 'sha256',
    });
    expect(json.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });
});

describe('sandbox webhook deliveries that do not succeed', () => {
  it("records the merchant's refusal (1001 under another key), an unreachable URL, and a missing URL", async () => {
    const refusing = await merchantEndpoint(OTHER_KEY, Date.now);
    // An address that cuts every connection: held for the whole test, so no other server can
    // take its port in between (a port found free and released could be).
    const cutting = createTcpServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => cutting.listen(0, '127.0.0.1', resolve));
    const { port } = cutting.address() as AddressInfo;
    const sandboxes = await Promise.all([
      sandboxFor({ webhookUrl: refusing.url, now: Date.now }),
      sandboxFor({ webhookUrl: `http://127.0.0.1:${port}/gone`, webhookTimeoutMs: 2_000 }),
      sandboxFor({}),
    ]);
    try {
      const states = [];
      for (const s of sandboxes) {
        await clientFor(s).tokenizeCard({ mid: MID, body: await tokenizeBody(s, '4111111111111111') });
        await s.idle();
        states.push(s.deliveries()[0]);
      }
      expect(states[0]).toMatchObject({ state: 'not-accepted', code: '1001', valid: true, outcome: 'failure' });
      expect(states[1]).toMatchObject({ state: 'failed', error: { kind: 'network' } });
      expect(states[2]).toMatchObject({ state: 'skipped', url: null });
      expect(refusing.events).toEqual([]);
    } finally {
      await Promise.all(sandboxes.map((s) => s.stop()));
      await refusing.close();
      await new Promise<void>((resolve) => cutting.close(() => resolve()));
    }
  });

  it('reads at most 16 KiB of a reply and keeps no more: an endpoint that streams forever is a failed delivery', async () => {
    let written = 0;
    const endless = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', more);
      };
      res.write('{"head":');
      more();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    const s = await sandboxFor({
      webhookUrl: `http://127.0.0.1:${(endless.address() as AddressInfo).port}/`,
      now: Date.now,
    });
    try {
      await clientFor(s).tokenizeCard({ mid: MID, body: await tokenizeBody(s, '4111111111111111') });
      await s.idle();
      const [delivery] = s.deliveries();
      expect(delivery).toMatchObject({ state: 'failed', error: { kind: 'non-json' } });
      expect(delivery?.error?.message).toMatch(/larger than 16384 bytes/);
      expect(JSON.stringify(delivery).length).toBeLessThan(4_000);
      // The sandbox keeps answering meanwhile.
      expect((await control(s, 'GET', '/sandbox/clock')).status).toBe(200);
    } finally {
      await s.stop();
      endless.closeAllConnections();
      await new Promise<void>((resolve) => endless.close(() => resolve()));
    }
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('control calls wait only for their own deliveries, and at most webhookTimeoutMs', async () => {
    const held: (() => void)[] = [];
    const slow = createServer((req, res) => {
      req.resume();
      // Answers only when the test lets it (after the control calls have answered).
      held.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const s = await sandboxFor({
      webhookUrl: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`,
      webhookTimeoutMs: 400,
    });
    try {
      const tokenized = await clientFor(s).tokenizeCard({ mid: MID, body: await tokenizeBody(s, '4111111111111111') });
      expect(tokenized.code).toBe('00');
      // Nothing falls due: the answer does not wait for the delivery of the tokenize before it.
      expect((await control(s, 'POST', '/sandbox/clock/advance', { ms: 1 })).status).toBe(200);
      expect(s.deliveries().map((d) => d.state)).toEqual(['pending']);
      // The move's notification waits behind the ACTIVE one: the answer comes after one timeout, pending.
      const tin = tokenized.data.body.tokenIndexNumber as string;
      const moved = await control(s, 'POST', `/sandbox/tokens/${tin}/status`, { status: 'SUSPENDED' });
      expect(moved.status).toBe(202);
      expect(moved.json.delivery).toMatchObject({ tokenStatus: 'SUSPENDED', state: 'pending' });
    } finally {
      for (const answer of held) answer();
      await s.stop();
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });
});
