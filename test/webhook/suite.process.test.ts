// The conformance run of a merchant's webhook address (`send-webhook --suite`, runWebhookSuite()):
// every case passes against the package's own receiver, and each kind of faulty receiver fails the
// cases it gets wrong, with the expected and the received code; no key or signature is printed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChecksumSigner,
  createChecksumVerifier,
  createWebhookReceiver,
  type TokenStatusEvent,
} from '../../src/index.js';
import { REPORT_FORMATS } from '../../src/report/format.js';
import { replyFor } from '../../src/webhook/reply.js';
import { runWebhookSuite } from '../../src/webhook/suite.js';
import { runCli } from '../helpers/cli.js';
import { sarifProblems } from '../helpers/sarifSchema.js';
import { freePort, json, listenWith, startServer, type TestServer } from '../helpers/servers.js';

const KEY = 'k3yK3yk3yK3yk3yK';
const MID = 'MERCHANT0001';
const signer = createChecksumSigner(KEY);

const events: TokenStatusEvent[] = [];
let strict: Awaited<ReturnType<typeof listenWith>>;
let anyMid: Awaited<ReturnType<typeof listenWith>>;
let alwaysAccepts: TestServer;
let requestIdsOnly: TestServer;
let html: TestServer;

beforeAll(async () => {
  strict = await listenWith(
    createWebhookReceiver({ verifier: createChecksumVerifier(KEY), expectedMid: MID }).nodeHandler(
      (e) => void events.push(e),
    ),
  );
  anyMid = await listenWith(
    createWebhookReceiver({ verifier: createChecksumVerifier(KEY) }).nodeHandler(() => undefined),
  );
  alwaysAccepts = await startServer((_req, res) => json(res, replyFor('00', Date.now())));
  // Checks like the package's receiver, but remembers request ids only: a replay with a new requestId gets through.
  const seenIds = new Set<string>();
  const receiver = createWebhookReceiver({
    verifier: createChecksumVerifier(KEY),
    expectedMid: MID,
    store: { claim: () => 'claimed', complete: () => true, release: () => undefined },
  });
  requestIdsOnly = await startServer(async (req, res) => {
    const verdict = await receiver.receive(req.text);
    if (!verdict.accepted) return json(res, verdict.reply);
    if (seenIds.has(verdict.event.head.requestId)) return json(res, replyFor('406', Date.now()));
    seenIds.add(verdict.event.head.requestId);
    json(res, verdict.reply);
  });
  html = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<h1>Hello</h1>');
  });
});
afterAll(async () => {
  await Promise.all([strict.close(), anyMid.close(), alwaysAccepts.close(), requestIdsOnly.close(), html.close()]);
});

