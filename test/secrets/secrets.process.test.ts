// No secret in any error: every field the contract marks `x-sensitive: true`, found by walking the
// bundled contract, is carried through every error path (validate(), the CLI's standard output and
// standard error, malformed JSON around it, every report format of a batch run over files, NDJSON
// and HAR, the card helper's errors, the client's typed errors) with a distinctive planted value
// that must appear nowhere in what comes out.

import { generateKeyPairSync } from 'node:crypto';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redaction } from '../../generated/redaction.js';
import { redactionOf } from '../../scripts/lib/redaction.mjs';
import { main } from '../../src/cli/main.js';
import {
  buildCardPlaintext,
  CardDataError,
  createGatewayClient,
  encryptCardData,
  type GatewayClientOptions,
  GatewayError,
  GatewayNonJsonError,
  operations,
  passesLuhn,
  postNotification,
  RequestValidationError,
  ResponseValidationError,
  validate,
} from '../../src/index.js';
import { harRecords } from '../../src/inputs/har.js';
import { ndjsonRecords } from '../../src/inputs/ndjson.js';
import { parseJson } from '../../src/json/parse.js';
import { maskPayload, placesOf } from '../../src/json/publicValues.js';
import { formatReport, REPORT_FORMATS } from '../../src/report/format.js';
import { type PayloadRecord, validateMany } from '../../src/validation/validateMany.js';
import {
  applyMutation,
  contract,
  type Direction,
  fcParameters,
  mutationsOf,
  type OperationView,
  operationViews,
  plant,
  type Sample,
  type SensitiveSite,
  sampleArbitrary,
  satisfies,
  sensitiveLocations,
  sensitiveSitesOf,
} from '../helpers/arbitraries.js';
import { runCli } from '../helpers/cli.js';
import { bundledContract } from '../helpers/contract.js';
import { harEntry, harOf } from '../helpers/har.js';
import { startServer } from '../helpers/servers.js';
import { clientFor, MID, sandboxFor, tokenizeBody } from '../sandbox/support.js';

/** Planted values: the first one a field's schema accepts is used, so the payload stays valid around it. */
const MARKERS = ['Zq7s3cr3T-M4rk-9xK2vW', '4929180731215548', '581703', '5817'];

function markerFor(site: SensitiveSite): string {
  const marker = MARKERS.find((m) => satisfies({ allOf: site.schemas }, m));
  if (!marker) throw new Error(`no planted value fits ${site.location}`);
  return marker;
}

/** Everything a caller or a log could see of a value: its JSON, its inspection, and an error's stack. */
function seen(value: unknown): string {
  const stack = value instanceof Error ? String(value.stack) : '';
  let json = '';
  try {
    json = JSON.stringify(value) ?? '';
  } catch {
    json = '';
  }
  return `${json}\n${inspect(value, { depth: 10 })}\n${stack}`;
}

/**
 * Everything a reader of a value reaches without calling a getter: its own fields, enumerable or
 * not, at any depth (an error's cause, a hidden field), and its inspection with hidden fields shown.
 */
function exposed(value: unknown): string {
  const parts: string[] = [];
  const visited = new Set<object>();
  const walk = (v: unknown, depth: number) => {
    if (typeof v === 'string') parts.push(v);
    if (v === null || (typeof v !== 'object' && typeof v !== 'function') || visited.has(v) || depth > 12) return;
    visited.add(v);
    for (const key of Reflect.ownKeys(v)) {
      parts.push(String(key));
      const d = Object.getOwnPropertyDescriptor(v, key);
      if (d && 'value' in d) walk(d.value, depth + 1);
    }
  };
  walk(value, 0);
  return `${parts.join('\n')}\n${inspect(value, { showHidden: true, depth: 10 })}`;
}

function expectNoSecret(text: string, marker: string, what: string) {
  if (text.includes(marker))
    throw new Error(
      `${what}: the planted secret appears in ${text.slice(Math.max(0, text.indexOf(marker) - 300), text.indexOf(marker) + 100)}`,
    );
}

/** The CLI in this process (the same code the `gateway-contract` command runs), with input on standard input. */
async function cli(args: string[], input: string | Buffer) {
  let stdout = '';
  let stderr = '';
  const sink = (add: (t: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        add(String(chunk));
        done();
      },
    });
  const status = await main(args, {
    stdin: Readable.from([Buffer.from(input)]),
    stdout: sink((t) => {
      stdout += t;
    }),
    stderr: sink((t) => {
      stderr += t;
    }),
  });
  return { status, stdout, stderr };
}

const flags = (s: Sample) => [
  ...Object.entries(s.query ?? {}).flatMap(([k, v]) => ['--query', `${k}=${v}`]),
  ...Object.entries(s.path ?? {}).flatMap(([k, v]) => ['--path', `${k}=${v}`]),
];
const options = (s: Sample) => ({ ...(s.query ? { query: s.query } : {}), ...(s.path ? { path: s.path } : {}) });

interface Planted {
  view: OperationView;
  direction: Direction;
  site: SensitiveSite;
  sample: Sample;
  marker: string;
}

