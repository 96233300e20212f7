// Token status notifications delivered like a real service: a notification not answered 00 is sent
// again on the sandbox clock with growing waits, up to a limit, every attempt recorded; an older
// status is not sent after a newer one reached the merchant; the faults duplicate-webhook and
// reorder-webhooks show a merchant's receiver (the package's own here) handling copies and order.

import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createChecksumVerifier,
  createWebhookReceiver,
  sendTokenNotification,
  type TokenStatusEvent,
} from '../../src/index.js';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.js';
import { FORCED_GC, runNode } from '../helpers/cli.js';
import { clientFor, control, KEY, MID, sandboxFor, T0, tokenizeBody } from './support.js';

/**
 * The merchant's endpoint: the package's receiver on node:http, reading the sandbox's clock. Its
 * handler fails (the receiver answers 500) while `failing` is above zero, counting down.
 */
async function merchantEndpoint(now: () => number) {
  const state = { failing: 0, events: [] as TokenStatusEvent[], replies: [] as string[] };
  const receiver = createWebhookReceiver({
    verifier: createChecksumVerifier(KEY),
    now,
    expectedMid: MID,
    onRejected: ({ code }) => void state.replies.push(code),
  });
  const server: Server = createServer(
    receiver.nodeHandler((event) => {
      if (state.failing > 0) {
        state.failing--;
        throw new Error('the merchant database is down');
      }
      state.events.push(event);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/token-status`,
    state,
    statuses: () => state.events.map((e) => e.body.tokenInfo.tokenStatus),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A sandbox whose webhooks go to a fresh merchant endpoint. */
async function setup(options: SandboxOptions = {}) {
  let sandbox: Sandbox | undefined;
  const merchant = await merchantEndpoint(() => sandbox?.clock.now() ?? T0);
  cleanups.push(merchant.close);
  sandbox = await sandboxFor({ webhookUrl: merchant.url, ...options });
  const s = sandbox;
  cleanups.push(() => s.stop());
  const tokenize = async (card = '4111111111111111') => {
    const result = await clientFor(s).tokenizeCard({ mid: MID, body: await tokenizeBody(s, card) });
    return result.data.body.tokenIndexNumber as string;
  };
  return { sandbox: s, merchant, tokenize };
}

const minutes = (n: number) => n * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('webhook retries', () => {
  it('sends a notification again on the sandbox clock until it is answered 00, recording every attempt', async () => {
    const { sandbox, merchant, tokenize } = await setup();
    merchant.state.failing = 2;
    const tin = await tokenize();
    await sandbox.idle();
    const [delivery] = sandbox.deliveries();
    expect(delivery).toMatchObject({
      tokenIndexNumber: tin,
      state: 'not-accepted',
      code: '500',
      nextAttemptAt: iso(T0 + minutes(1)),
    });
    expect(delivery?.attempts).toEqual([{ at: iso(T0), state: 'not-accepted', httpStatus: 200, code: '500' }]);
    // Not yet due: nothing is sent.
    await sandbox.clock.advance(minutes(1) - 1);
    expect(delivery?.attempts).toHaveLength(1);
    await sandbox.clock.advance(1);
    expect(delivery).toMatchObject({ state: 'not-accepted', code: '500', nextAttemptAt: iso(T0 + minutes(3)) });
    await sandbox.clock.advance(minutes(2));
    expect(delivery).toMatchObject({ state: 'delivered', code: '00' });
    expect(delivery?.nextAttemptAt).toBeUndefined();
    expect(delivery?.attempts.map((a) => [a.at, a.state, a.code])).toEqual([
      [iso(T0), 'not-accepted', '500'],
      [iso(T0 + minutes(1)), 'not-accepted', '500'],
      [iso(T0 + minutes(3)), 'delivered', '00'],
    ]);
    // Every attempt carried the same requestId: the merchant processed the notification once.
    expect(merchant.statuses()).toEqual(['ACTIVE']);
    expect(merchant.state.events[0]?.head.requestId).toBe(delivery?.requestId);
    // The control API shows the same record.
    const listed = (await control(sandbox, 'GET', '/sandbox/webhooks/deliveries')).json.deliveries;
    expect(listed[0]).toMatchObject({ id: delivery?.id, state: 'delivered', attempts: [{}, {}, {}] });
  });

  it('gives up after webhookRetry.retries, with waits growing by the factor; an endpoint that is down is retried too', async () => {
    const down = createTcpServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => down.close(resolve)));
    const sandbox = await sandboxFor({
      webhookUrl: `http://127.0.0.1:${(down.address() as AddressInfo).port}/`,
      webhookRetry: { retries: 2, firstDelayMs: 1_000, factor: 3 },
    });
    cleanups.push(() => sandbox.stop());
    await clientFor(sandbox).tokenizeCard({ mid: MID, body: await tokenizeBody(sandbox, '4111111111111111') });
    await sandbox.idle();
    const [delivery] = sandbox.deliveries();
    expect(delivery).toMatchObject({ state: 'failed', error: { kind: 'network' }, nextAttemptAt: iso(T0 + 1_000) });
    await sandbox.clock.advance(1_000);
    expect(delivery?.nextAttemptAt).toBe(iso(T0 + 4_000));
    await sandbox.clock.advance(3_000);
    expect(delivery?.attempts.map((a) => [a.at, a.state])).toEqual([
      [iso(T0), 'failed'],
      [iso(T0 + 1_000), 'failed'],
      [iso(T0 + 4_000), 'failed'],
    ]);
    expect(delivery?.nextAttemptAt).toBeUndefined();
    expect(delivery?.reason).toBe('No further attempt: 3 attempts made (webhookRetry.retries is 2).');
    await sandbox.clock.advance(minutes(60));
    expect(delivery?.attempts).toHaveLength(3);
  });

  it('never follows a redirect: the attempt fails as an HTTP error, is retried, and nothing goes to the other address', async () => {
    const elsewhere = await merchantEndpoint(() => T0);
    cleanups.push(elsewhere.close);
    const redirecting = createServer((req, res) => {
      res.writeHead(307, { location: `${elsewhere.url}${req.url}` });
      res.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise((resolve) => {
          redirecting.closeAllConnections();
          redirecting.close(resolve);
        }),
    );
    const sandbox = await sandboxFor({
      webhookUrl: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hook`,
    });
    cleanups.push(() => sandbox.stop());
    await clientFor(sandbox).tokenizeCard({ mid: MID, body: await tokenizeBody(sandbox, '4111111111111111') });
    await sandbox.idle();
    const [delivery] = sandbox.deliveries();
    expect(delivery).toMatchObject({ state: 'failed', error: { kind: 'http' }, nextAttemptAt: iso(T0 + minutes(1)) });
    expect(delivery?.error?.message).toMatch(/redirect/);
    expect(elsewhere.state.events).toEqual([]);
    expect(elsewhere.state.replies).toEqual([]);
  });

  it('makes no retry with retries 0, and refuses settings out of bounds', async () => {
    const { sandbox, merchant, tokenize } = await setup({ webhookRetry: { retries: 0 } });
    merchant.state.failing = 1;
    await tokenize();
    await sandbox.idle();
    await sandbox.clock.advance(minutes(60));
    expect(sandbox.deliveries()[0]).toMatchObject({ state: 'not-accepted', attempts: [{ code: '500' }] });
    expect(sandbox.deliveries()[0]?.nextAttemptAt).toBeUndefined();
    for (const webhookRetry of [
      { retries: 11 },
      { retries: -1 },
      { factor: 0.5 },
      { firstDelayMs: 1.5 },
      { factor: Number.NaN },
    ])
      await expect(sandboxFor({ webhookRetry })).rejects.toThrow(/webhookRetry/);
  });

  it('sends no older status after a newer one reached the merchant', async () => {
    const { sandbox, merchant, tokenize } = await setup();
    merchant.state.failing = 1;
    const tin = await tokenize();
    await sandbox.idle();
    expect(sandbox.deliveries()[0]).toMatchObject({ tokenStatus: 'ACTIVE', nextAttemptAt: iso(T0 + minutes(1)) });
    const moved = await control(sandbox, 'POST', `/sandbox/tokens/${tin}/status`, { status: 'SUSPENDED' });
    expect(moved.json.delivery).toMatchObject({ tokenStatus: 'SUSPENDED', state: 'delivered' });
    const [active] = sandbox.deliveries();
    expect(active?.nextAttemptAt).toBeUndefined();
    expect(active?.reason).toBe(
      `No further attempt: ${moved.json.delivery.id}, a later status of this token, was delivered.`,
    );
    await sandbox.clock.advance(minutes(60));
    expect(merchant.statuses()).toEqual(['SUSPENDED']);
  });

  it('a reset forgets the retries it would have made', async () => {
    const { sandbox, merchant, tokenize } = await setup();
    merchant.state.failing = 5;
    await tokenize();
    await sandbox.idle();
    sandbox.reset();
    merchant.state.failing = 0;
    await sandbox.clock.advance(minutes(60));
    expect(sandbox.deliveries()).toEqual([]);
    expect(merchant.statuses()).toEqual([]);
  });
});

describe('webhook time limits, whatever the garbage collector does', () => {
  it('a merchant that accepts and never answers: each attempt fails in time, its retry runs, and the process ends after stop()', {
    timeout: 60_000,
  }, async () => {
    // In a Node process of its own (the built package), its garbage collector forced every 5 ms.
    const code = `
import { createServer } from 'node:http';
import { createChecksumSigner, createGatewayClient, encryptCardData, SANDBOX_DEFAULT_MERCHANT_KEY, SANDBOX_DEFAULT_MID } from 'gateway-contract';
import { startSandbox } from 'gateway-contract/sandbox';
// Accepts every request and never answers; the sockets of requests still open are counted.
const open = new Set();
const merchant = createServer((req) => {
  open.add(req.socket);
  req.socket.on('close', () => open.delete(req.socket));
});
await new Promise((resolve) => merchant.listen(0, '127.0.0.1', resolve));
setTimeout(() => { process.stdout.write('STUCK'); process.exit(3); }, 20000).unref();
const sandbox = await startSandbox({
  port: 0,
  webhookUrl: 'http://127.0.0.1:' + merchant.address().port + '/hook',
  webhookTimeoutMs: 300,
  webhookRetry: { retries: 1, firstDelayMs: 0 },
});
const client = createGatewayClient({ gatewayUrl: sandbox.url, routerUrl: sandbox.url, signer: createChecksumSigner(SANDBOX_DEFAULT_MERCHANT_KEY), clientId: sandbox.clientId, version: 'v2' });
const encryptedCardData = await encryptCardData({ cardNumber: '4111111111111111', expiryMonth: '12', expiryYear: '2030', securityCode: '123' }, sandbox.publicKeyPem);
await client.tokenizeCard({ mid: SANDBOX_DEFAULT_MID, body: { cardSource: 'MANUAL_ENTERED', encryptedCardData, userInfo: { custId: 'CUST_001' }, tokenizationConsent: { userConsent: 1, createdAt: 'Jan 21, 2026 10:15:30 AM', platform: 'APP' } } });
const started = performance.now();
while (sandbox.deliveries()[0]?.attempts.length !== 2 && performance.now() - started < 8000) await new Promise((resolve) => setTimeout(resolve, 20));
const delivery = sandbox.deliveries()[0];
await sandbox.stop();
await new Promise((resolve) => setTimeout(resolve, 200));
merchant.close();
process.stdout.write(JSON.stringify({ state: delivery?.state, attempts: delivery?.attempts.map((a) => a.error?.kind), open: open.size }));
`;
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const { status, stdout, stderr } = await runNode([...FORCED_GC, '--input-type=module', '-e', code], {
      cwd: root,
      timeoutMs: 40_000,
    });
    expect(stdout, stderr).not.toBe('STUCK');
    expect(status, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ state: 'failed', attempts: ['timeout', 'timeout'], open: 0 });
  });

  it('stop() ends the attempts on their way at once', async () => {
    const open = new Set<unknown>();
    const silent = createServer((req) => {
      open.add(req.socket);
      req.socket.on('close', () => open.delete(req.socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise((resolve) => {
          silent.closeAllConnections();
          silent.close(resolve);
        }),
    );
    const sandbox = await sandboxFor({
      webhookUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`,
      webhookTimeoutMs: 60_000,
    });
    await clientFor(sandbox).tokenizeCard({ mid: MID, body: await tokenizeBody(sandbox, '4111111111111111') });
    await until(() => sandbox.deliveries()[0]?.state === 'pending');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await sandbox.stop();
    await sandbox.idle();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(sandbox.deliveries()[0]).toMatchObject({ state: 'failed', error: { kind: 'aborted' } });
    await until(() => open.size === 0);
  });
});

