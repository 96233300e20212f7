// The development sender of the token status notification, and the send-webhook command, end to
// end against local merchant servers: one built with createWebhookReceiver, others that answer
// wrongly or not at all.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChecksumSigner,
  createChecksumVerifier,
  createWebhookReceiver,
  GatewayHttpError,
  GatewayNetworkError,
  GatewayNonJsonError,
  GatewayTimeoutError,
  postNotification,
  RequestValidationError,
  sendTokenNotification,
  type TokenStatusEvent,
  verifySignature,
} from '../../src/index.js';
import { BIN, FORCED_GC, runCli, runNode } from '../helpers/cli.js';
import { freePort, json, listenWith, startServer, type TestServer } from '../helpers/servers.js';

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const example = (name: string) => structuredClone(doc.components.examples[name].value);
const KEY = 'k3yK3yk3yK3yk3yK';
const OTHER_KEY = 'another-key-16by';

const events: TokenStatusEvent[] = [];
let merchant: Awaited<ReturnType<typeof listenWith>>;
let otherKeyMerchant: Awaited<ReturnType<typeof listenWith>>;
let recorder: TestServer;
let badEnvelope: TestServer;
let html: TestServer;
let silent: TestServer;

beforeAll(async () => {
  merchant = await listenWith(
    createWebhookReceiver({ verifier: createChecksumVerifier(KEY) }).nodeHandler((event) => {
      events.push(event);
    }),
  );
  otherKeyMerchant = await listenWith(
    createWebhookReceiver({ verifier: createChecksumVerifier(OTHER_KEY) }).nodeHandler(() => undefined),
  );
  recorder = await startServer((_req, res) => json(res, example('ReplyAccepted')));
  badEnvelope = await startServer((_req, res) =>
    json(res, { head: { version: 'v1' }, body: { resultInfo: { resultCode: '00', resultStatus: 'FAILED' } } }),
  );
  html = await startServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<h1>Not Found</h1>');
  });
  silent = await startServer(() => new Promise(() => undefined));
});
afterAll(async () => {
  await Promise.all([
    merchant.close(),
    otherKeyMerchant.close(),
    recorder.close(),
    badEnvelope.close(),
    html.close(),
    silent.close(),
  ]);
});

