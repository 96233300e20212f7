// The proxy's outputs mask by allow-list (docs/decisions.md, D-102 to D-104): generated exchanges of
// many shapes (JSON with secrets in arrays, unknown members and nested answers, forms, invalid JSON,
// bodies deeper than the proxy reads, headers, queries partly percent-encoded, `\u` escapes in either
// case, Base64) go through the proxy in front of a stand-in service, with Luhn-valid card numbers,
// CVVs, tokens, the merchant key and signatures planted; none comes out of the HAR, any report format,
// the log lines, or `validate --har` replaying the HAR. The eight shapes that once leaked are examples.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.js';
import { scrubText } from '../../src/proxy/redact.js';
import { type RunningProxy, startProxy } from '../../src/proxy/server.js';
import { formatReport, REPORT_FORMATS } from '../../src/report/format.js';
import { fcParameters, fcTimeout } from '../helpers/arbitraries.js';
import { BIN, collectOutput, runCli } from '../helpers/cli.js';
import { freePort, startServer, type TestServer } from '../helpers/servers.js';

const KEY = 'Kx9pQ2vL7mN4rT8z';
const PAY_PATH = operations.find((o) => o.operationId === 'initiatePayment')?.path as string;
/** Every operation's path: each has its own allow-list (tokenizeCard's `mid` is a path parameter). */
const PATHS = operations.flatMap((o) => (o.path === null ? [] : [o.path]));

/** A Luhn-valid card number: 15 digits and their check digit. */
function luhnComplete(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return `${digits}${(10 - (sum % 10)) % 10}`;
}

const card = fc.stringMatching(/^4[1-9][0-9]{13}$/).map(luhnComplete);
const cvv = fc.stringMatching(/^[1-9][0-9]{2,3}$/);
const token = fc.stringMatching(/^tok[A-Za-z0-9]{17,30}$/);
const signature = fc.stringMatching(/^[A-Za-z0-9+/]{40,60}$/).map((s) => `${s}==`);

interface Planted {
  card: string;
  cvv: string;
  token: string;
  signature: string;
}