describe('webhook faults', () => {
  it('duplicate-webhook: the same notification, byte for byte, twice; the receiver accepts the first and refuses the copy (406)', async () => {
    const { sandbox, merchant, tokenize } = await setup();
    await control(sandbox, 'POST', '/sandbox/faults', { operationId: 'notifyTokenStatus', fault: 'duplicate-webhook' });
    await tokenize();
    await sandbox.idle();
    const [original, copy] = sandbox.deliveries();
    expect(original).toMatchObject({ state: 'delivered', code: '00' });
    expect(copy).toMatchObject({
      duplicateOf: original?.id,
      requestId: original?.requestId,
      state: 'not-accepted',
      code: '406',
      attempts: [{ code: '406' }],
    });
    // A copy is not sent again.
    expect(copy?.nextAttemptAt).toBeUndefined();
    expect(merchant.statuses()).toEqual(['ACTIVE']);
    expect(merchant.state.replies).toEqual(['406']);
    // The fault was used once: the next notification is sent once.
    await tokenize();
    await sandbox.idle();
    expect(sandbox.deliveries()).toHaveLength(3);
  });

  it('reorder-webhooks: a notification goes out after the one that follows it', async () => {
    const { sandbox, merchant, tokenize } = await setup({ webhookTimeoutMs: 5_000 });
    const tin = await tokenize();
    await sandbox.idle();
    sandbox.faults.arm({ operationId: 'notifyTokenStatus', fault: 'reorder-webhooks' });
    // SUSPENDED is held back; ACTIVE follows it and goes out first.
    const suspending = control(sandbox, 'POST', `/sandbox/tokens/${tin}/status`, { status: 'SUSPENDED' });
    while (sandbox.deliveries().length < 2) await new Promise((r) => setTimeout(r, 5));
    expect(sandbox.deliveries()[1]).toMatchObject({ tokenStatus: 'SUSPENDED', state: 'pending', reordered: true });
    const activating = await control(sandbox, 'POST', `/sandbox/tokens/${tin}/status`, { status: 'ACTIVE' });
    expect(activating.json.delivery).toMatchObject({ tokenStatus: 'ACTIVE', state: 'delivered' });
    expect((await suspending).json.delivery).toMatchObject({ tokenStatus: 'SUSPENDED', state: 'delivered' });
    expect(merchant.statuses()).toEqual(['ACTIVE', 'ACTIVE', 'SUSPENDED']);
    // The sandbox's own token is ACTIVE: the merchant saw its statuses out of order.
    expect((await control(sandbox, 'GET', `/sandbox/tokens/${tin}`)).json).toMatchObject({ tokenStatus: 'ACTIVE' });
  });

  it('reorder-webhooks with nothing following: the held notification goes out after the webhook timeout, and stop() never waits for it', async () => {
    const { sandbox, merchant, tokenize } = await setup({ webhookTimeoutMs: 300 });
    sandbox.faults.arm({ operationId: 'notifyTokenStatus', fault: 'reorder-webhooks' });
    await tokenize();
    expect(sandbox.deliveries()[0]).toMatchObject({ state: 'pending', reordered: true });
    await sandbox.idle();
    expect(sandbox.deliveries()[0]).toMatchObject({ state: 'delivered' });
    expect(merchant.statuses()).toEqual(['ACTIVE']);

    const other = await setup({ webhookTimeoutMs: 60_000 });
    other.sandbox.faults.arm({ operationId: 'notifyTokenStatus', fault: 'reorder-webhooks' });
    await other.tokenize();
    await other.sandbox.stop();
    await other.sandbox.idle();
    expect(other.sandbox.deliveries()[0]).toMatchObject({
      state: 'skipped',
      reason: expect.stringMatching(/reorder-webhooks/),
    });
    expect(other.merchant.statuses()).toEqual([]);
  });
});

