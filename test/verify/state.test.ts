// The state phase of verify against the package's sandbox (in process): it finds nothing there, and
// drives every state change it lists; against small faulty doubles made from the sandbox it finds
// the rule broken, shrunk to the shortest sequence: a front that pays an order twice (the second
// pay answered with the first one's success, byte for byte), and notifications signed with another
// key or never sent. A card the implementation tokenizes INIT is waited for until its change
// (ACTIVE or FAILED) is notified, and missed when the change comes too late.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { createChecksumSigner } from '../../src/signing/checksum.js';
import { createStatePhase } from '../../src/verify/phases/state.js';
import { verify } from '../../src/verify/run.js';
import { sandboxFixtures } from '../../src/verify/sandboxFixtures.js';
import { sendTokenNotification } from '../../src/webhook/send.js';

const KEY = 'SandboxTestKey01';
const MID = 'MERCHANT0001';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandboxFor(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ port: 0, ...options });
  cleanups.push(() => sandbox.stop());
  return sandbox;
}

/**
 * Runs the state phase against `url` (the operations), with the sandbox's fixtures; `card`: the
 * number of another of the sandbox's test cards to tokenize instead of the fixtures' one.
 */
async function runState(
  sandbox: Sandbox,
  url = sandbox.url,
  options: { runs?: number; notificationWaitMs?: number; card?: string } = {},
) {
  const fixtures = await sandboxFixtures(sandbox.url);
  if (options.card !== undefined)
    fixtures.instruments = { ...fixtures.instruments, card: { ...fixtures.instruments.card, number: options.card } };
  return verify(
    {
      gatewayUrl: url,
      routerUrl: url,
      key: KEY,
      mid: MID,
      fixtures,
      seed: 1,
      runs: options.runs ?? 20,
    },
    [createStatePhase({ notificationWaitMs: options.notificationWaitMs ?? 3_000 })],
  );
}

/**
 * A front of the sandbox that forwards every operation, except that a pay the sandbox refuses with
 * 201 (the order is paid) is answered with the order's first successful pay answer, as a service
 * that charges twice would answer: signed, checksummed, valid.
 */
async function payingTwice(sandbox: Sandbox): Promise<string> {
  const paid = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', sandbox.url);
      const answer = await fetch(`${sandbox.url}${url.pathname}${url.search}`, {
        method: req.method ?? 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      });
      let text = await answer.text();
      if (url.pathname.endsWith('/v2/payment')) {
        const orderId = url.searchParams.get('orderId') ?? '';
        const code = JSON.parse(text)?.body?.resultInfo?.resultCode;
        if (code === '0000' && JSON.parse(text)?.body?.txnInfo?.status === 'TXN_SUCCESS' && !paid.has(orderId))
          paid.set(orderId, text);
        else if (code === '201' && paid.has(orderId)) text = paid.get(orderId) ?? text;
      }
      res
        .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
        .end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  const address = server.address();
  return `http://127.0.0.1:${address !== null && typeof address === 'object' ? address.port : 0}`;
}

describe('verify: the state phase against the sandbox', () => {
  it('finds nothing, drives every state change it lists, receives the token notifications, and puts the webhook URL back', async () => {
    const sandbox = await sandboxFor({ webhookUrl: 'http://127.0.0.1:9/merchant' });
    const result = await runState(sandbox);
    expect(result.findings).toEqual([]);
    expect(result.notes).toEqual([]);
    expect(result.checks.map((c) => c.name)).toEqual([
      'state.order',
      'state.preAuth',
      'state.lowBalance',
      'state.renewalAmount',
      'state.subscriptionList',
      'state.token',
    ]);
    expect(result.stateChanges.filter((c) => c.exercised === 0)).toEqual([]);
    // The refusals the state rules expect were met, not passed over.
    const met = (operationId: string) => result.coverage.find((c) => c.operationId === operationId)?.codesMet;
    expect(met('initiatePayment')).toEqual(expect.arrayContaining(['0000', '201', '324']));
    expect(met('modifyOrder')).toEqual(expect.arrayContaining(['0000', '201', '1111']));
    expect(met('preAuthorize')).toEqual(expect.arrayContaining(['01', 'SR_1004', 'WM_1006']));
    expect(met('createSubscription')).toEqual(expect.arrayContaining(['0', '2007']));
    expect(met('listSubscriptions')).toEqual(expect.arrayContaining(['3006', '200']));
    expect(result.notifications).toBeGreaterThan(4);
    expect(result.requests).toBeLessThan(400);
    const overview = await (await fetch(`${sandbox.url}/sandbox`)).json();
    expect(overview.merchant.webhookUrl).toBe('http://127.0.0.1:9/merchant');
  });
});