/** Every spelling of a value a scan looks for: raw, percent-encoded, `\u` escaped (both cases), Base64 and Base64url. */
function spellings(value: string): string[] {
  const u = [...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const b64 = Buffer.from(value).toString('base64');
  return [
    value,
    encodeURIComponent(value),
    u,
    u.toUpperCase().replace(/\\U/g, '\\u'),
    b64,
    b64.replace(/=+$/, ''),
    Buffer.from(value).toString('base64url'),
  ];
}

/** Asserts that no planted value, in any spelling, and no CVV as a field's value, is in `text`. */
function expectClean(text: string, planted: Planted, where: string): void {
  for (const value of [KEY, planted.card, planted.token, planted.signature])
    for (const spelled of spellings(value)) {
      const at = text.indexOf(spelled);
      expect(
        at,
        `${where} holds a planted value (${spelled.length} characters) near: ${text.slice(Math.max(0, at - 60), at)}`,
      ).toBe(-1);
    }
  expect(
    new RegExp(`cvv[^0-9A-Za-z]{0,6}${planted.cvv}(?![0-9])`, 'i').test(text),
    `${where} holds the CVV as a field's value`,
  ).toBe(false);
}

/** Percent-encodes every other character of `value`: a partly encoded spelling. */
const partlyEncoded = (value: string) =>
  [...value].map((c, i) => (i % 2 === 0 ? `%${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c)).join('');
const escaped = (value: string, upper: boolean) =>
  [...value]
    .map(
      (c) =>
        `\\u${upper ? c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0') : c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    .join('');

interface Exchange {
  what: string;
  query: string;
  headers: Record<string, string>;
  body: string;
  /** The stand-in service's answer. */
  answer: { headers: Record<string, string>; body: string };
}

const envelope = (p: Planted) => ({
  head: { tokenType: 'TXN_TOKEN', token: p.token, signature: p.signature },
  body: {
    mid: 'MERCHANT0001',
    orderId: 'ORDER_1',
    requestType: 'PAYMENT',
    paymentMode: 'CREDIT_CARD',
    cardInfo: { cardFlowType: 'CARD_DETAILS', cardUniqueId: p.card, cvv: p.cvv, expiryMonth: '12', expiryYear: '2030' },
    extendInfo: { udf1: p.card, [p.card]: p.token },
    notes: [p.card, p.token, { sig: p.signature }],
  },
});

const goodAnswer = (p: Planted) =>
  JSON.stringify({
    head: { responseTimestamp: '1768989600000', echo: p.signature },
    body: {
      resultInfo: { resultCode: '0000', resultStatus: 'S', resultMsg: `paid with ${p.card}` },
      nested: { deeper: [{ token: p.token }] },
    },
  });

/** The shapes of a request and its answer, each with the planted values somewhere a field rule would not look. */
const SHAPES: Record<string, (p: Planted) => Exchange> = {
  'a form body': (p) => ({
    what: 'form',
    query: '?mid=MERCHANT0001&orderId=ORDER_1',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `cardNumber=${p.card}&cvv=${p.cvv}&token=${p.token}&signature=${encodeURIComponent(p.signature)}`,
    answer: { headers: {}, body: goodAnswer(p) },
  }),
  'a body that is not JSON': (p) => ({
    what: 'invalid JSON',
    query: '?mid=MERCHANT0001&orderId=ORDER_1',
    headers: { 'content-type': 'application/json' },
    body: `{"head":{"token":"${p.token}"},"body":{"cardNumber":${p.card},"cvv":"${p.cvv}",}`,
    answer: { headers: {}, body: goodAnswer(p) },
  }),
  'secrets inside arrays, request and answer': (p) => ({
    what: 'arrays',
    query: '?mid=MERCHANT0001&orderId=ORDER_1',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(envelope(p)),
    answer: {
      headers: {},
      body: JSON.stringify({
        head: {},
        body: { resultInfo: { resultCode: '0000' }, list: [p.card, [p.token, { a: [p.signature] }]] },
      }),
    },
  }),
  'a card number in a request header': (p) => ({
    what: 'headers',
    query: '?mid=MERCHANT0001&orderId=ORDER_1',
    headers: {
      'content-type': 'application/json',
      'x-card': p.card,
      [`x-${p.card}`]: '1',
      authorization: `Bearer ${p.token}`,
      accept: `application/json; q=${p.cvv}`,
    },
    body: JSON.stringify(envelope(p)),
    answer: { headers: { 'x-token': p.token, 'set-cookie': `s=${p.signature}` }, body: goodAnswer(p) },
  }),
  'a body deeper than the reader reads': (p) => ({
    what: 'deep',
    query: '?mid=MERCHANT0001&orderId=ORDER_1',
    headers: { 'content-type': 'application/json' },
    body: `${'{"a":'.repeat(80)}{"cardNumber":"${p.card}","token":"${p.token}"}${'}'.repeat(80)}`,
    answer: { headers: {}, body: goodAnswer(p) },
  }),
  'the merchant key partly percent-encoded in the query': (p) => ({
    what: 'query',
    query: `?mid=MERCHANT0001&orderId=ORDER_1&key=${partlyEncoded(KEY)}&card=${p.card}&${p.card}=1&t${p.token}`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(envelope(p)),
    answer: { headers: {}, body: goodAnswer(p) },
  }),
  'a signature echoed with \\u escapes, in a field the contract marks public': (p) => ({
    what: 'escapes',
    query: '?mid=MERCHANT0001&orderId=ORDER_1',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(envelope(p)),
    answer: {
      headers: {},
      body: `{"head":{"responseTimestamp":"1768989600000"},"body":{"resultInfo":{"resultCode":"${escaped(p.signature, false)}","resultStatus":"${escaped(p.signature, true)}"}}}`,
    },
  }),
  'a token nested in an answer, and secrets in Base64 in public places': (p) => ({
    what: 'nested',
    query: `?mid=MERCHANT0001&orderId=${Buffer.from(KEY).toString('base64url')}`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(envelope(p)),
    answer: {
      headers: {},
      body: JSON.stringify({
        head: { responseTimestamp: '1768989600000' },
        body: {
          resultInfo: {
            resultCode: Buffer.from(`x${p.card}`).toString('base64'),
            resultStatus: Buffer.from(`yz${p.token}`).toString('base64'),
          },
          txnInfo: {
            txnID: p.token,
            orderID: Buffer.from(p.signature).toString('base64').replace(/=+$/, ''),
            extra: { token: { value: p.token } },
          },
        },
      }),
    },
  }),
};

/** A shape the allow-list alone would let through: a card number sent where the contract marks the place public. */
SHAPES['a card number in places the contract marks public'] = (p) => ({
  what: 'public places',
  query: `?mid=MERCHANT0001&orderId=${p.card}`,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    head: { tokenType: 'TXN_TOKEN', token: 'placeholder' },
    body: {
      mid: p.card.replace(/([0-9]{4})(?=[0-9])/g, '$1 '),
      orderId: p.card,
      requestType: 'PAYMENT',
      paymentMode: 'UPI',
    },
  }),
  answer: {
    headers: {},
    body: JSON.stringify({
      head: { responseTimestamp: '1768989600000' },
      body: { resultInfo: { resultCode: p.card, resultStatus: 'S' } },
    }),
  },
});

const dir = mkdtempSync(join(tmpdir(), 'secrets-proxy-'));
const harFile = join(dir, 'run.har');
let upstream: TestServer;
let proxy: RunningProxy;
const logLines: string[] = [];
const answers: Exchange['answer'][] = [];
const plantedAll: Planted[] = [];
let harRead = 0;

beforeAll(async () => {
  upstream = await startServer((_request, res) => {
    const answer = answers.shift() ?? { headers: {}, body: '{}' };
    res.writeHead(200, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body);
  });
  proxy = await startProxy({
    gatewayUpstream: upstream.url,
    routerUpstream: upstream.url,
    port: 0,
    merchantKey: KEY,
    harFile,
    onLog: (line) => logLines.push(line),
  });
});

afterAll(async () => {
  await proxy?.stop();
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Sends one exchange through the proxy; returns what the proxy wrote for it (its HAR entry, its log line, its report). */
async function send(exchange: Exchange, path = PAY_PATH): Promise<string> {
  answers.push(exchange.answer);
  const answer = await fetch(`${proxy.url}${path}${exchange.query}`, {
    method: 'POST',
    headers: exchange.headers,
    body: exchange.body,
  });
  await answer.arrayBuffer();
  const har = readFileSync(harFile, 'utf8');
  const entry = har.slice(harRead);
  harRead = har.length;
  const report = proxy.report();
  const last = { ...report, cases: report.cases.slice(-1) };
  return [
    entry,
    logLines.at(-1) ?? '',
    ...REPORT_FORMATS.map((format) => formatReport(last, format, { tool: { name: 't', version: '0' } })),
  ].join('\n');
}

const plantedArbitrary = fc.record({ card, cvv, token, signature });

describe('the shapes that kept secrets in clear', () => {
  const examples: Planted = {
    card: '4000056655665556',
    cvv: '987',
    token: 'tokA1b2C3d4E5f6G7h8I9j0',
    signature: 'c2lnbmF0dXJlT2ZUaGVTZXJ2aWNlMTIzNDU2Nzg5MA+/xyz==',
  };
  for (const [name, shape] of Object.entries(SHAPES))
    it(`masks ${name}`, async () => {
      plantedAll.push(examples);
      expectClean(await send(shape(examples)), examples, name);
    });
});

describe('generated exchanges of every shape', () => {
  it(
    'never write a planted value in any output',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          plantedArbitrary,
          fc.constantFrom(...Object.keys(SHAPES)),
          fc.constantFrom(...PATHS),
          fc.boolean(),
          async (planted, shape, path, cardAsMid) => {
            plantedAll.push(planted);
            const exchange = (SHAPES[shape] as (p: Planted) => Exchange)(planted);
            expectClean(
              await send(exchange, path.replace('{mid}', cardAsMid ? planted.card : 'MERCHANT0001')),
              planted,
              `${exchange.what} to ${path}`,
            );
          },
        ),
        fcParameters(40),
      );
    },
    fcTimeout(40),
  );
});

describe('the recording as a whole', () => {
  it('is HAR 1.2 that replays through validate --har, and neither holds a planted value', async () => {
    await proxy.stop();
    const text = readFileSync(harFile, 'utf8');
    const har = JSON.parse(text) as { log: { entries: unknown[] } };
    expect(har.log.entries.length).toBe(proxy.report().counts.cases);
    const replay = await runCli(['validate', '--har', harFile, '--format', 'json']);
    expect([0, 1]).toContain(replay.status);
    expect(replay.stdout.trim().split('\n').length).toBeGreaterThan(0);
    for (const planted of plantedAll) {
      expectClean(text, planted, 'the HAR');
      expectClean(replay.stdout + replay.stderr, planted, 'the replay');
      expectClean(logLines.join('\n'), planted, 'the log');
      for (const format of REPORT_FORMATS)
        expectClean(formatReport(proxy.report(), format, { tool: { name: 't', version: '0' } }), planted, format);
    }
  }, 120_000);
});

describe('the last scrub', () => {
  /** A spelling of `value` as an echo might write it: percent-encoded wholly or partly, `\u` escaped in either case, Base64 at any alignment. */
  const spelled = fc.constantFrom<(value: string) => string>(
    (v) => v,
    (v) => encodeURIComponent(v),
    (v) => partlyEncoded(v),
    (v) => partlyEncoded(v).toUpperCase(),
    (v) => escaped(v, false),
    (v) => escaped(v, true),
    (v) => escaped(v.slice(0, 5), false) + v.slice(5),
    (v) => Buffer.from(v).toString('base64'),
    (v) => Buffer.from(v).toString('base64url'),
    (v) => Buffer.from(`a${v}`).toString('base64').replace(/=+$/, ''),
    (v) => Buffer.from(`ab${v}`).toString('base64url'),
  );

  it('leaves no spelling of a secret in any text, and JSON stays JSON', () => {
    fc.assert(
      fc.property(
        fc.oneof(card, token, signature),
        spelled,
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        (secret, spell, before, after) => {
          const text = JSON.stringify({ before, echo: `${before}${spell(secret)}${after}`, after });
          const out = scrubText(text, [secret]);
          expect(() => JSON.parse(out)).not.toThrow();
          expect(out.length).toBe(text.length);
          const echo = (JSON.parse(out) as { echo: string }).echo;
          for (const s of spellings(secret)) expect(echo.includes(s) || out.includes(s)).toBe(false);
          expect(scrubText(`${before}${spell(secret)}${after}`, [secret]).includes(secret)).toBe(false);
        },
      ),
      fcParameters(300),
    );
  });

  it('reads escapes inside escapes, and runs of backslashes and percent signs, within its bounds', () => {
    const secret = 'tokA1b2C3d4E5f6G7h8I9j0';
    const twice = JSON.stringify(JSON.stringify({ echo: escaped(secret, false) }));
    expect(scrubText(twice, [secret])).not.toContain('u0074');
    const hostile = `${'\\'.repeat(200_000)}${'%25'.repeat(200_000)}${secret}`;
    expect(scrubText(hostile, [secret]).endsWith(secret)).toBe(false);
  });
});

describe('the command', () => {
  it('prints no planted value on standard output or standard error, nor in its report or its HAR', async () => {
    const examples: Planted = {
      card: '4000056655665556',
      cvv: '987',
      token: 'tokZ9y8X7w6V5u4T3s2R1q0',
      signature: 'U2lnbmF0dXJlT2ZUaGVTZXJ2aWNlOTg3NjU0MzIxMA+/abc==',
    };
    const port = await freePort();
    const cliHar = join(dir, 'cli.har');
    const output = join(dir, 'report.sarif');
    const child = spawn(
      process.execPath,
      [
        BIN,
        'proxy',
        '--gateway-upstream',
        upstream.url,
        '--router-upstream',
        upstream.url,
        '--port',
        String(port),
        '--max-exchanges',
        String(Object.keys(SHAPES).length),
        '--format',
        'sarif',
        '--output',
        output,
        '--har',
        cliHar,
      ],
      { env: { ...process.env, MERCHANT_KEY: KEY }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const done = collectOutput(child);
    try {
      for (let i = 0; i < 200; i++) {
        try {
          await fetch(`http://127.0.0.1:${port}/`);
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 25));
        }
      }
      for (const shape of Object.values(SHAPES)) {
        const exchange = shape(examples);
        answers.push(exchange.answer);
        const answer = await fetch(`http://127.0.0.1:${port}${PAY_PATH}${exchange.query}`, {
          method: 'POST',
          headers: exchange.headers,
          body: exchange.body,
        });
        await answer.arrayBuffer();
      }
    } finally {
      setTimeout(() => child.kill('SIGTERM'), 10_000).unref();
    }
    const result = await done;
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`proxy: exchange ${Object.keys(SHAPES).length}`);
    for (const [what, text] of [
      ['stdout', result.stdout],
      ['stderr', result.stderr],
      ['the report', readFileSync(output, 'utf8')],
      ['the HAR', readFileSync(cliHar, 'utf8')],
    ] as const)
      expectClean(text, examples, what);
  }, 60_000);
});