/** A sender that answers a notification only when the test says so (an accepted 00 reply). */
function heldSender() {
  const sent: { status: string; answer: () => void }[] = [];
  const sendNotification: NonNullable<SandboxOptions['sendNotification']> = (options) =>
    new Promise((resolve) =>
      sent.push({
        status: options.body.tokenInfo.tokenStatus,
        answer: () =>
          resolve({
            httpStatus: 200,
            reply: {},
            valid: true,
            issues: [],
            code: '00',
            outcome: 'success',
            nextStep: { action: 'none' } as any,
            requestId: 'R',
          }),
      }),
    );
  return { sent, sendNotification };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
};

describe('idle()', () => {
  it('waits for the deliveries started before it was called, not for those started while it waits', async () => {
    const { sent, sendNotification } = heldSender();
    const sandbox = await sandboxFor({ webhookUrl: 'http://127.0.0.1:9/webhooks', sendNotification });
    cleanups.push(() => sandbox.stop());
    const client = clientFor(sandbox);
    await client.tokenizeCard({ mid: MID, body: await tokenizeBody(sandbox, '4111111111111111') });
    await until(() => sent.length === 1);
    const idle = sandbox.idle().then(() => 'idle');
    // A delivery that starts while idle() waits, and is not answered.
    await client.tokenizeCard({ mid: MID, body: await tokenizeBody(sandbox, '4111111111111111') });
    await until(() => sent.length === 2);
    sent[0]?.answer();
    const first = await Promise.race([idle, new Promise((r) => setTimeout(() => r('still waiting'), 1_000))]);
    expect(first).toBe('idle');
    expect(sandbox.deliveries().map((d) => d.state)).toEqual(['delivered', 'pending']);
    sent[1]?.answer();
    await sandbox.idle();
    expect(sandbox.deliveries().map((d) => d.state)).toEqual(['delivered', 'delivered']);
  });
});