/** For each operation and direction, a valid sample holding each sensitive field the contract lets it carry. */
function plantedSites(): Planted[] {
  const list: Planted[] = [];
  const { seed } = fcParameters(1);
  for (const view of operationViews) {
    for (const direction of ['request', 'response'] as Direction[]) {
      const wanted = sensitiveLocations(view.schema(direction));
      const found = new Map<string, Planted>();
      for (let round = 0; round < 20 && found.size < wanted.size; round++) {
        for (const sample of fc.sample(sampleArbitrary(view, direction), { seed: seed + round, numRuns: 25 })) {
          for (const site of sensitiveSitesOf(view, direction, sample)) {
            // One sample per field and place in the payload (a field reached by two routes is planted twice).
            const key = `${site.location} ${site.pointer.replace(/\/\d+/g, '/n')}`;
            if (found.has(key)) continue;
            const marker = markerFor(site);
            found.set(key, { view, direction, site, sample: plant(sample, site.at, marker), marker });
          }
        }
      }
      const reached = new Set([...found.values()].map((p) => p.site.location));
      expect(
        [...wanted].filter((w) => !reached.has(w)),
        `${view.operationId} ${direction}`,
      ).toEqual([]);
      list.push(...found.values());
    }
  }
  return list;
}

const sites = plantedSites();

/** Payloads that carry the planted secret into an error: the field itself broken, or the payload broken around it. */
function hostileVariants(p: Planted): { what: string; sample: Sample }[] {
  const { site, sample, marker } = p;
  const parentAt = site.at.slice(0, -1);
  const variants: { what: string; sample: Sample }[] = [
    { what: 'wrong type (array)', sample: plant(sample, site.at, [marker]) },
    { what: 'wrong type (object)', sample: plant(sample, site.at, { value: marker }) },
    { what: 'broken format', sample: plant(sample, site.at, `${marker}!`) },
    { what: 'broken format (prefix)', sample: plant(sample, site.at, ` ${marker}`) },
    { what: 'too long', sample: plant(sample, site.at, marker.repeat(Math.ceil(400 / marker.length))) },
    { what: 'unknown field named like the secret', sample: plant(sample, [...parentAt, marker], 'x') },
    { what: 'unknown top-level field named like the secret', sample: plant(sample, [marker], 'x') },
    { what: 'unknown field holding the secret', sample: plant(sample, [...parentAt, `${site.name}Copy`], marker) },
  ];
  if (/^\d+$/.test(marker))
    variants.push({ what: 'wrong type (number)', sample: plant(sample, site.at, Number(marker)) });
  // Every single mutation of the payload around the secret: missing fields, conditionals, patterns...
  for (const m of mutationsOf(p.view, p.direction, sample))
    variants.push({ what: `${m.kind} at ${m.in} ${m.pointer}`, sample: applyMutation(sample, m) });
  return variants;
}

describe('the sensitive fields of the contract', () => {
  it('are found by walking the contract, and include every kind of secret', () => {
    const names = new Set<string>();
    const locations: string[] = [];
    (function walkSchemas(node: any, pointer: string) {
      if (!node || typeof node !== 'object') return;
      if (node['x-sensitive'] === true) locations.push(pointer);
      for (const [k, v] of Object.entries(node)) walkSchemas(v, `${pointer}/${k}`);
    })(contract.components.schemas, '#/components/schemas');
    for (const l of locations) names.add(l.split('/').at(-1)!);
    for (const name of [
      'cardNumber',
      'securityCode',
      'cardUniqueId',
      'cvv',
      'Mpin',
      'encryptedCardData',
      'token',
      'TAVV',
      'cardToken',
      'svcSsoToken',
      'signature',
      'txnToken',
      'checksumHash',
    ])
      expect(names).toContain(name);
    // Every one is carried by an operation, except the card data plaintext, which only the card helper handles.
    const carried = new Set(
      operationViews.flatMap((v) =>
        (['request', 'response'] as Direction[]).flatMap((d) => [...sensitiveLocations(v.schema(d))]),
      ),
    );
    expect(locations.filter((l) => !carried.has(l))).toEqual([
      '#/components/schemas/CardData/properties/cardNumber',
      '#/components/schemas/CardData/properties/securityCode',
    ]);
    expect(new Set(sites.map((s) => s.site.location))).toEqual(carried);
  });

  it('are planted in valid payloads (the secret itself is no error)', () => {
    for (const p of sites) {
      expect(
        validate(p.view.operationId as any, p.direction, p.sample.payload, options(p.sample)).valid,
        `${p.view.operationId} ${p.site.pointer}`,
      ).toBe(true);
      expect(JSON.stringify(p.sample.payload)).toContain(p.marker);
    }
  });
});

describe('validate()', () => {
  it('meets the secrets on every kind of error path', () => {
    const kinds = new Set(sites.flatMap((p) => hostileVariants(p).map((v) => v.what.split(' ')[0])));
    for (const kind of [
      'wrong',
      'broken',
      'too',
      'unknown',
      'required',
      'conditional',
      'pattern',
      'maxLength',
      'enum',
      'type',
      'unknownField',
      'namedCheck',
      'parameter',
    ])
      expect(kinds).toContain(kind);
  });

  for (const p of sites) {
    it(`never puts ${p.view.operationId} ${p.direction} ${p.site.pointer} into an error`, () => {
      let invalid = 0;
      for (const { what, sample } of hostileVariants(p)) {
        const result = validate(p.view.operationId as any, p.direction, sample.payload, options(sample));
        if (!result.valid) invalid++;
        expectNoSecret(seen(result), p.marker, what);
      }
      expect(invalid).toBeGreaterThan(5);
    });
  }
});

