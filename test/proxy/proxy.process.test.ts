// The validating proxy in front of the sandbox: routing, exact forwarding, the checks of each
// exchange, report and enforce modes, the webhook leg, upstream failures, the redacted HAR (replayed
// through `validate --har`), every report format with coverage, and no planted secret in any output.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChecksumSigner,
  createChecksumVerifier,
  createGatewayClient,
  createWebhookReceiver,
  encryptCardData,
  type GatewayClient,
} from '../../src/index.js';
import { type RunningProxy, startProxy } from '../../src/proxy/server.js';
import { formatReport, REPORT_FORMATS } from '../../src/report/format.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { BIN, collectOutput, runCli } from '../helpers/cli.js';
import { contractExamples } from '../helpers/examples.js';
import { freePort, listenWith, startServer } from '../helpers/servers.js';

const KEY = 'SandboxTestKey01';
const CARD = '4111111111111111';
const CVV = '7391';
const SSO = 'sso-funded-wallet';
const T0 = Date.parse('2026-01-21T10:00:00.000Z');

const dir = mkdtempSync(join(tmpdir(), 'proxy-test-'));
/** Every value of a sensitive field the client sent or received, gathered from the raw texts. */
const secrets = new Set<string>([KEY, CARD, SSO]);
const SENSITIVE =
  /"(cardNumber|securityCode|cvv|mpin|cardUniqueId|cardToken|TAVV|encryptedCardData|token|txnToken|svcSsoToken|signature|checksumHash)"\s*:\s*"([^"]+)"/g;
function gather(text: string) {
  // A cardUniqueId that is a token index number is not secret where it is the token's own field (tokenIndexNumber).
  for (const m of text.matchAll(SENSITIVE))
    if ((m[2] as string).length >= 8 && !(m[1] === 'cardUniqueId' && !/^[0-9]+$/.test(m[2] as string)))
      secrets.add(m[2] as string);
}
/** Asserts that no planted or exchanged secret, and no CVV as a field's value, is in `text`. */
function expectClean(text: string, where: string) {
  for (const s of secrets)
    expect(
      text.includes(s),
      `${where} holds a secret of ${s.length} characters at ${text.indexOf(s)}: ${text.slice(Math.max(0, text.indexOf(s) - 80), text.indexOf(s))}`,
    ).toBe(false);
  expect(text.includes(CVV), `${where} holds the CVV`).toBe(false);
}

let sandbox: Sandbox;
let proxy: RunningProxy;
let receiver: { url: string; close: () => Promise<void> };
let client: GatewayClient;
const harFile = join(dir, 'run.har');
const notifications: string[] = [];

/** A fetch that keeps the texts of every request and answer, to know what secrets passed. */
const capturing = async (request: Request) => {
  gather(await request.clone().text());
  const answer = await fetch(request);
  gather(await answer.clone().text());
  return answer;
};

beforeAll(async () => {
  const receiverApp = createWebhookReceiver({
    verifier: createChecksumVerifier(KEY),
    expectedMid: 'MERCHANT0001',
    now: () => sandbox.clock.now(),
  });
  receiver = await listenWith(
    receiverApp.nodeHandler(async (event) => {
      notifications.push(event.body.tokenInfo.tokenStatus);
    }),
  );
  const proxyPort = await freePort();
  sandbox = await startSandbox({
    port: 0,
    now: () => T0,
    checkAnswers: true,
    webhookUrl: `http://127.0.0.1:${proxyPort}/hooks/token`,
  });
  proxy = await startProxy({
    gatewayUpstream: sandbox.url,
    routerUpstream: sandbox.url,
    webhookUpstream: receiver.url,
    webhookPath: '/hooks/token',
    port: proxyPort,
    merchantKey: KEY,
    harFile,
  });
  client = createGatewayClient({
    gatewayUrl: proxy.url,
    routerUrl: proxy.url,
    signer: createChecksumSigner(KEY),
    clientId: 'C11',
    now: () => sandbox.clock.now(),
    validate: true,
    fetch: capturing,
  });
});