describe('deliveries at once', () => {
  /**
   * A merchant that reads notifications and never answers, counting the requests it was sent; and
   * the package's own sender, counting the notifications on their way at once.
   */
  async function silentMerchant() {
    const counts = { received: 0, sending: 0, most: 0 };
    const sockets = new Set<import('node:net').Socket>();
    const server = createTcpServer((socket) => {
      sockets.add(socket);
      socket.once('data', () => counts.received++);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy();
          server.close(resolve);
        }),
    );
    const sendNotification: NonNullable<SandboxOptions['sendNotification']> = async (options) => {
      counts.most = Math.max(counts.most, ++counts.sending);
      try {
        return await sendTokenNotification(options);
      } finally {
        counts.sending--;
      }
    };
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
      counts,
      sendNotification,
      sockets,
    };
  }

  it('sends at most webhookConcurrency notifications at once; the others wait their turn and all go out', async () => {
    const merchant = await silentMerchant();
    const sandbox = await sandboxFor({
      webhookUrl: merchant.url,
      sendNotification: merchant.sendNotification,
      webhookTimeoutMs: 200,
      webhookRetry: { retries: 0 },
      webhookConcurrency: 3,
    });
    cleanups.push(() => sandbox.stop());
    const client = clientFor(sandbox);
    for (let i = 0; i < 10; i++)
      await client.tokenizeCard({ mid: MID, body: await tokenizeBody(sandbox, '4111111111111111') });
    expect(merchant.sockets.size).toBeLessThanOrEqual(2 * 3);
    await sandbox.idle();
    expect(merchant.counts.most).toBe(3);
    expect(merchant.counts.received).toBe(10);
    // Each attempt is timed from when it goes out, not from when it was queued: each one timed out.
    expect(sandbox.deliveries().map((d) => [d.state, d.error?.kind])).toEqual(Array(10).fill(['failed', 'timeout']));
  });

  it('by default sends at most 16 at once, and refuses a concurrency out of bounds', async () => {
    const merchant = await silentMerchant();
    const sandbox = await sandboxFor({
      webhookUrl: merchant.url,
      sendNotification: merchant.sendNotification,
      webhookTimeoutMs: 300,
      webhookRetry: { retries: 0 },
    });
    cleanups.push(() => sandbox.stop());
    const client = clientFor(sandbox);
    for (let i = 0; i < 40; i++)
      await client.tokenizeCard({ mid: MID, body: await tokenizeBody(sandbox, '4111111111111111') });
    await sandbox.idle();
    expect(merchant.counts.most).toBe(16);
    expect(merchant.counts.received).toBe(40);
    for (const webhookConcurrency of [0, 1.5, 1001, Number.NaN])
      await expect(sandboxFor({ webhookConcurrency })).rejects.toThrow(/webhookConcurrency/);
  });
});