describe('the CLI', () => {
  it('never prints a planted secret on standard output or standard error', async () => {
    for (const p of sites) {
      for (const { what, sample } of hostileVariants(p)) {
        const out = await cli(
          ['validate', p.view.operationId, p.direction, '-', ...flags(sample)],
          JSON.stringify(sample.payload),
        );
        expect(out.status, what).not.toBe(2);
        expectNoSecret(out.stdout + out.stderr, p.marker, `${p.view.operationId} ${p.site.pointer} ${what}`);
      }
    }
  });

  it('never echoes a secret near the place where JSON is malformed', async () => {
    for (const p of sites) {
      const text = JSON.stringify(p.sample.payload);
      const at = text.indexOf(p.marker);
      const end = at + p.marker.length;
      const key = JSON.stringify(p.site.name);
      const broken: [string, string | Buffer][] = [
        ['junk after the value', `${text.slice(0, end + 1)}x${text.slice(end + 1)}`],
        ['unterminated string', text.slice(0, end)],
        ['unquoted value', `${text.slice(0, at - 1)}${p.marker}z${text.slice(end + 1)}`],
        ['invalid escape', `${text.slice(0, end)}\\q${text.slice(end)}`],
        ['control character', `${text.slice(0, end)}\u0001${text.slice(end)}`],
        ['cut right after the value', text.slice(0, end + 1)],
        [
          'invalid UTF-8 after the value',
          Buffer.concat([Buffer.from(text.slice(0, end)), Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(end))]),
        ],
        ['the field twice', text.replace(`${key}:"${p.marker}"`, `${key}:"${p.marker}",${key}:"${p.marker}"`)],
        ['the secret as a repeated key', text.replace(/^\{/, `{"${p.marker}":1,"${p.marker}":2,`)],
      ];
      for (const [what, input] of broken) {
        if (input === text) continue; // the field is not written as `"name":"value"` here
        const parsed = parseJson(input);
        expect(parsed.ok, `${p.site.pointer} ${what}`).toBe(false);
        expectNoSecret(JSON.stringify(parsed), p.marker, what);
        const out = await cli(['validate', p.view.operationId, p.direction, '-'], input);
        expect(out.status, what).toBe(1);
        expectNoSecret(out.stdout + out.stderr, p.marker, `CLI ${what}`);
      }
    }
  });

  it('as a process, keeps each kind of secret out of its output', async () => {
    // One run of the real command per sensitive field, the field of the wrong type beside other errors.
    // The runs at once: each is a process of its own.
    const byName = new Map(sites.filter((s) => s.direction === 'request').map((s) => [s.site.name, s]));
    const runs = await Promise.all(
      [...byName.values()].map(async (p) => {
        const sample = plant(p.sample, p.site.at, [p.marker]);
        sample.payload.unknownField = p.marker;
        const [out, malformed] = await Promise.all([
          runCli(['validate', p.view.operationId, 'request', '-', ...flags(sample)], JSON.stringify(sample.payload)),
          runCli(
            ['validate', p.view.operationId, 'request', '-'],
            JSON.stringify(p.sample.payload).replace(`"${p.marker}"`, `"${p.marker}"x`),
          ),
        ]);
        return { p, out, malformed };
      }),
    );
    for (const { p, out, malformed } of runs) {
      expect(out.status, p.site.name).toBe(1);
      expectNoSecret(out.stdout + out.stderr, p.marker, `process ${p.site.name}`);
      expect(malformed.status).toBe(1);
      expectNoSecret(malformed.stdout + malformed.stderr, p.marker, `process malformed ${p.site.name}`);
    }
  });
});

/** The URL of an operation with the sample's parameters, under a base path; the webhook at the merchant's own address. */
function urlOf(p: Planted, sample: Sample): string {
  if (p.view.operationId === 'notifyTokenStatus') return 'https://merchant.example/hooks/token';
  let path = operations.find((o) => o.operationId === p.view.operationId)?.path as string;
  for (const [k, v] of Object.entries(sample.path ?? {})) path = path.replace(`{${k}}`, encodeURIComponent(String(v)));
  const query = new URLSearchParams(Object.entries(sample.query ?? {}).map(([k, v]) => [k, String(v)]));
  return `https://gateway.example/base${path}${query.size ? `?${query}` : ''}`;
}

const REPORT = { tool: { name: 'gateway-contract', version: '1.0.0' } };