afterAll(async () => {
  await proxy?.stop();
  await sandbox?.stop();
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the proxy in front of the sandbox, report mode', () => {
  it('forwards a wallet payment byte for byte and checks it: valid, code 0000 met', async () => {
    const order = sandbox.createOrder({ txnAmount: { value: '100.00' }, svcSsoToken: SSO });
    secrets.add(order.txnToken);
    const paid = await client.initiatePayment({
      txnToken: order.txnToken,
      body: {
        mid: order.mid,
        orderId: order.orderId,
        requestType: 'PAYMENT',
        paymentMode: 'WALLET',
        walletInfo: { paymentFlow: 'PAY' },
      },
    });
    expect(paid.code).toBe('0000');
    const last = proxy.report().cases.at(-1);
    expect(last).toMatchObject({ operationId: 'initiatePayment', direction: 'exchange', valid: true });
    // The answer's txnInfo.checksumHash was checked with the key: the client verifies the same bytes.
    expect(paid.data.body.txnInfo?.checksumHash).toBeTypeOf('string');
  });

  it('tokenizes a card, carries the notification to the merchant and checks both legs, then pays with the token', async () => {
    const encryptedCardData = await encryptCardData(
      { cardNumber: CARD, expiryMonth: '12', expiryYear: '2030', securityCode: CVV },
      sandbox.publicKeyPem,
    );
    secrets.add(encryptedCardData);
    const tokenized = await client.tokenizeCard({
      mid: 'MERCHANT0001',
      body: {
        cardSource: 'MANUAL_ENTERED',
        encryptedCardData,
        userInfo: { custId: 'CUST_001' },
        tokenizationConsent: { userConsent: 1, createdAt: 'Jan 21, 2026 10:15:30 AM' },
      },
    });
    expect(tokenized.code).toBe('00');
    await sandbox.idle();
    expect(notifications).toContain('ACTIVE');
    const webhook = proxy.report().cases.filter((c) => c.operationId === 'notifyTokenStatus');
    expect(webhook.length).toBeGreaterThan(0);
    expect(webhook.every((c) => c.valid)).toBe(true);
    const tokenIndexNumber = (tokenized.data.body as { tokenIndexNumber?: string }).tokenIndexNumber as string;
    const order = sandbox.createOrder({ txnAmount: { value: '100.00' } });
    secrets.add(order.txnToken);
    const paid = await client.initiatePayment({
      txnToken: order.txnToken,
      body: {
        mid: order.mid,
        orderId: order.orderId,
        requestType: 'PAYMENT',
        paymentMode: 'CREDIT_CARD',
        cardInfo: { cardFlowType: 'TOKEN_INDEX_NO', cardUniqueId: tokenIndexNumber, cvv: CVV },
      },
    });
    expect(paid.outcome).toBe('success');
  });

  it('reports a request that breaks the contract and still forwards it', async () => {
    const order = sandbox.createOrder({ txnAmount: { value: '100.00' } });
    secrets.add(order.txnToken);
    const text = JSON.stringify({
      head: {
        requestTimeStamp: String(T0),
        channelId: 'WEB',
        tokenType: 'TXN_TOKEN',
        token: order.txnToken,
        version: 'v1',
      },
      body: {
        mid: order.mid,
        orderId: order.orderId,
        requestType: 'PAYMENT',
        paymentMode: 'WALLET',
        walletInfo: { paymentFlow: 'PAY' },
      },
    });
    // The query's orderId is missing: requiredParameters (1007).
    const answer = await fetch(`${proxy.url}/aoa-acquiring-biz/v2/payment?mid=${order.mid}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    expect(answer.status).toBe(200);
    expect(
      [...answer.headers.keys()].some((h) => /violation|issue|problem/i.test(h) && !h.startsWith('x-sandbox')),
    ).toBe(false);
    const last = proxy.report().cases.at(-1);
    expect(last?.valid).toBe(false);
    expect(last?.errors.map((e) => [e.in, e.pointer, e.rule])).toContainEqual([
      'query',
      '/orderId',
      'requiredParameters',
    ]);
    expect(last?.resultCode?.code).toBe('1007');
  });

  it('answers 404 with a problem for a path of neither host, and 405 for another method', async () => {
    const answer = await fetch(`${proxy.url}/sandbox/orders`, { method: 'POST', body: '{}' });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect((await answer.json()) as object).toMatchObject({ status: 404, title: expect.any(String) });
    expect((await fetch(`${proxy.url}/order/v2/preAuth`)).status).toBe(405);
  });

  it('answers 502 when the upstream answers with a body that is not JSON, and 504 when it is too slow, and records both', async () => {
    const before = proxy.report().counts.cases;
    sandbox.faults.arm({ operationId: 'listSubscriptions', fault: 'http-503' });
    const body = JSON.stringify({
      head: {
        tokenType: 'SSO',
        token: SSO,
        clientId: 'C11',
        version: 'v1',
        requestTimestamp: String(T0),
        signature: 'x',
      },
      body: {},
    });
    const bad = await fetch(`${proxy.url}/subscription/list/all`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(bad.status).toBe(502);
    expect(bad.headers.get('content-type')).toBe('application/problem+json');
    expect(await bad.json()).toMatchObject({ status: 502, upstreamStatus: 503, operationId: 'listSubscriptions' });
    const slow = await startProxy({
      gatewayUpstream: sandbox.url,
      routerUpstream: sandbox.url,
      port: 0,
      upstreamTimeoutMs: 200,
    });
    try {
      sandbox.faults.arm({ operationId: 'listSubscriptions', fault: 'delay', delayMs: 2_000 });
      const late = await fetch(`${slow.url}/subscription/list/all`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(late.status).toBe(504);
      expect(slow.report().cases[0]?.errors.map((e) => e.rule)).toContain('upstream-timeout');
    } finally {
      await slow.stop();
    }
    expect(proxy.report().counts.cases).toBe(before + 1);
    expect(
      proxy
        .report()
        .cases.at(-1)
        ?.errors.map((e) => e.rule),
    ).toContain('upstream-not-json');
  });

  it('answers 502 when the upstream refuses the connection', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const lost = await startProxy({ gatewayUpstream: nowhere, routerUpstream: nowhere, port: 0 });
    try {
      const answer = await fetch(`${lost.url}/order/v2/preAuth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(answer.status).toBe(502);
      expect(lost.report().cases[0]?.errors.map((e) => e.rule)).toContain('upstream-refused');
    } finally {
      await lost.stop();
    }
  });

  it('writes every report format with one case per exchange and the coverage, none holding a secret', () => {
    const report = proxy.report();
    expect(report.cases.length).toBe(report.counts.cases);
    const pay = report.coverage?.find((c) => c.operationId === 'initiatePayment');
    expect(pay?.codesMet).toContain('0000');
    expect(pay?.codesNotMet).toContain('201');
    expect(pay?.namedChecks).toContainEqual({ name: 'requiredParameters', fired: 1 });
    expect(report.coverage?.find((c) => c.operationId === 'notifyTokenStatus')?.codesMet).toContain('00');
    for (const format of REPORT_FORMATS) {
      const text = formatReport(report, format, { tool: { name: 'gateway-contract', version: '1' } });
      expect(text).toContain(format === 'junit' ? 'codesNotMet' : 'initiatePayment');
      expectClean(text, format);
    }
  });
});