describe('deliveries forgotten past the retention', () => {
  it('are not sent again: their retries leave the scheduler', async () => {
    const { sandbox, merchant, tokenize } = await setup({ retention: 3 });
    merchant.state.failing = 1_000;
    for (let i = 0; i < 12; i++) await tokenize();
    await sandbox.idle();
    expect(merchant.state.failing).toBe(1_000 - 12);
    const kept = sandbox.deliveries();
    expect(kept.length).toBeLessThanOrEqual(4);
    expect((await control(sandbox, 'GET', '/sandbox')).json.retention.kept.scheduledJobs).toBe(kept.length);
    await sandbox.clock.advance(minutes(1));
    expect(merchant.state.failing).toBe(1_000 - 12 - kept.length);
  });

  it('are not sent when they were still waiting for their turn', async () => {
    const { sent, sendNotification } = heldSender();
    const sandbox = await sandboxFor({
      webhookUrl: 'http://127.0.0.1:9/webhooks',
      sendNotification,
      webhookConcurrency: 1,
      retention: 3,
    });
    cleanups.push(() => sandbox.stop());
    for (let i = 0; i < 10; i++)
      await clientFor(sandbox).tokenizeCard({ mid: MID, body: await tokenizeBody(sandbox, '4111111111111111') });
    await until(() => sent.length === 1);
    const kept = sandbox.deliveries();
    expect(kept.length).toBeLessThanOrEqual(4);
    for (let answered = 0; answered < sent.length; answered++) {
      sent[answered]?.answer();
      await new Promise((r) => setTimeout(r, 10));
    }
    await sandbox.idle();
    // The first went out before the others were recorded; of the others, only those still kept.
    expect(sent).toHaveLength(1 + kept.length);
    expect(kept.map((d) => d.state)).toEqual(Array(kept.length).fill('delivered'));
  });
});