describe('the reports of a batch run', () => {
  it('never hold a planted secret, in any format, for files, NDJSON lines and recorded traffic', async () => {
    for (const p of sites) {
      const records: PayloadRecord[] = [];
      const entries: unknown[] = [];
      for (const { what, sample } of hostileVariants(p)) {
        const text = JSON.stringify(sample.payload, null, 2);
        const base = {
          operationId: p.view.operationId,
          direction: p.direction,
          payload: sample.payload,
          ...options(sample),
        };
        records.push({ ...base, name: what, source: { file: 'samples/case.json', text } });
        const line = JSON.stringify({ ...base, name: what });
        records.push({
          ...base,
          name: what,
          source: { file: 'cases.ndjson', line: 3, text: line, pointer: '/payload' },
        });
        const request = p.direction === 'request' ? sample.payload : {};
        const response = p.direction === 'response' ? sample.payload : undefined;
        entries.push(harEntry('POST', urlOf(p, sample), request, response));
      }
      // Traffic of another host carrying the secret in its path and query: skipped, and named without it.
      entries.push(
        harEntry('GET', `https://cdn.example/cards/${p.marker}/x?secret=${p.marker}`, undefined, { echo: p.marker }),
      );
      entries.push(
        harEntry('POST', `https://cdn.example/${p.marker}`, { [p.marker]: p.marker }, { [p.marker]: p.marker }),
      );
      records.push(...harRecords(harOf(entries, 2), { file: 'traffic.har', webhookPath: '/hooks/token' }));
      const result = await validateMany(records);
      expect(result.counts.invalid, `${p.view.operationId} ${p.site.pointer}`).toBeGreaterThan(5);
      expect(result.counts.skipped).toBe(2);
      for (const format of REPORT_FORMATS) {
        const report = formatReport({ ...result, title: 'gateway-contract validate' }, format, REPORT);
        expectNoSecret(report, p.marker, `${format} ${p.view.operationId} ${p.site.pointer}`);
      }
      expectNoSecret(seen(result), p.marker, `validateMany ${p.view.operationId} ${p.site.pointer}`);
    }
  });

  it('never hold a value of a recorded URL or header: its query, host, credentials, fragment, method, or a path segment that is an id or a token', async () => {
    // A token may be letters alone; a card number, a CVV or a signature hold digits too.
    const secrets = [
      'ZqsecretTokenValueAbcdef',
      'QwErTyUiOpAsDfGh',
      '4929180731215548',
      'Zq7s3cr3T-M4rk-9xK2vW',
      'c2lnbmF0dXJlK2J5dGVz/w==',
    ];
    const pay = sites.find((s) => s.view.operationId === 'initiatePayment' && s.direction === 'request')!.sample
      .payload;
    for (const secret of secrets) {
      const q = encodeURIComponent(secret);
      const entries = [
        harEntry(
          'POST',
          `https://router.example/aoa-acquiring-biz/v2/payment?mid=MERCHANT0001&orderId=ORDER-1001&txnToken=${q}&${q}=1`,
          pay,
        ),
        harEntry('GET', `https://router.example/aoa-acquiring-biz/v2/payment?mid=${q}&signature=${q}#${q}`, undefined),
        harEntry('POST', `https://gateway.example/coft-center/coft/merchant/${q}/tokenize?requestId=${q}`, pay),
        harEntry('GET', `https://cdn.example/cards/${q}/tokens/${q}?token=${q}`, undefined, { echo: secret }),
        harEntry('POST', `https://merchant:${q}@cdn.example:8443/x/${q}#${q}`, { [secret]: secret }),
        harEntry('GET', `https://${/^[A-Za-z0-9-]+$/.test(secret) ? secret : 'h'}.example/collect`, undefined),
      ];
      for (const e of entries as any[]) {
        e.request.headers.push({ name: 'authorization', value: `Bearer ${secret}` }, { name: 'x-card', value: secret });
        e.request.cookies.push({ name: 'session', value: secret });
        e.response.headers.push({ name: 'set-cookie', value: `sid=${secret}` });
      }
      const odd = harEntry('POST', 'https://cdn.example/x', {}) as any;
      odd.request.method = /^[A-Za-z]+$/.test(secret) ? secret : 'ZqSecretMethod';
      entries.push(odd);
      const result = await validateMany(
        harRecords(harOf(entries, 2), { file: 'traffic.har', webhookPath: '/hooks/token' }),
      );
      expect(result.counts.skipped).toBeGreaterThanOrEqual(4);
      for (const format of REPORT_FORMATS) {
        const report = formatReport({ ...result, title: 'gateway-contract validate' }, format, REPORT);
        for (const shown of [secret, q, 'ZqSecretMethod']) expectNoSecret(report, shown, `${format} ${secret}`);
      }
      expectNoSecret(seen(result), secret, `validateMany ${secret}`);
      // What is shown: the method, a host of names, the words of a path.
      expect(result.skipped.map((r) => r.reason)).toContain(
        'GET cdn.example/cards/<...>/tokens/<...>: no operation of the contract at this address',
      );
    }
  });

  it('never hold a secret from a malformed NDJSON line or HAR file around it', async () => {
    for (const p of sites) {
      const text = JSON.stringify({
        operationId: p.view.operationId,
        direction: p.direction,
        payload: p.sample.payload,
      });
      const at = text.indexOf(p.marker);
      const end = at + p.marker.length;
      const lines = [
        `${text.slice(0, end + 1)}x${text.slice(end + 1)}`,
        `${text.slice(0, at - 1)}${p.marker}z${text.slice(end + 1)}`,
        `${text.slice(0, end)}\\q${text.slice(end)}`,
        text.slice(0, end),
        text.replace(/^\{/, `{"${p.marker}":1,"${p.marker}":2,`),
        `{"operationId": "${p.marker}", "direction": "request", "payload": {}}`,
        `{"operationId": "initiatePayment", "direction": "${p.marker}", "payload": {}, "query": {"mid": ${p.marker}}}`,
      ];
      const records = [];
      for await (const r of ndjsonRecords([Buffer.from(lines.join('\n'))], { file: 'cases.ndjson' })) records.push(r);
      records.push(...harRecords(`{"log": {"entries": [${p.marker}x]}}`, { file: 'broken.har' }));
      const result = await validateMany(records);
      expect(result.counts.invalid).toBe(lines.length + 1);
      for (const format of REPORT_FORMATS)
        expectNoSecret(
          formatReport({ ...result, title: 'x' }, format, REPORT),
          p.marker,
          `${format} malformed ${p.view.operationId} ${p.site.pointer}`,
        );
    }
  });

  it('as a process, keeps each kind of secret out of every format', async () => {
    const byName = new Map(sites.map((s) => [s.site.name, s]));
    const lines = [...byName.values()].map((p) => {
      const sample = plant(p.sample, p.site.at, [p.marker]);
      return JSON.stringify({
        operationId: p.view.operationId,
        direction: p.direction,
        payload: sample.payload,
        ...options(sample),
      });
    });
    const outs = await Promise.all(
      REPORT_FORMATS.map((format) =>
        runCli(['validate', '--ndjson', '-', '--format', format], `${lines.join('\n')}\n`),
      ),
    );
    REPORT_FORMATS.forEach((format, i) => {
      const out = outs[i]!;
      expect(out.status, format).toBe(1);
      for (const p of byName.values())
        expectNoSecret(out.stdout + out.stderr, p.marker, `process ${format} ${p.site.name}`);
    });
  });
});

describe('the card helper', () => {
  // A card number that passes the Luhn check, so that only the other field is wrong.
  const base = '492918073121554';
  const CARD_NUMBER = `${base}${[...'0123456789'].find((d) => passesLuhn(`${base}${d}`))}`;
  const CVV = '5817';
  const NOW = new Date('2026-11-23T00:00:00Z');
  const good = { cardNumber: CARD_NUMBER, expiryMonth: '12', expiryYear: '2030', securityCode: CVV };
  const { publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const small = generateKeyPairSync('rsa', {
    modulusLength: 512,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  }).publicKey;

  const cards: [string, any][] = [
    [
      'a card number failing Luhn',
      { ...good, cardNumber: `${CARD_NUMBER.slice(0, -1)}${(Number(CARD_NUMBER.at(-1)) + 1) % 10}` },
    ],
    ['a card number with a letter', { ...good, cardNumber: `${CARD_NUMBER}x` }],
    ['a card number as a number', { ...good, cardNumber: Number(CARD_NUMBER) }],
    ['a card number in an array', { ...good, cardNumber: [CARD_NUMBER] }],
    ['a CVV too long', { ...good, securityCode: `${CVV}9` }],
    ['a CVV as a number', { ...good, securityCode: Number(CVV) }],
    ['an expired card', { ...good, expiryYear: '2020' }],
    ['a wrong month beside a good card', { ...good, expiryMonth: '13' }],
    ['an extra field named like the card', { ...good, [CARD_NUMBER]: CVV }],
    ['an extra field holding the card', { ...good, pan: CARD_NUMBER, cvc: CVV }],
  ];

  it.each(cards)('keeps the card out of its CardDataError: %s', async (_what, card) => {
    let error: unknown;
    try {
      buildCardPlaintext(card, { now: NOW });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CardDataError);
    const text = `${seen(error)}\n${(error as Error).message}\n${JSON.stringify((error as CardDataError).issues)}\n${JSON.stringify((error as any).toJSON())}`;
    for (const secret of [CARD_NUMBER, CVV, CARD_NUMBER.slice(0, 12)]) expectNoSecret(text, secret, _what);
    const rejected = await encryptCardData(card, publicKey, { now: NOW }).catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(CardDataError);
    expectNoSecret(`${seen(rejected)}\n${JSON.stringify((rejected as CardDataError).issues)}`, CARD_NUMBER, _what);
  });

  it.each([
    [
      'a key that is not PEM',
      () => encryptCardData(good, `-----BEGIN PUBLIC KEY-----\n${CARD_NUMBER}\n-----END PUBLIC KEY-----`, { now: NOW }),
    ],
    ['a key too small for the card', () => encryptCardData(good, small, { now: NOW, oaepHash: 'sha512' })],
    ['an unknown padding', () => encryptCardData(good, publicKey, { now: NOW, padding: CARD_NUMBER as any })],
    ['an unknown hash', () => encryptCardData(good, publicKey, { now: NOW, oaepHash: `sha-${CVV}` })],
    ['a key too small for PKCS#1 v1.5', () => encryptCardData(good, small, { now: NOW, padding: 'RSA_PKCS1_PADDING' })],
    [
      'a key of another type',
      () =>
        encryptCardData(
          good,
          generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
            type: 'spki',
            format: 'pem',
          }) as string,
          { now: NOW },
        ),
    ],
  ])('keeps the card out of a TypeError: %s', async (what, call) => {
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    for (const secret of [CARD_NUMBER, CVV]) expectNoSecret(seen(error), secret, what);
  });
});