describe('sendTokenNotification', () => {
  it("delivers a signed notification the merchant's receiver accepts", async () => {
    const body = example('TokenStatusActive').body;
    const before = events.length;
    const result = await sendTokenNotification({
      url: merchant.url,
      body,
      signer: createChecksumSigner(KEY),
      requestId: 'NTF-SEND-1',
    });
    expect(result).toMatchObject({
      httpStatus: 200,
      valid: true,
      issues: [],
      code: '00',
      outcome: 'success',
      nextStep: { action: 'none' },
      requestId: 'NTF-SEND-1',
    });
    expect(events.slice(before).map((e) => [e.head.requestId, e.body])).toEqual([['NTF-SEND-1', body]]);
  });

  it('builds the token-service head and signs exactly the bytes it sends', async () => {
    const body = example('TokenStatusSuspended').body;
    await sendTokenNotification({
      url: recorder.url,
      body,
      signer: createChecksumSigner(KEY),
      requestId: 'R-1',
      now: () => 1_768_971_330_123,
      clientId: 'C11',
    });
    const sent = recorder.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.headers['content-type']).toBe('application/json');
    const bodyText = JSON.stringify(body);
    expect(sent.text.startsWith('{"head":{') && sent.text.endsWith(`,"body":${bodyText}}`)).toBe(true);
    const { head } = JSON.parse(sent.text);
    expect(head).toEqual({
      version: 'v1',
      requestTimestamp: '1768971330123',
      requestId: 'R-1',
      signatureType: 'CHECKSUM',
      clientId: 'C11',
      signature: expect.any(String),
    });
    expect(await verifySignature(bodyText, KEY, head.signature)).toBe(true);
  });

  it('reports a receiver with another key: a valid reply carrying 1001', async () => {
    const result = await sendTokenNotification({
      url: otherKeyMerchant.url,
      body: example('TokenStatusActive').body,
      signer: createChecksumSigner(KEY),
    });
    // Sending it again gets the same refusal: the keys must be checked.
    expect(result).toMatchObject({
      httpStatus: 200,
      valid: true,
      code: '1001',
      outcome: 'failure',
      nextStep: { action: 'check-credentials' },
    });
  });

  it('reports an invalid reply envelope with its issues', async () => {
    const result = await sendTokenNotification({
      url: badEnvelope.url,
      body: example('TokenStatusActive').body,
      signer: createChecksumSigner(KEY),
    });
    expect(result.valid).toBe(false);
    expect(result.issues.map((i) => i.pointer)).toEqual(expect.arrayContaining(['/head/responseTimestamp']));
    expect(result.issues.some((i) => i.pointer.startsWith('/body/resultInfo'))).toBe(true);
  });

  it('rejects with a typed error: non-JSON reply, unreachable address, timeout', async () => {
    const send = (url: string, timeoutMs?: number) =>
      sendTokenNotification({
        url,
        body: example('TokenStatusActive').body,
        signer: createChecksumSigner(KEY),
        timeoutMs,
      });
    const nonJson = await send(html.url).catch((e) => e);
    expect(nonJson).toBeInstanceOf(GatewayNonJsonError);
    expect(nonJson.status).toBe(404);
    await expect(send(`http://127.0.0.1:${await freePort()}/hook`)).rejects.toBeInstanceOf(GatewayNetworkError);
    await expect(send(silent.url, 300)).rejects.toBeInstanceOf(GatewayTimeoutError);
  });

  it('never follows a redirect: it is an HTTP error, sent again later, and nothing goes to the other address', async () => {
    const elsewhere = await startServer((_req, res) => json(res, example('ReplyAccepted')));
    let status = 307;
    // A reply envelope in the redirect's body is not the merchant's reply either.
    const redirecting = await startServer((req, res) => {
      res.writeHead(status, { location: `${elsewhere.url}${req.url}`, 'content-type': 'application/json' });
      res.end(JSON.stringify(example('ReplyAccepted')));
    });
    try {
      for (status of [301, 302, 303, 307, 308]) {
        const before = redirecting.requests.length;
        const sent = await sendTokenNotification({
          url: redirecting.url,
          body: example('TokenStatusActive').body,
          signer: createChecksumSigner(KEY),
        }).catch((e) => e);
        expect(sent, String(status)).toBeInstanceOf(GatewayHttpError);
        expect(sent).toMatchObject({ kind: 'http', status, sent: 'yes', nextStep: { action: 'retry-later' } });
        const posted = await postNotification({ url: redirecting.url, text: '{}' }).catch((e) => e);
        expect(posted).toMatchObject({ kind: 'http', status, sent: 'yes' });
        expect(redirecting.requests.length - before).toBe(2);
      }
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
      await redirecting.close();
    }
  });

  it('refuses to send a notification that breaks the contract, unless told to', async () => {
    const body = example('TokenStatusActive').body;
    delete body.tokenInfo.cardScheme;
    const count = recorder.requests.length;
    const error = await sendTokenNotification({ url: recorder.url, body, signer: createChecksumSigner(KEY) }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues[0]).toMatchObject({ pointer: '/body/tokenInfo/cardScheme', rule: 'required' });
    expect(recorder.requests.length).toBe(count);
    await sendTokenNotification({ url: recorder.url, body, signer: createChecksumSigner(KEY), validateRequest: false });
    expect(recorder.requests.length).toBe(count + 1);
  });
});