describe('runWebhookSuite()', () => {
  it('passes every case against the package’s receiver, run after run', async () => {
    for (let run = 0; run < 2; run++) {
      const before = events.length;
      const result = await runWebhookSuite({ url: strict.url, signer, mid: MID });
      expect(
        result.cases.filter((c) => !c.passed),
        `run ${run}`,
      ).toEqual([]);
      expect(result.cases.map((c) => [c.name, c.expected, c.code, c.httpStatus])).toEqual([
        ['valid notification, tokenStatus INIT', '00', '00', 200],
        ['valid notification, tokenStatus SUSPENDED', '00', '00', 200],
        ['valid notification, tokenStatus ACTIVE', '00', '00', 200],
        ['valid notification, tokenStatus DEAD', '00', '00', 200],
        ['valid notification, tokenStatus FAILED', '00', '00', 200],
        ['bad signature (signed over other bytes)', '1001', '1001', 200],
        ['another signatureType', '1400', '1400', 200],
        ['no signatureType', '1005', '1005', 200],
        ['no signature', '410', '410', 200],
        ['no head', '1006', '1006', 200],
        ['a mandatory field missing (tokenInfo.cardSuffix)', '410', '410', 200],
        ['a malformed tokenIndexNumber', '405', '405', 200],
        ['another mid', '407', '407', 200],
        ['a stale requestTimestamp (60 minutes old)', '400', '400', 200],
        ['replay: first delivery', '00', '00', 200],
        ['replay: the same notification again', '406', '406', 200],
        ['replay: the same signature with a new requestId', '406', '406', 200],
        ['a body that is not JSON', '400', '400', 200],
      ]);
      expect(result).toMatchObject({ passed: 18, failed: 0 });
      // The merchant's handler saw the six accepted notifications, with the example's values.
      const seen = events.slice(before);
      expect(seen.map((e) => e.body.tokenInfo.tokenStatus)).toEqual([
        'INIT',
        'SUSPENDED',
        'ACTIVE',
        'DEAD',
        'FAILED',
        'ACTIVE',
      ]);
      for (const e of seen) expect(e.body.mid).toBe(MID);
    }
  });

  it('fails what a receiver gets wrong, saying what was expected and why', async () => {
    const lax = await runWebhookSuite({ url: anyMid.url, signer });
    expect(lax.cases.filter((c) => !c.passed).map((c) => [c.name, c.issues.map((i) => [i.rule, i.message])])).toEqual([
      [
        'another mid',
        [
          [
            'replyCode',
            'Expected 407 (Incorrect mid; section 7.1: 407 Incorrect mid; D-34 step 4 (the receiver knows its merchant id)), got 00.',
          ],
        ],
      ],
    ]);
    const yes = await runWebhookSuite({ url: alwaysAccepts.url, signer });
    expect(yes.passed).toBe(6);
    expect(yes.cases.filter((c) => !c.passed).map((c) => c.expected)).toEqual([
      '1001',
      '1400',
      '1005',
      '410',
      '1006',
      '410',
      '405',
      '407',
      '400',
      '406',
      '406',
      '400',
    ]);
    const ids = await runWebhookSuite({ url: requestIdsOnly.url, signer });
    expect(ids.cases.filter((c) => !c.passed).map((c) => c.name)).toEqual([
      'replay: the same signature with a new requestId',
    ]);
  });

  it('fails every case whose reply is not a JSON envelope, and rejects when the address cannot be reached', async () => {
    const result = await runWebhookSuite({ url: html.url, signer });
    expect(result.failed).toBe(18);
    expect(result.cases[0]?.issues).toEqual([
      {
        in: 'body',
        pointer: '',
        rule: 'delivery',
        message: expect.stringMatching(/^No usable reply: the merchant's reply is not a JSON envelope \(HTTP 200, /),
      },
    ]);
    await expect(
      runWebhookSuite({ url: `http://127.0.0.1:${await freePort()}/`, signer, timeoutMs: 2_000 }),
    ).rejects.toMatchObject({ kind: 'network' });
  });
});

describe('send-webhook --suite', () => {
  const env = { MERCHANT_KEY: KEY };

  it('exits 0 when every case passes, with a JUnit report for CI', async () => {
    const result = await runCli(
      ['send-webhook', '--url', strict.url, '--suite', '--mid', MID, '--format', 'junit'],
      undefined,
      env,
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      '<testsuites name="gateway-contract send-webhook --suite" tests="18" failures="0" errors="0" skipped="0">',
    );
    expect((result.stdout.match(/<testcase /g) ?? []).length).toBe(18);
    expect(result.stderr).toBe('18 cases: 18 passed, 0 failed\n');
  });

  it('exits 1 when a case fails, in every format, and never prints the key or a signature', async () => {
    // One run per format at once, each against a receiver of its own that accepts everything.
    const receivers = await Promise.all(
      REPORT_FORMATS.map(() => startServer((_req, res) => json(res, replyFor('00', Date.now())))),
    );
    const runs = await Promise.all(
      REPORT_FORMATS.map(async (format, i) => {
        const receiver = receivers[i]!;
        return {
          format,
          result: await runCli(['send-webhook', '--url', receiver.url, '--suite', '--format', format], undefined, env),
          sent: receiver.requests,
        };
      }),
    ).finally(() => Promise.all(receivers.map((r) => r.close())));
    for (const { format, result, sent } of runs) {
      expect(result.status, format).toBe(1);
      const out = result.stdout + result.stderr;
      expect(out, format).toContain(format === 'json' ? '"rule":"replyCode"' : '1001');
      if (format === 'sarif') expect(sarifProblems(JSON.parse(result.stdout))).toEqual([]);
      expect(out).not.toContain(KEY);
      expect(sent).toHaveLength(18);
      for (const request of sent) {
        const signature = /"signature":"([^"]+)"/.exec(request.text)?.[1];
        if (signature) expect(out, format).not.toContain(signature);
      }
    }
    const text = runs.find((r) => r.format === 'text')!.result;
    expect(text.stdout).toMatch(/^passed {3}valid notification, tokenStatus INIT$/m);
    expect(text.stdout).toMatch(
      /^failed {3}bad signature \(signed over other bytes\) \(notifyTokenStatus reply\): 1 problem\(s\)\n {2}\/body\/resultInfo\/resultCode replyCode: Expected 1001 /m,
    );
    expect(text.stdout.endsWith('18 cases: 6 passed, 12 failed\n')).toBe(true);
  });

  it.each([
    [['--suite', '--status', 'ACTIVE'], /--status and --request-id are for one notification/],
    [['--status', 'ACTIVE', '--format', 'junit'], /--format and --output go with --suite/],
    [['--suite', '--format', 'xml'], /--format must be one of/],
  ])('exits 2 on %j', async (args, message) => {
    const result = await runCli(['send-webhook', '--url', strict.url, ...(args as string[])], undefined, env);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('exits 2 when the address cannot be reached', async () => {
    const result = await runCli(
      ['send-webhook', '--url', `http://127.0.0.1:${await freePort()}/hook`, '--suite', '--timeout-ms', '2000'],
      undefined,
      env,
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/could not be delivered/);
  });
});