describe('the client', () => {
  /** The client call that sends this sample's envelope: heads given as they are, the signature from the signer. */
  function call(
    view: OperationView,
    sample: Sample,
    fetchImpl: (r: Request) => Promise<Response>,
    extra: Partial<GatewayClientOptions> = {},
  ) {
    const head = sample.payload.head;
    const client = createGatewayClient({
      gatewayUrl: 'http://127.0.0.1:9',
      routerUrl: 'http://127.0.0.1:9',
      validate: true,
      fetch: fetchImpl,
      signer: { signatureType: 'CHECKSUM', sign: () => head?.signature ?? 'SIGNATURE' } as any,
      ...extra,
    }) as any;
    const body = sample.payload.body;
    switch (view.operationId) {
      case 'tokenizeCard':
        return client.tokenizeCard({ mid: sample.path?.mid, requestId: sample.query?.requestId, body, head });
      case 'listSubscriptions':
        return client.listSubscriptions({ token: head?.token, body, head });
      case 'initiatePayment':
        return client.initiatePayment({ txnToken: head?.token, body, head });
      case 'modifyOrder':
        return client.modifyOrder({
          mid: sample.query?.mid,
          orderId: sample.query?.orderId,
          txnToken: head?.token,
          body,
          head,
        });
      default:
        return client[view.operationId]({ body, head });
    }
  }

  it('keeps planted secrets out of RequestValidationError (message, issues, inspection)', async () => {
    let checked = 0;
    for (const p of sites.filter((s) => s.direction === 'request' && s.view.operationId !== 'notifyTokenStatus')) {
      const variants = hostileVariants(p).filter(
        ({ sample }) =>
          sample.payload?.head &&
          sample.payload?.body &&
          !validate(p.view.operationId as any, 'request', sample.payload, options(sample)).valid,
      );
      for (const { what, sample } of variants) {
        let sent = 0;
        const error = await call(p.view, sample, async () => {
          sent++;
          return new Response('{}');
        }).then(
          () => null,
          (e: unknown) => e,
        );
        if (!(error instanceof RequestValidationError)) continue; // the client rebuilt what the variant removed
        expect(sent).toBe(0);
        checked++;
        expectNoSecret(
          `${seen(error)}\n${JSON.stringify((error as any).issues)}`,
          p.marker,
          `${p.view.operationId} ${p.site.pointer} ${what}`,
        );
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  const RESPONSE_SECRET = 'Zq7s3cr3T-M4rk-9xK2vW';
  // Each answer is not a usable JSON envelope; the client reads its text lossily, so the invalid
  // UTF-8 one reaches response validation instead (any typed error will do there).
  const answers: [string, () => Response][] = [
    [
      'an HTML page echoing the token',
      () =>
        new Response(`<html><body>Bad token ${RESPONSE_SECRET} for card ${MARKERS[1]}</body></html>`, {
          status: 200,
          headers: { 'content-type': 'text/html' },
        }),
    ],
    [
      'JSON cut right after a token',
      () =>
        new Response(`{"head":{},"body":{"txnToken":"${RESPONSE_SECRET}"`, {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    ],
    [
      'JSON with junk after a token',
      () =>
        new Response(`{"head":{},"body":{"txnToken":"${RESPONSE_SECRET}"x}}`, {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    ],
    [
      'a JSON string holding a token',
      () =>
        new Response(JSON.stringify(RESPONSE_SECRET), { status: 200, headers: { 'content-type': 'application/json' } }),
    ],
    [
      'invalid UTF-8 after a token',
      () =>
        new Response(Buffer.concat([Buffer.from(`{"txnToken":"${RESPONSE_SECRET}`), Buffer.from([0xff, 0x22, 0x7d])]), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    ],
  ];

  it.each(answers)('keeps an echoed secret out of the typed error: %s', async (_what, answer) => {
    const client = createGatewayClient({
      gatewayUrl: 'http://127.0.0.1:9',
      routerUrl: 'http://127.0.0.1:9',
      validate: true,
      fetch: async () => answer(),
      signer: { signatureType: 'CHECKSUM', sign: () => 'SIG' },
    });
    const sample = sites.find((s) => s.view.operationId === 'createSubscription' && s.direction === 'request')!.sample;
    const error = await client.createSubscription({ body: sample.payload.body, head: sample.payload.head }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(_what.includes('UTF-8') ? GatewayError : GatewayNonJsonError);
    // A ResponseValidationError's `data` is the answer itself, by design: the rest must not hold it.
    const shown =
      error instanceof ResponseValidationError
        ? `${error.message}\n${JSON.stringify((error as any).issues)}\n${error.stack}`
        : seen(error);
    for (const secret of [RESPONSE_SECRET, MARKERS[1]]) expectNoSecret(shown, secret, _what);
  });

  it('keeps the secrets of an answer out of ResponseValidationError message and issues', async () => {
    for (const p of sites.filter((s) => s.direction === 'response' && s.view.operationId !== 'notifyTokenStatus')) {
      for (const { what, sample: answer } of hostileVariants(p).slice(0, 8)) {
        if (
          validate(p.view.operationId as any, 'response', answer.payload).valid ||
          typeOf(answer.payload) !== 'object'
        )
          continue;
        const request = sites.find(
          (s) => s.view.operationId === p.view.operationId && s.direction === 'request',
        )!.sample;
        const error = await call(
          p.view,
          request,
          async () =>
            new Response(JSON.stringify(answer.payload), {
              status: 200,
              headers: { 'content-type': 'application/json' },
            }),
        ).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, what).toBeInstanceOf(ResponseValidationError);
        // `data` holds the answer itself, by design; the message and issues never do.
        expectNoSecret(
          `${(error as Error).message}\n${JSON.stringify((error as any).issues)}\n${String((error as Error).stack)}`,
          p.marker,
          `${p.site.pointer} ${what}`,
        );
      }
    }
  });

  describe('its logger and hooks', () => {
    /** A logger and hooks that keep everything they are given, as text. */
    function watcher() {
      const out: string[] = [];
      const keep = (value: unknown) => {
        out.push(typeof value === 'string' ? value : `${seen(value)}\n${exposed(value)}`);
      };
      const options: Partial<GatewayClientOptions> = {
        logger: { debug: keep, info: keep, warn: keep, error: keep },
        onRequest: keep,
        onResponse: keep,
        onError: keep,
        retry: { retries: 1, baseDelayMs: 0 },
      };
      return { out, options };
    }
    const json = (value: unknown, status = 200, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json', ...headers } });

    it('never pass a planted secret, sent or received, in a valid payload or a broken one', async () => {
      const { out, options } = watcher();
      let calls = 0;
      for (const p of sites.filter((s) => s.view.operationId !== 'notifyTokenStatus')) {
        const request =
          p.direction === 'request'
            ? p
            : sites.find((s) => s.view.operationId === p.view.operationId && s.direction === 'request')!;
        const answer =
          p.direction === 'response'
            ? p
            : sites.find((s) => s.view.operationId === p.view.operationId && s.direction === 'response');
        const variants = [{ what: 'valid', sample: p.sample }, ...hostileVariants(p).slice(0, 6)];
        for (const { what, sample } of variants) {
          const sent = p.direction === 'request' ? sample : request.sample;
          const received =
            p.direction === 'response' ? sample.payload : (answer?.sample.payload ?? firstAnswer(p.view.operationId));
          // The secret in the answer's body and headers, as the service or something in front of it could echo it.
          await call(p.view, sent, async () => json(received, 200, { 'x-echo': p.marker }), options).catch(
            () => undefined,
          );
          await call(
            p.view,
            sent,
            async () => json({ error: p.marker, txnToken: p.marker }, 503, { 'x-echo': p.marker }),
            options,
          ).catch(() => undefined);
          calls += 2;
          for (const secret of new Set([p.marker, request.marker, answer?.marker ?? p.marker]))
            expectNoSecret(out.join('\n'), secret, `${p.view.operationId} ${p.direction} ${p.site.pointer} ${what}`);
          out.length = 0;
        }
      }
      expect(calls).toBeGreaterThan(100);
    });

    it('never pass, nor the errors hold in any field of their own, a secret of the request the answer echoes', async () => {
      const { out, options } = watcher();
      let checked = 0;
      for (const p of sites.filter((s) => s.direction === 'request' && s.view.operationId !== 'notifyTokenStatus')) {
        const echo = {
          head: { echo: p.marker },
          body: { resultInfo: { resultCode: p.marker }, echo: p.sample.payload },
        };
        for (const answer of [() => json(echo, 503), () => json(echo), () => json({ error: p.marker }, 400)]) {
          const error = await call(p.view, p.sample, async () => answer(), options).then(
            () => null,
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(GatewayError);
          // The answer itself is read only by asking for it (`data`): it is no field of the error.
          expectNoSecret(exposed(error), p.marker, `${p.view.operationId} ${p.site.pointer}: the error`);
          expect(JSON.stringify((error as GatewayError).data)).toContain(p.marker);
          expectNoSecret(out.join('\n'), p.marker, `${p.view.operationId} ${p.site.pointer}: hooks and logger`);
          out.length = 0;
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(20);
    });

    it("never pass, nor the errors say, an answer's content type or a redirect's address", async () => {
      const { out, options } = watcher();
      const marker = MARKERS[0]!;
      const planted = sites.find((s) => s.view.operationId === 'initiatePayment' && s.direction === 'request')!;
      const types = [
        `text/${marker}`,
        `${marker}/html`,
        `application/x-${marker}+json`,
        `text/html; charset=${marker}`,
        marker,
      ];
      for (const type of types) {
        const error = await call(
          planted.view,
          planted.sample,
          async () => new Response('<html></html>', { headers: { 'content-type': type } }),
          options,
        ).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(GatewayNonJsonError);
        expectNoSecret(exposed(error), marker, `content-type ${type}`);
      }
      // A known media type is still named.
      const html = await call(
        planted.view,
        planted.sample,
        async () => new Response('<html></html>', { headers: { 'content-type': 'text/html' } }),
      ).catch((e: unknown) => e);
      expect((html as Error).message).toContain('text/html');
      // Redirects to an address that is not one, and to another origin: not followed, not named.
      const elsewhere = await startServer((_req, res) => void res.end('{}'));
      const redirecting = await startServer((req, res) => {
        res.writeHead(307, {
          location: req.url?.includes('invalid') ? `http://[${marker}` : `${elsewhere.url}/${marker}?card=${marker}`,
        });
        res.end();
      });
      try {
        for (const base of [redirecting.url, `${redirecting.url}/invalid`]) {
          const client = createGatewayClient({ gatewayUrl: base, routerUrl: base, validate: true, ...options });
          const error = await client
            .initiatePayment({ txnToken: planted.sample.payload.head.token, body: planted.sample.payload.body })
            .then(
              () => null,
              (e: unknown) => e,
            );
          expect(error).toMatchObject({ kind: 'http', status: 307 });
          expectNoSecret(exposed(error), marker, `redirect from ${base}`);
        }
        expect(elsewhere.requests).toEqual([]);
      } finally {
        await elsewhere.close();
        await redirecting.close();
      }
      expect(out.length).toBeGreaterThan(0);
      expectNoSecret(out.join('\n'), marker, 'content types and redirects in hooks and logger');
    });

    it('never pass a secret the answer puts where the result code or status goes', async () => {
      const { out, options } = watcher();
      const marker = MARKERS[0]!;
      const planted = sites.find((s) => s.view.operationId === 'initiatePayment' && s.direction === 'request')!;
      for (const where of ['resultCode', 'resultStatus', 'resultMsg']) {
        const answer = {
          head: {},
          body: { resultInfo: { resultCode: '0000', resultStatus: 'S', resultMsg: 'Success', [where]: marker } },
        };
        await call(planted.view, planted.sample, async () => json(answer), { ...options, validate: false });
      }
      expect(out.length).toBeGreaterThan(0);
      expectNoSecret(out.join('\n'), marker, 'a code, status or message echoing a secret');
    });
  });
});

describe('addresses', () => {
  it('the client refuses a base URL holding credentials when it is created, naming the option, never the value', () => {
    const secret = MARKERS[0]!;
    for (const name of ['gatewayUrl', 'routerUrl'] as const) {
      for (const url of [
        `https://merchant:${secret}@gateway.example`,
        `https://${secret}@gateway.example/base`,
        `http://merchant:${secret}@127.0.0.1:9/`,
      ]) {
        const options = { gatewayUrl: 'https://gateway.example', routerUrl: 'https://router.example', [name]: url };
        let error: unknown;
        try {
          createGatewayClient(options);
        } catch (e) {
          error = e;
        }
        expect(error, url).toBeInstanceOf(TypeError);
        expect((error as Error).message).toContain(name);
        expectNoSecret(exposed(error), secret, `${name} ${url}`);
      }
    }
  });

  it('the webhook sender refuses an address holding credentials, never naming the value', async () => {
    const secret = MARKERS[0]!;
    const error = await postNotification({ url: `https://merchant:${secret}@merchant.example/hook`, text: '{}' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expectNoSecret(exposed(error), secret, 'postNotification');
  });
});

/** The first named answer of an operation in the contract (valid, with no planted secret). */
function firstAnswer(operationId: string): unknown {
  for (const item of [...Object.values<any>(contract.paths), ...Object.values<any>(contract.webhooks ?? {})]) {
    if (item.post?.operationId !== operationId) continue;
    const first = Object.values<any>(item.post.responses['200'].content['application/json'].examples)[0];
    return first.$ref ? contract.components.examples[first.$ref.split('/').pop()].value : first.value;
  }
  throw new Error(`no operation ${operationId}`);
}

function typeOf(value: unknown) {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** The names of the fields the contract marks secret. */
const SECRET_NAMES = new Set([
  'cardNumber',
  'securityCode',
  'cvv',
  'mpin',
  'cardUniqueId',
  'cardToken',
  'TAVV',
  'encryptedCardData',
  'token',
  'txnToken',
  'svcSsoToken',
  'signature',
  'checksumHash',
]);
const isSensitiveName = (name: string) => SECRET_NAMES.has(name);

describe('the marking of every field (D-102)', () => {
  it('classifies every place of every payload, and the generated allow-list is what the contract says', async () => {
    const doc = await bundledContract();
    const fresh = redactionOf(doc);
    expect(fresh).toEqual(JSON.parse(JSON.stringify(redaction)));
    for (const [operationId, entry] of Object.entries(fresh) as [string, any][]) {
      for (const direction of ['request', 'response'] as const) {
        const { public: shown, secret } = entry[direction] as { public: string[]; secret: string[] };
        expect(
          shown.filter((p) => secret.includes(p)),
          `${operationId} ${direction}`,
        ).toEqual([]);
        // No secret field's name is ever a public place.
        for (const place of shown)
          expect(isSensitiveName(place.split('/').at(-1) as string), `${operationId} ${direction} ${place}`).toBe(
            false,
          );
      }
    }
    expect(fresh.initiatePayment.request.secret).toEqual(
      expect.arrayContaining(['/head/token', '/body/cardInfo/cardUniqueId', '/body/cardInfo/cvv']),
    );
    expect(fresh.initiatePayment.request.query).toEqual(['mid', 'orderId']);
  });

  it('refuses to generate while a field carries neither x-sensitive nor x-public, naming the place', async () => {
    const doc = structuredClone(await bundledContract());
    doc.components.schemas.Money.properties.note = { type: 'string', description: 'A new field.' };
    expect(() => redactionOf(doc)).toThrow(
      /neither x-sensitive: true nor x-public.*modifyOrder request \/body\/txnAmount\/note/,
    );
    doc.components.schemas.Money.properties.note['x-public'] = false;
    const masked = redactionOf(doc);
    expect(masked.modifyOrder.request.public).not.toContain('/body/txnAmount/note');
    doc.components.schemas.Money.properties.note['x-public'] = true;
    expect(redactionOf(doc).modifyOrder.request.public).toContain('/body/txnAmount/note');
  });

  it('reads a marking through $ref: a new field typed by a public schema is public, a secret one secret', async () => {
    const doc = structuredClone(await bundledContract());
    doc.components.schemas.Money.properties.when = { $ref: '#/components/schemas/EpochTimestamp' };
    doc.components.schemas.Money.properties.pin = { $ref: '#/components/schemas/Mpin' };
    const out = redactionOf(doc);
    expect(out.modifyOrder.request.public).toContain('/body/txnAmount/when');
    expect(out.modifyOrder.request.secret).toContain('/body/txnAmount/pin');
  });
});

describe("the sandbox's log reads the same marking (D-102)", () => {
  it('shows a notification’s token status, which the contract marks public, and masks its token index number', async () => {
    const down = createTcpServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const lines: string[] = [];
    const sandbox = await sandboxFor({
      webhookUrl: `http://127.0.0.1:${(down.address() as AddressInfo).port}/`,
      onLog: (line) => lines.push(line),
    });
    try {
      const tokenized = await clientFor(sandbox).tokenizeCard({
        mid: MID,
        body: await tokenizeBody(sandbox, '4111111111111111'),
      });
      const tin = tokenized.data.body.tokenIndexNumber as string;
      await sandbox.idle();
      const line = lines.find((l) => l.startsWith('webhook '));
      expect(line).toMatch(/^webhook ACTIVE [0Xx]+ attempt 1 -> failed/);
      expect(tin.length).toBeGreaterThan(3);
      expect(lines.join('\n')).not.toContain(tin);
    } finally {
      await sandbox.stop();
      await new Promise((resolve) => down.close(resolve));
    }
  });
});

describe('a masked payload still meets the contract (D-103)', () => {
  const { seed, numRuns } = fcParameters(25);
  for (const view of operationViews)
    for (const direction of ['request', 'response'] as Direction[])
      it(`${view.operationId} ${direction}: every generated valid payload stays valid once masked, and keeps its public values`, () => {
        const places = placesOf(view.operationId, direction);
        for (const sample of fc.sample(sampleArbitrary(view, direction), { seed, numRuns })) {
          const options = {
            ...(sample.query ? { query: sample.query } : {}),
            ...(sample.path ? { path: sample.path } : {}),
          };
          const before = validate(view.operationId as never, direction, sample.payload, options);
          if (!before.valid) continue;
          const masked = maskPayload(sample.payload, places, () => undefined);
          const after = validate(view.operationId as never, direction, masked, options);
          expect(after.valid ? [] : after.errors.map((e) => `${e.pointer} ${e.rule}`)).toEqual([]);
        }
      });
});