describe('enforce mode', () => {
  it('answers a request that breaks the contract with a 422 problem and never forwards it', async () => {
    const enforcing = await startProxy({
      gatewayUpstream: sandbox.url,
      routerUpstream: sandbox.url,
      port: 0,
      enforce: true,
      merchantKey: KEY,
    });
    try {
      const order = sandbox.createOrder({ txnAmount: { value: '100.00' } });
      const text = JSON.stringify({
        head: {
          requestTimeStamp: String(T0),
          channelId: 'WEB',
          tokenType: 'TXN_TOKEN',
          token: order.txnToken,
          version: 'v1',
        },
        body: {
          mid: order.mid,
          orderId: order.orderId,
          requestType: 'PAYMENT',
          paymentMode: 'CREDIT_CARD',
          cardInfo: { cardFlowType: 'NEW_CARD', cardUniqueId: CARD, cvv: CVV, expiryDate: 'no' },
        },
      });
      const answer = await fetch(
        `${enforcing.url}/aoa-acquiring-biz/v2/payment?mid=${order.mid}&orderId=${order.orderId}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: text,
        },
      );
      expect(answer.status).toBe(422);
      expect(answer.headers.get('content-type')).toBe('application/problem+json');
      const problem = (await answer.json()) as {
        errors: { pointer: string; rule: string; resultCode?: string }[];
        resultCode: string;
        operationId: string;
      };
      expect(problem.operationId).toBe('initiatePayment');
      expect(problem.errors.length).toBeGreaterThan(0);
      for (const e of problem.errors) expect(e.pointer).toMatch(/^(\/[^/]*)*$/);
      expect(problem.resultCode).toBe(problem.errors.find((e) => e.resultCode)?.resultCode);
      expectClean(JSON.stringify(problem), 'the problem');
      // Never reached the sandbox: the order is still waiting for a payment.
      expect((await (await fetch(`${sandbox.url}/sandbox/orders/${order.orderId}`)).json()) as object).toMatchObject({
        status: 'CREATED',
      });
      expect(enforcing.report().counts.invalid).toBe(1);
    } finally {
      await enforcing.stop();
    }
  });
});

describe('the recording', () => {
  it('is HAR 1.2 with every sensitive value replaced, and replays through validate --har', async () => {
    // A second proxy's recording of the whole run so far would need the run again: stop this one to close its HAR.
    await proxy.stop();
    const text = readFileSync(harFile, 'utf8');
    const har = JSON.parse(text) as {
      log: {
        version: string;
        entries: { request: { postData?: { text: string } }; response: { content: { text?: string } } }[];
      };
    };
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.length).toBe(proxy.report().counts.cases);
    expectClean(text, 'the HAR');
    expect(text).toContain('\\"cvv\\":\\"0000\\"');
    expect(text).toMatch(/\\"signature\\":\\"[0Xx+/=]{108}\\"/);
    const replay = await runCli(['validate', '--har', harFile, '--webhook-path', '/hooks/token', '--format', 'json']);
    expectClean(replay.stdout + replay.stderr, 'the replay');
    // The replay finds the same invalid exchanges: the planted one (and the 502 of an answer that was not JSON).
    expect(replay.status).toBe(1);
    expect(replay.stdout).toContain('requiredParameters');
    // The exchanges the proxy judged valid are valid on replay too: every marker fits its field.
    const invalidOnReplay = new Set(
      replay.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { name: string }).name.replace(/^.* entry /, '')),
    );
    const invalidLive = proxy
      .report()
      .cases.map((c, i) => (c.valid ? null : String(i + 1)))
      .filter((n) => n !== null);
    for (const n of invalidOnReplay) expect(invalidLive).toContain(n);
  });
});

describe('the command', () => {
  it('runs as a process, stops after --max-exchanges, writes its report and exits 1 for an invalid exchange; no secret in any output', async () => {
    const port = await freePort();
    const output = join(dir, 'report.xml');
    const child = spawn(
      process.execPath,
      [
        BIN,
        'proxy',
        '--gateway-upstream',
        sandbox.url,
        '--router-upstream',
        sandbox.url,
        '--port',
        String(port),
        '--max-exchanges',
        '2',
        '--format',
        'junit',
        '--output',
        output,
        '--har',
        join(dir, 'cli.har'),
      ],
      { env: { ...process.env, MERCHANT_KEY: KEY }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const done = collectOutput(child);
    try {
      await waitFor(`http://127.0.0.1:${port}/`);
      const order = sandbox.createOrder({ txnAmount: { value: '100.00' }, svcSsoToken: SSO });
      secrets.add(order.txnToken);
      const viaCli = createGatewayClient({
        gatewayUrl: `http://127.0.0.1:${port}`,
        routerUrl: `http://127.0.0.1:${port}`,
        signer: createChecksumSigner(KEY),
        clientId: 'C11',
        fetch: capturing,
      });
      const body = {
        mid: order.mid,
        orderId: order.orderId,
        requestType: 'PAYMENT' as const,
        paymentMode: 'WALLET' as const,
        walletInfo: { paymentFlow: 'PAY' as const },
      };
      expect((await viaCli.initiatePayment({ txnToken: order.txnToken, body })).code).toBe('0000');
      await fetch(`http://127.0.0.1:${port}/aoa-acquiring-biz/v2/payment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ head: {}, body }),
      });
    } finally {
      setTimeout(() => child.kill('SIGTERM'), 10_000).unref();
    }
    const result = await done;
    expect(result.status).toBe(1);
    const report = readFileSync(output, 'utf8');
    expect(report.match(/<testcase /g)?.length).toBe(2);
    expect(report).toContain('initiatePayment.codesMet');
    for (const [what, text] of [
      ['stdout', result.stdout],
      ['stderr', result.stderr],
      ['report', report],
      ['HAR', readFileSync(join(dir, 'cli.har'), 'utf8')],
    ])
      expectClean(text as string, what as string);
  });

  it('writes its report on SIGTERM and exits 0 when every exchange was valid', async () => {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [
        BIN,
        'proxy',
        '--gateway-upstream',
        sandbox.url,
        '--router-upstream',
        sandbox.url,
        '--port',
        String(port),
        '--format',
        'json',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const done = collectOutput(child);
    await waitFor(`http://127.0.0.1:${port}/`);
    child.kill('SIGTERM');
    const result = await done;
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('no exchange validated');
  });
});

describe('stopping with exchanges in flight', () => {
  const preAuth = contractExamples().find(
    (e) => e.operationId === 'preAuthorize' && e.direction === 'request',
  )?.payload;
  const preAuthAnswer = JSON.stringify(
    contractExamples().find((e) => e.operationId === 'preAuthorize' && e.direction === 'response')?.payload,
  );

  /**
   * Starts the command in front of an upstream that answers `delayMs` after a request arrived; SIGTERM once
   * `inFlight` requests reached it (and with `twice`, SIGTERM again once the command says it waits).
   */
  async function stopMidFlight(graceMs: number, delayMs: number, inFlight: number, twice = false) {
    let arrived = 0;
    let reached: () => void = () => undefined;
    const allReached = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const slow = await startServer(async (_request, res) => {
      if (++arrived === inFlight) reached();
      await new Promise((r) => setTimeout(r, delayMs));
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(preAuthAnswer);
    });
    const port = await freePort();
    const har = join(dir, `grace-${graceMs}.har`);
    const child = spawn(
      process.execPath,
      [
        BIN,
        'proxy',
        '--gateway-upstream',
        slow.url,
        '--router-upstream',
        slow.url,
        '--port',
        String(port),
        '--format',
        'json',
        '--har',
        har,
        '--grace-ms',
        String(graceMs),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const done = collectOutput(child);
    try {
      await waitFor(`http://127.0.0.1:${port}/`);
      const answers = Array.from({ length: inFlight }, () =>
        fetch(`http://127.0.0.1:${port}/order/v2/preAuth`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(preAuth),
        }).then(
          async (a) => ({ status: a.status, text: await a.text() }),
          () => ({ status: 0, text: '' }),
        ),
      );
      await allReached;
      if (twice) {
        let said = false;
        child.stderr?.on('data', (d: Buffer) => {
          if (!said && d.toString().includes('waiting for')) {
            said = true;
            child.kill('SIGTERM');
          }
        });
      }
      child.kill('SIGTERM');
      const result = await done;
      const entries = (JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: unknown[] } }).log.entries;
      // JSON lines: one per problem, then one per operation's coverage.
      const lines = result.stdout
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { rule?: string; coverage?: { exchanges: number } });
      return { result, answers: await Promise.all(answers), entries, lines };
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await slow.close();
    }
  }

  it('on SIGTERM waits for the exchanges in flight, answers them, records them and reports them', async () => {
    const { result, answers, entries, lines } = await stopMidFlight(10_000, 1_500, 2);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(entries.length).toBe(2);
    expect(lines).toEqual([{ coverage: expect.objectContaining({ operationId: 'preAuthorize', exchanges: 2 }) }]);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('2 exchange');
  });

  it('cuts off the exchanges still in flight when its grace ends: a 503 problem, recorded and reported invalid, exit status 1', async () => {
    const { result, answers, entries, lines } = await stopMidFlight(300, 20_000, 1);
    expect(answers[0]?.status).toBe(503);
    expect(answers[0]?.text).toContain('urn:gateway-contract:proxy:shutdown');
    expect(entries.length).toBe(1);
    expect(lines.map((l) => l.rule ?? l.coverage?.exchanges)).toEqual(['shutdown', 1]);
    expect(result.status).toBe(1);
  });

  it('ends its grace at once on a second SIGTERM, still answering, recording and reporting what it cut off', async () => {
    const { result, answers, entries, lines } = await stopMidFlight(60_000, 60_000, 1, true);
    expect(answers[0]?.status).toBe(503);
    expect(entries.length).toBe(1);
    expect(lines.map((l) => l.rule ?? l.coverage?.exchanges)).toEqual(['shutdown', 1]);
    expect(result.status).toBe(1);
  });
});

/** Waits until something answers at `url`. */
async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  throw new Error(`nothing answers at ${url}`);
}