describe('time limits, whatever the garbage collector does', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));

  it('postNotification and the typed client give up in time on an address that accepts and never answers, and close the connection', {
    timeout: 60_000,
  }, async () => {
    // In a Node process of its own (the built package), its garbage collector forced every 5 ms.
    const code = `
import { createServer } from 'node:http';
import { createGatewayClient } from 'gateway-contract/client';
import { postNotification } from 'gateway-contract/webhook/sender';
// Accepts every request and never answers; the sockets of requests still open are counted.
const open = new Set();
const server = createServer((req) => {
  open.add(req.socket);
  req.socket.on('close', () => open.delete(req.socket));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = 'http://127.0.0.1:' + server.address().port + '/hook';
setTimeout(() => { process.stdout.write('STUCK'); process.exit(3); }, 20000).unref();
const kind = (p) => p.then(() => 'answered', (e) => e.kind);
const viaFetch = (request) => fetch(request);
const client = (f) => createGatewayClient({ gatewayUrl: url, routerUrl: url, timeoutMs: 300, ...(f ? { fetch: f } : {}) });
const pay = { mid: 'M', orderId: 'O', requestType: 'PAYMENT', paymentMode: 'UPI_INTENT' };
const started = performance.now();
const kinds = await Promise.all([
  ...Array.from({ length: 4 }, () => kind(postNotification({ url, text: '{}', timeoutMs: 300 }))),
  kind(postNotification({ url, text: '{}', timeoutMs: 300, fetch: viaFetch })),
  kind(client().initiatePayment({ txnToken: 'T', body: pay })),
  kind(client(viaFetch).initiatePayment({ txnToken: 'T', body: pay })),
]);
const elapsed = performance.now() - started;
await new Promise((resolve) => setTimeout(resolve, 200));
server.close();
process.stdout.write(JSON.stringify({ kinds, elapsed, open: open.size }));
`;
    const { status, stdout, stderr } = await runNode([...FORCED_GC, '--input-type=module', '-e', code], {
      cwd: root,
      timeoutMs: 40_000,
    });
    expect(stdout, stderr).not.toBe('STUCK');
    expect(status, stderr).toBe(0);
    const { kinds, elapsed, open } = JSON.parse(stdout);
    expect(kinds).toEqual(Array(7).fill('timeout'));
    expect(elapsed).toBeLessThan(10_000);
    expect(open).toBe(0);
  });

  it('send-webhook --timeout-ms gives up in time and exits', { timeout: 60_000 }, async () => {
    const started = performance.now();
    const result = await runNode(
      [...FORCED_GC, BIN, 'send-webhook', '--url', silent.url, '--status', 'ACTIVE', '--timeout-ms', '500'],
      {
        env: { MERCHANT_KEY: KEY },
        timeoutMs: 25_000,
      },
    );
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/no reply from the merchant within 500 ms/);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('gateway-contract send-webhook', () => {
  const env = { MERCHANT_KEY: KEY };
  const neverShowsKey = (result: { stdout: string; stderr: string }) => {
    for (const key of [KEY, OTHER_KEY]) expect(result.stdout + result.stderr).not.toContain(key);
  };

  it('sends each status, validated, and exits 0 when the merchant accepts it', async () => {
    const statuses = ['INIT', 'SUSPENDED', 'ACTIVE', 'DEAD', 'FAILED'];
    const before = events.length;
    // One run per status, at once: the merchant receives each status once.
    const results = await Promise.all(
      statuses.map((status) =>
        runCli(
          [
            'send-webhook',
            '--url',
            merchant.url,
            '--status',
            status,
            '--mid',
            'MERCHANT0042',
            '--token-index',
            'TIN42',
          ],
          undefined,
          env,
        ),
      ),
    );
    results.forEach((result, i) => {
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`sent: tokenStatus ${statuses[i]} for mid MERCHANT0042`));
      expect(result.stdout).toMatch(/accepted: HTTP 200, resultCode "00"/);
      neverShowsKey(result);
    });
    const received = events
      .slice(before)
      .map((e) => [e.body.mid, e.body.tokenInfo.tokenIndexNumber, e.body.tokenInfo.tokenStatus]);
    expect(received.sort()).toEqual(statuses.map((status) => ['MERCHANT0042', 'TIN42', status]).sort());
  });

  it('reads at most 1 MiB of a reply: an endpoint that streams forever is an invalid reply, exit 1', async () => {
    const endless = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/`;
      const result = await runCli(['send-webhook', '--url', url, '--status', 'ACTIVE'], undefined, env);
      expect(result.status).toBe(1);
      expect(result.stdout).toMatch(/invalid reply: the merchant's reply is larger than 1048576 bytes/);
    } finally {
      endless.closeAllConnections();
      await new Promise<void>((resolve) => endless.close(() => resolve()));
    }
  });

  it('takes the key from --key too', async () => {
    const result = await runCli(
      ['send-webhook', '--url', merchant.url, '--status', 'active', '--key', KEY],
      undefined,
      { MERCHANT_KEY: '' },
    );
    expect(result.status).toBe(0);
    neverShowsKey(result);
  });

  it('exits 1 when the merchant answers 1001 (another key)', async () => {
    const result = await runCli(['send-webhook', '--url', otherKeyMerchant.url, '--status', 'ACTIVE'], undefined, env);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      /not accepted: HTTP 200, resultCode "1001", resultStatus "FAILED", resultMsg "Signature Validation Failure"/,
    );
    neverShowsKey(result);
  });

  it('exits 1 with the issues when the reply envelope is invalid, or not JSON', async () => {
    const invalid = await runCli(['send-webhook', '--url', badEnvelope.url, '--status', 'ACTIVE'], undefined, env);
    expect(invalid.status).toBe(1);
    const lines = invalid.stdout.trim().split('\n');
    const issues = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    expect(issues.map((i) => i.pointer)).toContain('/head/responseTimestamp');
    expect(lines.at(-1)).toMatch(/^invalid reply \(\d+ problem\(s\)\)/);
    const notJson = await runCli(['send-webhook', '--url', html.url, '--status', 'ACTIVE'], undefined, env);
    expect(notJson.status).toBe(1);
    expect(notJson.stdout).toMatch(/invalid reply: the merchant's reply is not a JSON envelope \(HTTP 404/);
  });

  it('exits 2 when the address cannot be reached or does not answer in time', async () => {
    const unreachable = await runCli(
      ['send-webhook', '--url', `http://127.0.0.1:${await freePort()}/hook`, '--status', 'ACTIVE'],
      undefined,
      env,
    );
    expect(unreachable.status).toBe(2);
    expect(unreachable.stderr).toMatch(
      /^gateway-contract send-webhook: the notification could not be delivered \(ECONNREFUSED\); address http/,
    );
    const slow = await runCli(
      ['send-webhook', '--url', silent.url, '--status', 'ACTIVE', '--timeout-ms', '300'],
      undefined,
      env,
    );
    expect(slow.status).toBe(2);
    expect(slow.stderr).toMatch(/no reply from the merchant within 300 ms/);
  });

  it.each([
    ['no --url', ['--status', 'ACTIVE'], env, /--url is required/],
    [
      'a --url that is not http(s)',
      ['--url', 'ftp://x', '--status', 'ACTIVE'],
      env,
      /--url must be an http\(s\) address/,
    ],
    [
      'no --status',
      ['--url', 'http://127.0.0.1:1/x'],
      env,
      /--status must be one of INIT, SUSPENDED, ACTIVE, DEAD, FAILED/,
    ],
    ['an unknown status', ['--url', 'http://127.0.0.1:1/x', '--status', 'GONE'], env, /--status must be one of/],
    [
      'no key',
      ['--url', 'http://127.0.0.1:1/x', '--status', 'ACTIVE'],
      { MERCHANT_KEY: '' },
      /a merchant key is needed: set MERCHANT_KEY/,
    ],
    [
      'a key of the wrong length',
      ['--url', 'http://127.0.0.1:1/x', '--status', 'ACTIVE', '--key', 'short-secret'],
      {},
      /must be 16 bytes/,
    ],
    [
      'a bad timeout',
      ['--url', 'http://127.0.0.1:1/x', '--status', 'ACTIVE', '--timeout-ms', 'soon'],
      env,
      /--timeout-ms takes a positive whole number/,
    ],
    [
      'an unknown option',
      ['--url', 'http://127.0.0.1:1/x', '--status', 'ACTIVE', '--verbose'],
      env,
      /unknown option "--verbose"/,
    ],
    [
      'a token index the contract refuses',
      ['--url', 'http://127.0.0.1:1/x', '--status', 'ACTIVE', '--token-index', 'TIN-1'],
      env,
      /breaks the contract: \/body\/tokenInfo\/tokenIndexNumber/,
    ],
  ])('exits 2 on %s, with one line', async (_what, args, environment, message) => {
    const result = await runCli(['send-webhook', ...args], undefined, environment as NodeJS.ProcessEnv);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stdout + result.stderr).not.toContain('short-secret');
    neverShowsKey(result);
  });

  it('has --help, and is listed in the overview', async () => {
    const help = await runCli(['send-webhook', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(
      /^Usage: gateway-contract send-webhook --url <merchant url> --status\s+<INIT\|SUSPENDED\|ACTIVE\|DEAD\|FAILED>/,
    );
    expect(help.stdout).toMatch(/MERCHANT_KEY/);
    const overview = await runCli(['--help']);
    expect(overview.stdout).toMatch(/send-webhook\s+Send a signed token status notification/);
  });
});