describe('POST /sandbox/webhook-url', () => {
  /** A sender that records where each notification went and answers 00. */
  function recordingSender() {
    const urls: string[] = [];
    const sendNotification: NonNullable<SandboxOptions['sendNotification']> = async (options) => {
      urls.push(options.url);
      return {
        httpStatus: 200,
        reply: {},
        valid: true,
        issues: [],
        code: '00',
        outcome: 'success',
        nextStep: { action: 'none' } as any,
        requestId: 'R',
      };
    };
    return { urls, sendNotification };
  }

  it('sends the next notifications to the URL it is given, shows it in GET /sandbox, keeps it over a reset; null sends them nowhere', async () => {
    const { urls, sendNotification } = recordingSender();
    const sandbox = await sandboxFor({ sendNotification });
    cleanups.push(() => sandbox.stop());
    const client = clientFor(sandbox);
    const tokenize = async () => {
      await client.tokenizeCard({ mid: MID, body: await tokenizeBody(sandbox, '4111111111111111') });
      await sandbox.idle();
    };
    await tokenize();
    expect(sandbox.deliveries().at(-1)?.state).toBe('skipped');

    const set = await control(sandbox, 'POST', '/sandbox/webhook-url', { url: 'http://127.0.0.1:9/hook' });
    expect(set).toEqual({ status: 200, json: { webhookUrl: 'http://127.0.0.1:9/hook' } });
    expect((await control(sandbox, 'GET', '/sandbox')).json.merchant.webhookUrl).toBe('http://127.0.0.1:9/hook');
    await tokenize();
    expect(urls).toEqual(['http://127.0.0.1:9/hook']);

    await control(sandbox, 'POST', '/sandbox/reset', {});
    expect((await control(sandbox, 'GET', '/sandbox')).json.merchant.webhookUrl).toBe('http://127.0.0.1:9/hook');
    await tokenize();
    expect(urls).toHaveLength(2);

    expect(await control(sandbox, 'POST', '/sandbox/webhook-url', { url: null })).toEqual({
      status: 200,
      json: { webhookUrl: null },
    });
    await tokenize();
    expect(urls).toHaveLength(2);
    expect(sandbox.deliveries().at(-1)?.state).toBe('skipped');
  });

  it('a notification waiting for its turn when the URL is taken away is recorded as skipped, and sent nowhere', async () => {
    const urls: unknown[] = [];
    let answerFirst: () => void = () => undefined;
    const sendNotification: NonNullable<SandboxOptions['sendNotification']> = (options) => {
      urls.push(options.url);
      const answer = {
        httpStatus: 200,
        reply: {},
        valid: true,
        issues: [],
        code: '00',
        outcome: 'success' as const,
        nextStep: { action: 'none' } as any,
        requestId: 'R',
      };
      if (urls.length > 1) return Promise.resolve(answer);
      return new Promise((resolve) => {
        answerFirst = () => resolve(answer);
      });
    };
    const sandbox = await sandboxFor({
      webhookUrl: 'http://127.0.0.1:9/hook',
      sendNotification,
      webhookConcurrency: 1,
    });
    cleanups.push(() => sandbox.stop());
    for (let i = 0; i < 2; i++)
      await clientFor(sandbox).tokenizeCard({ mid: MID, body: await tokenizeBody(sandbox, '4111111111111111') });
    await until(() => urls.length === 1);
    expect((await control(sandbox, 'POST', '/sandbox/webhook-url', { url: null })).status).toBe(200);
    answerFirst();
    await sandbox.idle();
    expect(urls).toEqual(['http://127.0.0.1:9/hook']);
    expect(sandbox.deliveries().map((d) => [d.state, d.attempts.length, d.reason])).toEqual([
      ['delivered', 1, undefined],
      ['skipped', 0, 'No webhook URL is configured (option webhookUrl, flag --webhook-url).'],
    ]);
  });

  it('refuses what the webhookUrl option refuses (400), and keeps the URL it had', async () => {
    const sandbox = await sandboxFor({ webhookUrl: 'http://127.0.0.1:9/kept' });
    cleanups.push(() => sandbox.stop());
    for (const body of [
      {},
      { url: 'ftp://127.0.0.1/x' },
      { url: 'http://a b' },
      { url: 42 },
      [],
      { uri: 'http://127.0.0.1/' },
    ]) {
      const answer = await control(sandbox, 'POST', '/sandbox/webhook-url', body);
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe('invalid-request');
    }
    expect((await control(sandbox, 'GET', '/sandbox')).json.merchant.webhookUrl).toBe('http://127.0.0.1:9/kept');
  });
});