describe('verify: the state phase finds a state rule broken, shrunk', () => {
  it('paidTwice: a second pay of a paid order answered with success, shown by the two pays alone', async () => {
    const sandbox = await sandboxFor();
    const front = await payingTwice(sandbox);
    const result = await verify(
      {
        gatewayUrl: front,
        routerUrl: front,
        key: KEY,
        mid: MID,
        fixtures: await sandboxFixtures(sandbox.url),
        seed: 1,
        runs: 20,
        phases: ['state'],
      },
      [createStatePhase()],
    );
    const found = result.findings.filter((f) => f.rule === 'paidTwice');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ kind: 'state', operationId: 'initiatePayment', check: 'state.order' });
    expect(found[0]?.replay).toMatch(/^state\.order:[0-9:]+$/);
    // Shrunk: the order created, paid, paid again.
    expect(found[0]?.steps.map((s) => s.operationId)).toEqual(['initiatePayment', 'initiatePayment']);
    expect(result.findings.filter((f) => f.rule !== 'paidTwice')).toEqual([]);
    // Its replay value reruns exactly the shrunk sequence.
    const again = await verify(
      {
        gatewayUrl: front,
        routerUrl: front,
        key: KEY,
        mid: MID,
        fixtures: await sandboxFixtures(sandbox.url),
        seed: 1,
        runs: 20,
        replay: found[0]?.replay,
      },
      [createStatePhase()],
    );
    expect(again.findings.map((f) => [f.rule, f.steps.map((s) => s.note)])).toEqual([
      ['paidTwice', found[0]?.steps.map((s) => s.note)],
    ]);
  });

  it('notificationSignature: notifications signed with another key', async () => {
    const signer = createChecksumSigner('WrongMerchantKey');
    const sandbox = await sandboxFor({ sendNotification: (options) => sendTokenNotification({ ...options, signer }) });
    const result = await runState(sandbox, sandbox.url, { runs: 2 });
    const rules = new Set(result.findings.map((f) => f.rule));
    expect([...rules]).toEqual(['notificationSignature']);
    const [finding] = result.findings;
    expect(finding).toMatchObject({
      kind: 'notification',
      operationId: 'notifyTokenStatus',
      pointer: '/head/signature',
    });
    // The shortest trial: the tokenize whose notification it was.
    expect(finding?.steps.map((s) => s.operationId)).toEqual(['tokenizeCard']);
    expect(JSON.stringify(result.findings)).not.toContain(KEY);
  });

  it('tokenTransition: a suspension notified as a change the state table does not allow (ACTIVE -> INIT)', async () => {
    const sandbox = await sandboxFor({
      sendNotification: (options) =>
        sendTokenNotification(
          options.body.tokenInfo.tokenStatus === 'SUSPENDED'
            ? { ...options, body: { ...options.body, tokenInfo: { ...options.body.tokenInfo, tokenStatus: 'INIT' } } }
            : options,
        ),
    });
    const result = await runState(sandbox, sandbox.url, { runs: 4, notificationWaitMs: 300 });
    expect(result.findings.map((f) => f.rule).sort()).toEqual(['notificationMissing', 'tokenTransition']);
    const transition = result.findings.find((f) => f.rule === 'tokenTransition');
    expect(transition).toMatchObject({
      kind: 'notification',
      pointer: '/body/tokenInfo/tokenStatus',
      check: 'state.token',
    });
    expect(transition?.message).toContain('from ACTIVE to INIT');
    expect(transition?.steps.map((s) => s.operationId)).toEqual(['tokenizeCard']);
    const again = await verify(
      {
        gatewayUrl: sandbox.url,
        routerUrl: sandbox.url,
        key: KEY,
        mid: MID,
        fixtures: await sandboxFixtures(sandbox.url),
        seed: 1,
        runs: 4,
        replay: transition?.replay,
      },
      [createStatePhase({ notificationWaitMs: 300 })],
    );
    expect(again.findings.map((f) => f.rule).sort()).toEqual(['notificationMissing', 'tokenTransition']);
  });

  it('notificationMissing: a token moved and never notified', async () => {
    const sandbox = await sandboxFor({
      sendNotification: (options) =>
        options.body.tokenInfo.tokenStatus === 'SUSPENDED'
          ? Promise.resolve({
              httpStatus: 200,
              reply: {},
              valid: true,
              issues: [],
              code: '00',
              outcome: 'success',
              nextStep: { action: 'none' },
              requestId: 'R',
            } as never)
          : sendTokenNotification(options),
    });
    const result = await runState(sandbox, sandbox.url, { runs: 4, notificationWaitMs: 300 });
    const missing = result.findings.filter((f) => f.rule === 'notificationMissing');
    expect(missing).toHaveLength(1);
    expect(missing[0]?.message).toContain('from ACTIVE to SUSPENDED');
    expect(result.findings.filter((f) => f.rule !== 'notificationMissing')).toEqual([]);
  });
});

describe('verify: a card tokenized INIT, then changed by its issuer', () => {
  it('waits for the change and finds nothing, whether the token turns ACTIVE or FAILED', async () => {
    // The sandbox's cards that tokenize INIT, then ACTIVE or FAILED (docs/sandbox.md, "Test instruments").
    for (const number of ['5555555555554444', '5105105105105100']) {
      const sandbox = await sandboxFor({ tokenActivationDelayMs: 50 });
      const result = await runState(sandbox, sandbox.url, { runs: 2, notificationWaitMs: 3_000, card: number });
      expect([number, result.findings]).toEqual([number, []]);
      const tokens = await (await fetch(`${sandbox.url}/sandbox/tokens`)).json();
      expect(tokens.tokens.length).toBeGreaterThan(0);
      for (const token of tokens.tokens) expect(token.history.map((h: { status: string }) => h.status)[0]).toBe('INIT');
    }
  });

  it('notificationMissing: the change comes after the wait', async () => {
    const sandbox = await sandboxFor({ tokenActivationDelayMs: 60_000 });
    const result = await runState(sandbox, sandbox.url, { runs: 2, notificationWaitMs: 300, card: '5555555555554444' });
    const missing = result.findings.filter((f) => f.rule === 'notificationMissing');
    expect(missing.length).toBeGreaterThan(0);
    expect(missing[0]?.message).toContain('The token was tokenized INIT, and no notification saying ACTIVE or FAILED');
    expect(missing[0]?.steps.map((s) => s.operationId)).toEqual(['tokenizeCard']);
    expect(result.findings.filter((f) => f.rule !== 'notificationMissing')).toEqual([]);
  });
});
