// The merchant's webhook receiver: signature over the exact body bytes, the description's codes
// for each failure, the order of checks, clock and replay protection, the node:http and Fetch API
// adapters, and hostile input. Every reply must be a valid reply of the contract.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utf8Length } from '../../src/encoding/bytes.js';
import {
  type ClaimOutcome,
  createChecksumVerifier,
  createMemoryReplayStore,
  createWebhookReceiver,
  generateSignature,
  ReplayStoreFullError,
  resultCodes,
  validate,
  WEBHOOK_DEFAULTS,
  type WebhookVerdict,
} from '../../src/index.js';
import { memberText } from '../../src/json/member.js';
import { jsonSpace, outlineObject } from '../../src/json/outline.js';
import { checkJson } from '../../src/json/scan.js';
import { generateSignatureSync } from '../../src/signing/checksumNode.js';
import { fcParameters } from '../helpers/arbitraries.js';

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const example = (name: string) => structuredClone(doc.components.examples[name].value);
const KEY = 'k3yK3yk3yK3yk3yK';
const OTHER_KEY = 'another-key-16by';
const NOW = 1_768_971_330_000;
const CATALOG = resultCodes.notifyTokenStatus.codes;

/** Every signature these tests create, to prove none of them ever appears in a reply or an issue. */
const signatures: string[] = [];

/** The envelope text as the service sends it: the signature covers exactly `bodyText`. */
function notification(
  options: {
    body?: unknown;
    bodyText?: string;
    head?: Record<string, unknown>;
    key?: string;
    dropHead?: string[];
  } = {},
) {
  const bodyText = options.bodyText ?? JSON.stringify(options.body ?? example('TokenStatusActive').body);
  // Signed synchronously (the sandbox's node:crypto form, test/signing/signing.test.ts proves it the same as the Web Crypto one).
  const signature = generateSignatureSync(bodyText, options.key ?? KEY);
  signatures.push(signature);
  const head: Record<string, unknown> = {
    version: 'v1',
    requestTimestamp: String(NOW),
    requestId: 'NTF-0001',
    signature,
    signatureType: 'CHECKSUM',
    ...options.head,
  };
  for (const field of options.dropHead ?? []) delete head[field];
  return { text: `{"head":${JSON.stringify(head)},"body":${bodyText}}`, signature, bodyText };
}

/** The other Base64 spellings of the same bytes: the unused low bits of the last character before the padding. */
function otherSpellings(signature: string): string[] {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const padding = signature.length - signature.replace(/=+$/, '').length;
  const unusedBits = padding === 2 ? 4 : padding === 1 ? 2 : 0;
  const at = signature.length - padding - 1;
  const value = alphabet.indexOf(signature[at] as string);
  const spellings: string[] = [];
  for (let low = 0; low < 2 ** unusedBits; low++) {
    const other = (value & ~(2 ** unusedBits - 1)) | low;
    if (other !== value) spellings.push(`${signature.slice(0, at)}${alphabet[other]}${signature.slice(at + 1)}`);
  }
  return spellings;
}

function receiver(options: Partial<Parameters<typeof createWebhookReceiver>[0]> = {}) {
  const clock = { t: NOW };
  const r = createWebhookReceiver({ verifier: createChecksumVerifier(KEY), now: () => clock.t, ...options });
  return Object.assign(r, { clock });
}

/** The reply is a reply the contract accepts, carrying `code` with the catalog's status and message. */
function expectReply(reply: unknown, code: string) {
  expect(validate('notifyTokenStatus', 'response', reply)).toEqual({ valid: true });
  const entry = CATALOG.find((c) => c.code === code)!;
  expect((reply as any).body.resultInfo).toEqual({
    resultCode: code,
    resultStatus: entry.status,
    resultMsg: entry.messages[0],
  });
  expect((reply as any).head.version).toBe('v1');
  expect((reply as any).head.responseTimestamp).toMatch(/^\d{13}$/);
}

function expectRejected(verdict: WebhookVerdict, code: string, pointer?: string, rule?: string) {
  expect(verdict.accepted).toBe(false);
  if (verdict.accepted) return;
  expect(verdict.code).toBe(code);
  expectReply(verdict.reply, code);
  expect(verdict.issues.length).toBeGreaterThan(0);
  expect(verdict.issues[0].resultCode).toBe(code);
  if (pointer !== undefined) expect(verdict.issues[0]).toMatchObject({ pointer, ...(rule ? { rule } : {}) });
  for (const signature of signatures) expect(JSON.stringify(verdict)).not.toContain(signature);
}

describe('receive(): a good notification', () => {
  it('is accepted from a string or from bytes, with the typed event and the 00 reply', async () => {
    const r = receiver();
    const { text } = notification();
    const verdict = await r.receive(text);
    expect(verdict.accepted).toBe(true);
    if (!verdict.accepted) return;
    expect(verdict.event).toEqual(JSON.parse(text));
    expect(verdict.event.body.tokenInfo.tokenStatus).toBe('ACTIVE');
    expect(verdict.reply).toEqual({
      head: { version: 'v1', responseTimestamp: String(NOW) },
      body: { resultInfo: { resultCode: '00', resultStatus: 'SUCCESS', resultMsg: 'SUCCESS' } },
    });
    expectReply(verdict.reply, '00');
    const bytes = await r.receive(Buffer.from(notification({ head: { requestId: 'NTF-0002' } }).text));
    expect(bytes.accepted).toBe(true);
  });

  it('verifies over the exact bytes received: spacing, escapes, member order, an escaped key', async () => {
    const r = receiver();
    const pretty =
      '{\n  "mid" : "MERCHANT0001",\n  "tokenInfo": ' +
      JSON.stringify(example('TokenStatusActive').body.tokenInfo, null, 4).replace(
        'Example Bank"',
        'Example \\u0042ank"',
      ) +
      '\n}';
    const signature = await generateSignature(pretty, KEY);
    signatures.push(signature);
    const head = JSON.stringify({
      version: 'v1',
      requestTimestamp: String(NOW),
      requestId: 'NTF-PRETTY',
      signature,
      signatureType: 'CHECKSUM',
    });
    const verdict = await r.receive(`\ufeff { "bo\\u0064y" :  ${pretty} ,\n "head": ${head} }  `);
    expect(verdict.accepted).toBe(true);
    if (verdict.accepted) expect(verdict.event.body.tokenInfo.issuingBankName).toBe('Example Bank');
  });

  it('does not accept a signature over a re-serialized body when other bytes were sent (D-36)', async () => {
    const r = receiver();
    const body = example('TokenStatusActive').body;
    const signature = await generateSignature(JSON.stringify(body), KEY);
    signatures.push(signature);
    const head = JSON.stringify({
      version: 'v1',
      requestTimestamp: String(NOW),
      requestId: 'NTF-RE',
      signature,
      signatureType: 'CHECKSUM',
    });
    expectRejected(
      await r.receive(`{"head":${head},"body":${JSON.stringify(body, null, 2)}}`),
      '1001',
      '/head/signature',
      'signature',
    );
  });

  it('accepts request timestamps in seconds and milliseconds, within the allowed skew on either side', async () => {
    const r = receiver();
    const skew = WEBHOOK_DEFAULTS.maxClockSkewMs;
    expect(
      (await r.receive(notification({ head: { requestId: 'S1', requestTimestamp: String(NOW / 1000) } }).text))
        .accepted,
    ).toBe(true);
    expect(
      (await r.receive(notification({ head: { requestId: 'S2', requestTimestamp: String(NOW - skew) } }).text))
        .accepted,
    ).toBe(true);
    expect(
      (await r.receive(notification({ head: { requestId: 'S3', requestTimestamp: String(NOW + skew) } }).text))
        .accepted,
    ).toBe(true);
  });
});

describe('receive(): signature failures', () => {
  it('refuses a tampered body with 1001', async () => {
    const { text } = notification();
    expectRejected(
      await receiver().receive(text.replace('"tokenStatus":"ACTIVE"', '"tokenStatus":"DEAD"')),
      '1001',
      '/head/signature',
      'signature',
    );
    expectRejected(await receiver().receive(text.replace('"MERCHANT0001"', '"MERCHANT0002"')), '1001');
  });

  it('refuses a signature made with another key with 1001', async () => {
    expectRejected(await receiver().receive(notification({ key: OTHER_KEY }).text), '1001', '/head/signature');
  });

  it('refuses malformed signatures with 1001, and a verifier that says anything but true', async () => {
    for (const signature of ['x', 'A'.repeat(108), 'not base64 at all!']) {
      expectRejected(await receiver().receive(notification({ head: { signature } }).text), '1001');
    }
    const lenient = receiver({ verifier: { signatureType: 'CHECKSUM', verify: () => 'yes' as unknown as boolean } });
    expectRejected(await lenient.receive(notification().text), '1001');
  });

  it('leaves the comparison to the verifier (constant time), given the exact body text and the signature', async () => {
    const calls: [string, string][] = [];
    const checksum = createChecksumVerifier(KEY);
    const spy = receiver({
      verifier: {
        signatureType: 'CHECKSUM',
        verify: (text, signature) => {
          calls.push([text, signature]);
          return checksum.verify(text, signature);
        },
      },
    });
    const { text, bodyText, signature } = notification();
    expect((await spy.receive(text)).accepted).toBe(true);
    expect(calls).toEqual([[bodyText, signature]]);
    // No comparison of the signature's value in the receiver itself (a type check is not one).
    expect(readFileSync(new URL('../../src/webhook/receive.ts', import.meta.url), 'utf8')).not.toMatch(
      /(?<!typeof\s+[\w.]*)\bsignature\s*[!=]==|[!=]==\s*[\w.]*\.signature\b/,
    );
  });

  it('answers 500 when the verifier itself fails, and processes nothing', async () => {
    const broken = receiver({
      verifier: {
        signatureType: 'CHECKSUM',
        verify: () => {
          throw new Error('key store unreachable');
        },
      },
    });
    const verdict = await broken.receive(notification().text);
    expectRejected(verdict, '500', '/head/signature', 'verifier');
    expect(JSON.stringify(verdict)).not.toContain('key store unreachable');
  });

  it('checks the signature before the contract: a forged, invalid body reveals only 1001', async () => {
    const body = example('TokenStatusActive').body;
    delete body.tokenInfo.cardScheme;
    const verdict = await receiver().receive(notification({ body, key: OTHER_KEY }).text);
    expectRejected(verdict, '1001');
    expect(!verdict.accepted && verdict.issues).toHaveLength(1);
  });
});

describe('receive(): what the signature check needs', () => {
  const cases: [string, () => string, string, string, string][] = [
    ['no head', () => `{"body":${notification().bodyText}}`, '1006', '/head', 'required'],
    ['a head that is not an object', () => `{"head":"v1","body":${notification().bodyText}}`, '1006', '/head', 'type'],
    [
      'no signatureType',
      () => notification({ dropHead: ['signatureType'] }).text,
      '1005',
      '/head/signatureType',
      'required',
    ],
    [
      'another signatureType',
      () => notification({ head: { signatureType: 'JWT' } }).text,
      '1400',
      '/head/signatureType',
      'const',
    ],
    ['no signature', () => notification({ dropHead: ['signature'] }).text, '410', '/head/signature', 'required'],
    ['an empty signature', () => notification({ head: { signature: '' } }).text, '400', '/head/signature', 'type'],
    [
      'a signature that is not a string',
      () => notification({ head: { signature: 42 } }).text,
      '400',
      '/head/signature',
      'type',
    ],
    [
      'no body',
      () =>
        `{"head":${JSON.stringify({ version: 'v1', requestTimestamp: String(NOW), requestId: 'N', signature: 'S', signatureType: 'CHECKSUM' })}}`,
      '410',
      '/body',
      'required',
    ],
    ['a root that is not an object', () => '[1,2]', '400', '', 'type'],
  ];
  it.each(cases)('%s: %s', async (_what, make, code, pointer, rule) => {
    expectRejected(await receiver().receive(make()), code, pointer, rule);
  });
});

describe('receive(): a root that is not an object', () => {
  it('is refused as JSON when it is not JSON or nests too deep (rule json), and by its type when it is JSON (rule type)', async () => {
    const r = receiver({ maxBytes: 2 * 1024 * 1024 });
    for (const text of ['not json', '[1,2', '"open', 'nul', `${'['.repeat(40)}${']'.repeat(40)}`])
      expectRejected(await r.receive(text), '400', '', 'json');
    for (const text of ['[1,2]', '"head"', 'null', ' 42 ', '[{"head":{},"body":{}}]', `"${'x'.repeat(1024 * 1024)}"`])
      expectRejected(await r.receive(text), '400', '', 'type');
    const deep = await r.receive(`${'['.repeat(40)}${']'.repeat(40)}`);
    expect(!deep.accepted && deep.issues[0]?.message).toMatch(/nested deeper than 32 levels/);
  });
});

describe('receive(): the contract, checked after the signature', () => {
  const mutate = (change: (body: any) => void) => {
    const body = example('TokenStatusActive').body;
    change(body);
    return body;
  };
  const cases: [string, () => string, string, string, string][] = [
    [
      'a mandatory tokenInfo field missing',
      () =>
        notification({
          body: mutate((b) => {
            delete b.tokenInfo.cardSuffix;
          }),
        }).text,
      '410',
      '/body/tokenInfo/cardSuffix',
      'required',
    ],
    [
      'tokenInfo missing',
      () =>
        notification({
          body: mutate((b) => {
            delete b.tokenInfo;
          }),
        }).text,
      '410',
      '/body/tokenInfo',
      'required',
    ],
    [
      'mid missing',
      () =>
        notification({
          body: mutate((b) => {
            delete b.mid;
          }),
        }).text,
      '1004',
      '/body/mid',
      'required',
    ],
    [
      'an unknown tokenStatus',
      () =>
        notification({
          body: mutate((b) => {
            b.tokenInfo.tokenStatus = 'GONE';
          }),
        }).text,
      '400',
      '/body/tokenInfo/tokenStatus',
      'enum',
    ],
    [
      'a tokenIndexNumber that is not alphanumeric',
      () =>
        notification({
          body: mutate((b) => {
            b.tokenInfo.tokenIndexNumber = 'TIN-1';
          }),
        }).text,
      '405',
      '/body/tokenInfo/tokenIndexNumber',
      'pattern',
    ],
    [
      'a number where a string is due',
      () =>
        notification({
          body: mutate((b) => {
            b.tokenInfo.cardSuffix = 1111;
          }),
        }).text,
      '400',
      '/body/tokenInfo/cardSuffix',
      'type',
    ],
    ['a body that is not an object', () => notification({ bodyText: '"MERCHANT0001"' }).text, '400', '/body', 'type'],
    ['an empty requestId', () => notification({ head: { requestId: '' } }).text, '406', '/head/requestId', 'minLength'],
    ['no requestId', () => notification({ dropHead: ['requestId'] }).text, '406', '/head/requestId', 'required'],
    [
      'a malformed requestTimestamp',
      () => notification({ head: { requestTimestamp: '2026-01-21T10:15:30Z' } }).text,
      '400',
      '/head/requestTimestamp',
      'pattern',
    ],
    [
      'an unknown head field',
      () => notification({ head: { token: 'x' } }).text,
      '400',
      '/head/token',
      'additionalProperties',
    ],
    ['no version', () => notification({ dropHead: ['version'] }).text, '410', '/head/version', 'required'],
  ];
  it.each(cases)('%s: %s', async (_what, make, code, pointer, rule) => {
    expectRejected(await receiver().receive(make()), code, pointer, rule);
  });

  it('answers 407 for a merchant id the receiver does not serve', async () => {
    const r = receiver({ expectedMid: ['MERCHANT0009', 'MERCHANT0008'] });
    expectRejected(await r.receive(notification().text), '407', '/body/mid', 'expectedMid');
    expect((await receiver({ expectedMid: 'MERCHANT0001' }).receive(notification().text)).accepted).toBe(true);
  });

  it('takes the raw body only: a parsed object is refused with a hint', async () => {
    const verdict = await receiver().receive(JSON.parse(notification().text));
    expectRejected(verdict, '400', '', 'rawBody');
    expect(!verdict.accepted && verdict.issues[0].message).toMatch(/raw request body/);
  });
});

describe('receive(): clock and replay', () => {
  it('refuses stale and future timestamps with 400 and says by how much', async () => {
    const r = receiver({ maxClockSkewMs: 60_000 });
    const stale = await r.receive(notification({ head: { requestTimestamp: String(NOW - 61_000) } }).text);
    expectRejected(stale, '400', '/head/requestTimestamp', 'maxClockSkew');
    expect(!stale.accepted && stale.issues[0].message).toMatch(/61 s behind .* at most 60 s/);
    const future = await r.receive(notification({ head: { requestTimestamp: String(NOW / 1000 + 120) } }).text);
    expectRejected(future, '400', '/head/requestTimestamp', 'maxClockSkew');
    expect(!future.accepted && future.issues[0].message).toMatch(/120 s ahead of/);
  });

  it('refuses a replay within the window with 406 and accepts it again after the window', async () => {
    const r = receiver({ replayWindowMs: 60_000, maxClockSkewMs: 10 * 60_000 });
    const { text } = notification();
    expect((await r.receive(text)).accepted).toBe(true);
    expectRejected(await r.receive(text), '406', '/head/requestId', 'replay');
    r.clock.t += 59_000;
    expectRejected(await r.receive(text), '406');
    r.clock.t += 1_001;
    expect((await r.receive(text)).accepted).toBe(true);
  });

  it('refuses the same signed body under a new requestId (the head is not signed)', async () => {
    const r = receiver();
    const first = notification();
    expect((await r.receive(first.text)).accepted).toBe(true);
    const replay = first.text.replace('"requestId":"NTF-0001"', '"requestId":"NTF-9999"');
    expectRejected(await r.receive(replay), '406', '/head/requestId', 'replay');
    // A new signature over the same body (a new delivery) with a new requestId is accepted.
    expect((await r.receive(notification({ head: { requestId: 'NTF-9999' } }).text)).accepted).toBe(true);
  });

  it('refuses every other spelling of an accepted signature (unused bits of the last Base64 character)', async () => {
    const first = notification();
    const variants = otherSpellings(first.signature);
    expect(variants).toHaveLength(3);
    // The CHECKSUM verifier takes one spelling only: the others are not the signature.
    const r = receiver();
    expect((await r.receive(first.text)).accepted).toBe(true);
    for (const [i, variant] of variants.entries()) {
      const text = first.text
        .replace(first.signature, variant)
        .replace('"requestId":"NTF-0001"', `"requestId":"NTF-V${i}"`);
      expectRejected(await r.receive(text), '1001');
    }
    // A verifier that decodes leniently still meets the replay memory, which holds the bytes.
    const lenient = {
      signatureType: 'CHECKSUM',
      verify: (text: string, signature: string) =>
        createChecksumVerifier(KEY).verify(text, Buffer.from(signature, 'base64').toString('base64')),
    };
    const l = receiver({ verifier: lenient });
    expect((await l.receive(first.text)).accepted).toBe(true);
    for (const [i, variant] of variants.entries()) {
      const text = first.text
        .replace(first.signature, variant)
        .replace('"requestId":"NTF-0001"', `"requestId":"NTF-W${i}"`);
      expectRejected(await l.receive(text), '406', '/head/requestId', 'replay');
    }
  });

  it("claims the SHA-256 digests of the signature's bytes and of the requestId (a shared store keeps its keys across versions)", async () => {
    const keys: string[] = [];
    const recording = () => ({
      claim: (key: string) => (keys.push(key) > 0 ? ('claimed' as const) : 'handled'),
      complete: () => true,
      release: () => undefined,
    });
    const r = receiver({ store: recording() });
    const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
    const first = notification({ head: { requestId: 'NTF-ÉTÉ-1' } });
    expect((await r.receive(first.text)).accepted).toBe(true);
    expect(keys).toEqual([
      `signature:${sha256(Buffer.from(first.signature, 'base64'))}`,
      `requestId:${sha256('NTF-ÉTÉ-1')}`,
    ]);
    // A verifier that takes any text: a signature that is not Base64 is claimed by its UTF-8 bytes.
    const any = receiver({ verifier: { signatureType: 'CHECKSUM', verify: () => true }, store: recording() });
    const text = notification({ head: { requestId: 'NTF-TEXT' } }).text.replace(
      /"signature":"[^"]+"/,
      '"signature":"not base64: é"',
    );
    expect((await any.receive(text)).accepted).toBe(true);
    expect(keys[2]).toBe(`signature:${sha256('not base64: é')}`);
  });

  it('keeps requestIds with lone surrogates apart: "\\ud800", "\\udfff" and "\\ufffd" are three notifications, not one and two replays', async () => {
    const r = receiver();
    for (const requestId of ['\ud800', '\udfff', '\ufffd', 'N\ud800', 'N\udfff\ud800', 'N\ufffd\ufffd']) {
      const verdict = await r.receive(notification({ head: { requestId } }).text);
      expect(verdict.accepted, JSON.stringify(requestId)).toBe(true);
    }
  });

  it('claims distinct requestIds by distinct keys, lone surrogates included, and a well-formed one by the digest of its UTF-8 bytes', async () => {
    const keys: string[] = [];
    const r = receiver({
      verifier: { signatureType: 'CHECKSUM', verify: () => true },
      store: {
        claim: (key: string) => {
          keys.push(key);
          return 'claimed' as const;
        },
        complete: () => true,
        release: () => undefined,
      },
    });
    const keyOf = async (requestId: string) => {
      keys.length = 0;
      expect((await r.receive(notification({ head: { requestId } }).text)).accepted).toBe(true);
      return keys[1] as string;
    };
    const identifier = new RegExp(doc.components.schemas.Identifier.pattern, 'u');
    const unit = fc.oneof(
      fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\ufffd', '\ud83d', '\ude00', 'N', 'é', '😀'),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    );
    const id = fc.string({ unit, minLength: 1, maxLength: 6 }).filter((s) => identifier.test(s));
    const wellFormed = (s: string) => Buffer.from(s, 'utf8').toString('utf8') === s;
    const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
    await fc.assert(
      fc.asyncProperty(id, id, async (a, b) => {
        const [keyA, keyB] = [await keyOf(a), await keyOf(b)];
        if (a !== b) expect(keyA).not.toBe(keyB);
        else expect(keyA).toBe(keyB);
        if (wellFormed(a)) expect(keyA).toBe(`requestId:${sha256(a)}`);
      }),
      fcParameters(200),
    );
  });

  it('claims a notification by keys of a fixed size, whatever its requestId, for a lease of the handler’s time limit and three store calls, each claim with one random owner', async () => {
    const calls: [string, number, string][] = [];
    const r = receiver({
      store: {
        claim: (...args: [string, number, string]) => (calls.push(args) > 0 ? 'claimed' : 'handled'),
        complete: () => true,
        release: () => undefined,
      },
      replayWindowMs: 5_000,
      handlerTimeoutMs: 3_000,
      storeTimeoutMs: 100,
    });
    const { text, signature } = notification({ head: { requestId: `N${'9'.repeat(900_000)}` } });
    expect((await r.receive(text)).accepted).toBe(true);
    expect(calls.map(([key]) => key.length)).toEqual([74, 74]);
    expect(calls.map(([, lease]) => lease)).toEqual([3_300, 3_300]);
    expect(calls[0]?.[2]).toMatch(/^[0-9a-f]{32}$/);
    expect(calls[1]?.[2]).toBe(calls[0]?.[2]);
    expect(JSON.stringify(calls)).not.toContain(signature);
    expect((await r.receive(notification({ head: { requestId: 'N2' } }).text)).accepted).toBe(true);
    expect(calls[2]?.[2]).not.toBe(calls[0]?.[2]);
  });

  it('at the cap of its memory, never forgets an unclaimed id, and refuses (500) what it cannot claim before its handler runs', async () => {
    const clock = { t: NOW };
    const store = createMemoryReplayStore({ now: () => clock.t, maxEntries: 6 });
    const bounded = receiver({ store, now: () => clock.t, replayWindowMs: 60_000 });
    for (let i = 0; i < 3; i++)
      expect((await bounded.receive(notification({ head: { requestId: `M${i}` } }).text)).accepted).toBe(true);
    expect(store.size).toBe(6);
    // Full: what it could not claim is refused, for the service to deliver it again later (500),
    // and no claim within its window is forgotten, so every earlier notification is still a replay.
    for (let i = 3; i < 10; i++)
      expectRejected(
        await bounded.receive(notification({ head: { requestId: `M${i}` } }).text),
        '500',
        '',
        'replayMemoryFull',
      );
    for (let i = 0; i < 3; i++)
      expectRejected(await bounded.receive(notification({ head: { requestId: `M${i}` } }).text), '406');
    expect(store.size).toBe(6);
    // Once their window has passed, expired claims make room again.
    clock.t += 60_001;
    expect(
      (await bounded.receive(notification({ head: { requestId: 'M3', requestTimestamp: String(clock.t) } }).text))
        .accepted,
    ).toBe(true);

    // The memory store alone.
    const small = createMemoryReplayStore({ now: () => clock.t, maxEntries: 2 });
    expect(small.claim('a', 10, 'o1')).toBe('claimed');
    expect(small.claim('b', 20, 'o1')).toBe('claimed');
    expect(() => small.claim('c', 30, 'o1')).toThrow(ReplayStoreFullError);
    expect(small.claim('a', 10, 'o2')).toBe('in-progress');
    clock.t += 15;
    expect(small.claim('c', 30, 'o1')).toBe('claimed');
    expect(() => small.claim('x', 0, 'o1')).toThrow(TypeError);

    // The adapters: the handler runs only for what the receiver can claim.
    const handled: string[] = [];
    const r = receiver({ maxRemembered: 2 });
    const handle = r.fetchHandler((event) => void handled.push(event.head.requestId));
    const post = async (text: string) =>
      (
        await handle(
          new Request('https://merchant.example/hook', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: text,
          }),
        )
      ).json();
    expectReply(await post(notification({ head: { requestId: 'CAP-1' } }).text), '00');
    expectReply(await post(notification({ head: { requestId: 'CAP-2' } }).text), '500');
    expectReply(await post(notification({ head: { requestId: 'CAP-1' } }).text), '406');
    expect(handled).toEqual(['CAP-1']);
  });

  it('remembers only accepted notifications', async () => {
    const r = receiver();
    const body = example('TokenStatusActive').body;
    delete body.tokenInfo.cardType;
    expectRejected(await r.receive(notification({ body }).text), '410');
    expectRejected(await r.receive(notification({ body }).text), '410');
    expect((await r.receive(notification().text)).accepted).toBe(true);
  });

  it('accepts only one of copies that arrive together, and a lost claim gives back the keys it took', async () => {
    const slow = {
      signatureType: 'CHECKSUM',
      verify: async (text: string, signature: string) => {
        await new Promise((resolve) => setImmediate(resolve));
        return createChecksumVerifier(KEY).verify(text, signature);
      },
    };
    const store = createMemoryReplayStore();
    const r = receiver({ verifier: slow, store });
    const { text } = notification();
    const verdicts = await Promise.all([r.receive(text), r.receive(text), r.receive(text)]);
    expect(verdicts.filter((v) => v.accepted)).toHaveLength(1);
    // receive() completes at once: on this synchronous store, before the other copies claim.
    for (const v of verdicts.filter((x) => !x.accepted)) expectRejected(v, '406');
    expect(store.size).toBe(2);
    // Same requestId, new signature: the signature's key, claimed first, is released when the requestId's is lost.
    expectRejected(await r.receive(notification().text), '406');
    expect(store.size).toBe(2);
  });

  it('evicts expired claims, so memory holds only the last window', async () => {
    const clock = { t: NOW };
    const store = createMemoryReplayStore({ now: () => clock.t });
    const r = receiver({ store, now: () => clock.t, replayWindowMs: 1_000, maxClockSkewMs: 10 * 60_000 });
    for (let i = 0; i < 50; i++) {
      expect((await r.receive(notification({ head: { requestId: `N${i}` } }).text)).accepted).toBe(true);
    }
    expect(store.size).toBe(100); // a requestId and a signature digest each
    clock.t += 1_001;
    expect(store.claim('anything', 1_000, 'o')).toBe('claimed');
    expect(store.size).toBe(1);
  });

  it('refuses the removed `seen: { has, add }` store, and a store without claim, complete and release, with a clear error', () => {
    const seen = { has: () => false, add: () => undefined };
    expect(() => receiver({ seen } as never)).toThrow(/`seen: \{ has, add \}` option is removed.*Pass `store`/);
    expect(() => receiver({ store: seen } as never)).toThrow(
      /claim\(key, leaseMs, owner\).*complete\(key, owner, windowMs\) and release\(key, owner\)/,
    );
    // A store of the earlier shape (claim answering true or false, and release) is told what it lacks.
    expect(() => receiver({ store: { claim: () => true, release: () => undefined } } as never)).toThrow(
      /earlier shape.*lacks complete/,
    );
  });
});

describe('a replay store that fails', () => {
  /** A memory store whose calls can be made to fail, hang or be slow, with a log of what happened. */
  function faulty() {
    const memory = createMemoryReplayStore();
    const state = {
      claim: 'ok' as 'ok' | 'throw' | 'reject' | 'hang' | 'late' | 'maybe' | 'maybeTogether' | 'answer',
      complete: 'ok' as 'ok' | 'reject',
      /** For maybeTogether: claims wait here until two have arrived. */
      arrived: 0,
      together: undefined as (() => void) | undefined,
      release: 'ok' as 'ok' | 'reject' | 'onceReject',
      late: [] as Promise<ClaimOutcome>[],
      releases: [] as string[],
    };
    const store = {
      claim(key: string, ttlMs: number, owner: string): ClaimOutcome | Promise<ClaimOutcome> {
        switch (state.claim) {
          case 'throw':
            throw new Error('connection refused 10.0.0.1 secret-password');
          case 'reject':
            return Promise.reject(new Error('down'));
          case 'hang':
            return new Promise<ClaimOutcome>(() => undefined);
          case 'answer':
            // What a store of the earlier shape answers.
            return true as unknown as ClaimOutcome;
          case 'late': {
            // Carried out after the receiver stopped waiting.
            const p = new Promise<ClaimOutcome>((resolve) =>
              setTimeout(() => resolve(memory.claim(key, ttlMs, owner)), 120),
            );
            state.late.push(p);
            return p;
          }
          case 'maybe':
            // Carried out, but the answer is lost (a connection dropped after the write).
            memory.claim(key, ttlMs, owner);
            return Promise.reject(new Error('socket closed'));
          case 'maybeTogether': {
            // The same, for two claims in the store at once.
            memory.claim(key, ttlMs, owner);
            const both = new Promise<void>((resolve) => {
              const previous = state.together;
              state.together = () => {
                previous?.();
                resolve();
              };
            });
            if (++state.arrived === 2) state.together?.();
            return both.then(() => Promise.reject(new Error('socket closed')));
          }
          default:
            return memory.claim(key, ttlMs, owner);
        }
      },
      complete(key: string, owner: string, windowMs: number): boolean | Promise<boolean> {
        if (state.complete === 'reject') return Promise.reject(new Error('down'));
        return memory.complete(key, owner, windowMs);
      },
      release(key: string, owner: string): Promise<void> | undefined {
        state.releases.push(key);
        if (state.release === 'reject') return Promise.reject(new Error('down'));
        if (state.release === 'onceReject') {
          state.release = 'ok';
          return Promise.reject(new Error('down'));
        }
        memory.release(key, owner);
        return undefined;
      },
    };
    return { store, state, memory };
  }

  const post = (handle: (request: Request) => Promise<Response>, text: string) =>
    handle(
      new Request('https://merchant.example/hook', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      }),
    ).then((r) => r.json());

  it('answers 500 (the service delivers again), never throws, never runs the handler, whatever the failure', async () => {
    for (const failure of ['throw', 'reject', 'hang', 'answer'] as const) {
      const { store, state } = faulty();
      state.claim = failure;
      const r = receiver({ store, storeTimeoutMs: 50 });
      const started = Date.now();
      expectRejected(await r.receive(notification().text), '500', '', 'replayStore');
      expect(Date.now() - started).toBeLessThan(2_000);
      let ran = 0;
      expectReply(
        await post(
          r.fetchHandler(() => void ran++),
          notification().text,
        ),
        '500',
      );
      expect(ran).toBe(0);
      // Nothing of the error (an address, a password) reaches the verdict.
      const verdict = await r.receive(notification().text);
      expect(JSON.stringify(verdict)).not.toMatch(/10\.0\.0\.1|secret-password/);
    }
  });

  it('takes a store whose answers are thenables of its own', async () => {
    const memory = createMemoryReplayStore();
    const thenable = <T>(value: T) => ({ then: (resolve: (v: T) => void) => resolve(value) }) as unknown as Promise<T>;
    const r = receiver({
      store: {
        claim: (k, t, o) => thenable(memory.claim(k, t, o)),
        complete: (k, o, w) => thenable(memory.complete(k, o, w)),
        release: (k, o) => thenable(memory.release(k, o)),
      },
    });
    const { text } = notification();
    expect((await r.receive(text)).accepted).toBe(true);
    expectRejected(await r.receive(text), '406');
  });

  it('a claim carried out after the wait, or whose answer was lost, is released: the next delivery is accepted', async () => {
    for (const failure of ['late', 'maybe'] as const) {
      const { store, state, memory } = faulty();
      state.claim = failure;
      const r = receiver({ store, storeTimeoutMs: 30 });
      let ran = 0;
      const handle = r.fetchHandler(() => void ran++);
      expectReply(await post(handle, notification().text), '500');
      await Promise.all(state.late);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(memory.size).toBe(0);
      state.claim = 'ok';
      expectReply(await post(handle, notification().text), '00');
      expectReply(await post(handle, notification().text), '406');
      expect(ran).toBe(1);
    }
  });

  it('two deliveries of one notification whose claims both end unknown: both owners’ releases are owed and paid', async () => {
    const { store, state, memory } = faulty();
    state.claim = 'maybeTogether';
    state.release = 'reject';
    const r = receiver({ store });
    const { text } = notification();
    const verdicts = await Promise.all([r.receive(text), r.receive(text)]);
    for (const v of verdicts) expectRejected(v, '500', '', 'replayStore');
    expect(memory.size).toBe(1); // the signature's key, held by the first owner
    state.release = 'ok';
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(memory.size).toBe(0);
  });

  it('a handler that fails releases the claim; a release that fails is tried again until the store answers', async () => {
    const { store, state, memory } = faulty();
    const r = receiver({ store });
    let calls = 0;
    const handle = r.fetchHandler(() => {
      if (calls++ === 0) throw new Error('the merchant database is down');
    });
    expectReply(await post(handle, notification().text), '500');
    expect(memory.size).toBe(0);
    expectReply(await post(handle, notification().text), '00');
    expectReply(await post(handle, notification().text), '406');
    expect(calls).toBe(2);

    // The store fails the first release: the claim is held until a retry, then released.
    state.release = 'onceReject';
    let failing = 0;
    const again = r.fetchHandler(() => {
      if (failing++ === 0) throw new Error('down');
    });
    expectReply(await post(again, notification({ head: { requestId: 'R-2' } }).text), '500');
    expect(memory.size).toBe(3); // one of its two keys not released yet
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(memory.size).toBe(2);
    expectReply(await post(again, notification({ head: { requestId: 'R-2' } }).text), '00');
    expect(failing).toBe(2);
  });
});

describe('memberText', () => {
  it('cuts out the exact text of a top-level member', () => {
    expect(memberText('{"head":{"body":1},"body":{"a":"}\\"]"} }', 'body')).toBe('{"a":"}\\"]"}');
    expect(memberText('{"body":[1,{"x":[]}],"head":{}}', 'body')).toBe('[1,{"x":[]}]');
    expect(memberText('{ "a" : 1 , "body" : -1.5e3 }', 'body')).toBe('-1.5e3');
    expect(memberText('{"body":"x\\\\"}', 'body')).toBe('"x\\\\"');
    expect(memberText('{"head":{}}', 'body')).toBeUndefined();
    expect(memberText('[{"body":1}]', 'body')).toBeUndefined();
    expect(memberText(`{"body":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, 'body')).toHaveLength(20_000);
  });
});

// A real node:http server in front of the receiver.
let server: Server;
let url: string;
const handled: any[] = [];
let failNext = 0;
let route: (req: IncomingMessage, res: ServerResponse) => void;
const nodeReceiver = () =>
  createWebhookReceiver({ verifier: createChecksumVerifier(KEY), now: () => NOW, maxBytes: 64 * 1024 });

beforeAll(async () => {
  const main = nodeReceiver().nodeHandler(async (event) => {
    if (failNext > 0) {
      failNext--;
      throw new Error('database down');
    }
    handled.push(event);
  });
  route = main;
  server = createServer((req, res) => route(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/token`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function post(
  body: string | Uint8Array,
  headers: Record<string, string> = { 'content-type': 'application/json' },
  method = 'POST',
) {
  const response = await fetch(url, { method, headers, body: method === 'GET' ? undefined : (body as BodyInit) });
  return { status: response.status, headers: response.headers, reply: JSON.parse(await response.text()) };
}

describe('nodeHandler on a real node:http server', () => {
  it('accepts a notification, calls onEvent once, replies 00', async () => {
    const before = handled.length;
    const { text } = notification({ head: { requestId: 'NODE-1' } });
    const answer = await post(text);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expectReply(answer.reply, '00');
    expect(handled.slice(before)).toEqual([JSON.parse(text)]);
    const again = await post(text);
    expectReply(again.reply, '406');
    expect(handled.length).toBe(before + 1);
  });

  it('replies 500 when onEvent throws, and accepts the retry of the same notification', async () => {
    const before = handled.length;
    const { text } = notification({ head: { requestId: 'NODE-RETRY' } });
    failNext = 1;
    const failed = await post(text);
    expect(failed.status).toBe(200);
    expectReply(failed.reply, '500');
    expect(JSON.stringify(failed.reply)).not.toContain('database down');
    expect(handled.length).toBe(before);
    expectReply((await post(text)).reply, '00');
    expect(handled.length).toBe(before + 1);
  });

  it('answers what is not a notification clearly: method, content type, size', async () => {
    const get = await post('', {}, 'GET');
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expectReply(get.reply, '400');
    const form = await post('a=b', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expectReply(form.reply, '400');
    const big = await post(JSON.stringify({ head: {}, body: { x: 'y'.repeat(100_000) } }));
    expect(big.status).toBe(413);
    expectReply(big.reply, '400');
    let n = 0;
    const chunk = new Uint8Array(16 * 1024).fill(0x20);
    const stream = new ReadableStream({
      pull(c) {
        if (n++ < 100) c.enqueue(chunk);
        else c.close();
      },
    });
    const streamed = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expectReply(await streamed.json(), '400');
    // No content type at all (bytes sent by fetch carry none) is read as JSON; so is a JSON media type with parameters.
    expectReply((await post(Buffer.from(notification({ head: { requestId: 'NODE-CT1' } }).text), {})).reply, '00');
    expectReply(
      (
        await post(notification({ head: { requestId: 'NODE-CT2' } }).text, {
          'content-type': 'application/json; charset=utf-8',
        })
      ).reply,
      '00',
    );
  });

  it('takes raw bytes left by a body parser, and explains a parsed object', async () => {
    const rejections: any[] = [];
    const handler = createWebhookReceiver({
      verifier: createChecksumVerifier(KEY),
      now: () => NOW,
      onRejected: (r) => rejections.push(r),
    }).nodeHandler(() => undefined);
    const withParser = (parse: (raw: Buffer) => unknown) => async (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      (req as any).body = parse(Buffer.concat(chunks));
      handler(req, res);
    };
    try {
      route = withParser((raw) => raw);
      expectReply((await post(notification({ head: { requestId: 'RAW-1' } }).text)).reply, '00');
      route = withParser((raw) => JSON.parse(raw.toString()));
      expectReply((await post(notification({ head: { requestId: 'RAW-2' } }).text)).reply, '400');
      expect(rejections.at(-1)).toMatchObject({ code: '400', issues: [{ rule: 'rawBody' }] });
      expect(rejections.at(-1).issues[0].message).toMatch(/express\.raw/);
    } finally {
      route = nodeReceiver().nodeHandler(() => undefined);
    }
  });
});

describe('fetchHandler (Fetch API Request in, Response out)', () => {
  const events: any[] = [];
  let fail = false;
  const handle = createWebhookReceiver({
    verifier: createChecksumVerifier(KEY),
    now: () => NOW,
    maxBytes: 4096,
  }).fetchHandler((event) => {
    if (fail) throw new Error('queue full');
    events.push(event);
  });
  const request = (body: BodyInit | undefined, init: RequestInit = {}) =>
    new Request('https://merchant.example/webhooks/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      ...init,
    });

  it('accepts a notification, replies 00 as JSON, and refuses its replay', async () => {
    const { text } = notification({ head: { requestId: 'FETCH-1' } });
    const response = await handle(request(text));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expectReply(await response.json(), '00');
    expect(events).toEqual([JSON.parse(text)]);
    expectReply(await (await handle(request(text))).json(), '406');
    expect(events).toHaveLength(1);
  });

  it('replies 500 when onEvent throws and accepts the retry', async () => {
    const { text } = notification({ head: { requestId: 'FETCH-RETRY' } });
    fail = true;
    expectReply(await (await handle(request(text))).json(), '500');
    fail = false;
    expectReply(await (await handle(request(text))).json(), '00');
  });

  it('answers method, content type, size and a tampered body clearly', async () => {
    const get = await handle(new Request('https://merchant.example/webhooks/token'));
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expectReply(await get.json(), '400');
    const text = await handle(request('hello', { headers: { 'content-type': 'text/plain' } }));
    expect(text.status).toBe(415);
    const big = await handle(
      request(
        new ReadableStream({
          start(c) {
            c.enqueue(new Uint8Array(5000));
            c.close();
          },
        }),
        { duplex: 'half' } as RequestInit,
      ),
    );
    expect(big.status).toBe(413);
    expectReply(await big.json(), '400');
    const forged = notification({ head: { requestId: 'FETCH-2' } }).text.replace('ACTIVE', 'DEAD');
    const answer = await handle(request(forged));
    expect(answer.status).toBe(200);
    expectReply(await answer.json(), '1001');
  });
});

describe('the signature before the text is read (D-113)', () => {
  const key = fc.constantFrom('mid', 'a', 'm\\u0069d', 'tokenInfo', 'x\\"y');
  /** JSON text whose objects often repeat a key (a few names, one of them also spelled with an escape). */
  const body = fc.letrec<{ value: string; object: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.json({ maxDepth: 1 }),
      fc.array(tie('value'), { maxLength: 3 }).map((v) => `[${v.join(',')}]`),
      tie('object'),
    ),
    object: fc
      .array(fc.tuple(key, tie('value')), { maxLength: 4 })
      .map((members) => `{${members.map(([k, v]) => `"${k}":${v}`).join(',')}}`),
  })).object;
  /** The same text broken by a few edits. */
  const broken = fc
    .tuple(body, fc.array(fc.tuple(fc.nat(200), fc.constantFrom(...'{}[]":,\\ 0')), { minLength: 1, maxLength: 3 }))
    .map(([text, edits]) => {
      const a = [...text];
      for (const [at, c] of edits) a.splice(at % (a.length + 1), 0, c);
      return a.join('');
    });
  const rejectedAsJson = (verdict: WebhookVerdict) =>
    !verdict.accepted && verdict.code === '400' && verdict.issues[0]?.rule === 'json';

  it('refuses a signed notification whose text repeats a key with 400, whatever it holds; one that repeats none is not refused as JSON', async () => {
    const r = receiver();
    await fc.assert(
      fc.asyncProperty(body, async (bodyText) => {
        const { text } = notification({ bodyText });
        const verdict = await r.receive(text);
        expect(rejectedAsJson(verdict)).toBe(!checkJson(text).ok);
      }),
      fcParameters(300),
    );
  });

  it('answers a forged notification 1001 whatever its body holds; refuses as JSON only text checkJson refuses, signed or not', async () => {
    const r = receiver();
    await fc.assert(
      fc.asyncProperty(fc.oneof(body, broken), fc.boolean(), async (bodyText, signed) => {
        const { text } = notification({ bodyText, key: signed ? KEY : OTHER_KEY });
        const verdict = await r.receive(text);
        const code = verdict.accepted ? '00' : verdict.code;
        // Forged, the envelope's own punctuation whole: 1001, whatever the body's text.
        const root = outlineObject(text, 0, ['head', 'body'], 32);
        if (!signed && root.ok && jsonSpace(text, root.end) === text.length) expect(code).toBe('1001');
        // Refused as JSON: only text checkJson refuses. Text it refuses is never accepted nor judged by the
        // contract: refused as JSON, or 1001 (forged, or its breaks moved the body away from the signed bytes).
        if (rejectedAsJson(verdict)) expect(checkJson(text).ok).toBe(false);
        else if (!checkJson(text).ok) expect(code).toBe('1001');
      }),
      fcParameters(300),
    );
  });
});

describe('hostile input', () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const fake = 'F'.repeat(108);
  const headWith = (extra: string) =>
    `{"version":"v1","requestTimestamp":"${NOW}","requestId":"H1","signature":"${fake}","signatureType":"CHECKSUM"${extra}}`;
  const hostile: [string, () => string | Uint8Array, string][] = [
    ['empty input', () => '', '400'],
    ['empty bytes', () => new Uint8Array(0), '400'],
    ['only whitespace', () => ' \n\t ', '400'],
    ['binary input', () => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]), '400'],
    ['invalid UTF-8', () => Buffer.from(`{"head":${headWith('')},"body":{"mid":"\xc3\x28"}}`, 'latin1'), '400'],
    ['malformed JSON', () => '{"head":', '400'],
    ['null', () => 'null', '400'],
    ['a number', () => '42', '400'],
    ['a string', () => '"head"', '400'],
    ['an array', () => '[{"head":{},"body":{}}]', '400'],
    ['10 000 levels of nesting at the root', () => `${'['.repeat(10_000)}${']'.repeat(10_000)}`, '400'],
    ['10 000 levels of nesting in the head', () => `{"head":${nested(10_000)},"body":{}}`, '400'],
    ['10 000 levels of nesting in the body', () => `{"head":${headWith('')},"body":${nested(10_000)}}`, '400'],
    ['a 10 MB string in the body', () => `{"head":${headWith('')},"body":{"mid":"${'9'.repeat(10_000_000)}"}}`, '1001'],
    ['a 10 MB signature', () => notification({ head: { signature: 'A'.repeat(10_000_000) } }).text, '1001'],
    ['a huge array', () => `{"head":${headWith('')},"body":[${'1,'.repeat(1_000_000)}1]}`, '1001'],
    [
      '__proto__ and constructor keys',
      () =>
        `{"head":${headWith(',"__proto__":{"polluted":1}')},"body":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}}`,
      '1001',
    ],
    ['a __proto__ root', () => '{"__proto__":{"polluted":1}}', '1006'],
    // A forged notification learns 1001 whatever its body holds; a signed one is read whole after (D-113).
    ['duplicate keys in a forged body', () => `{"head":${headWith('')},"body":{"mid":"M1","mid":"M2"}}`, '1001'],
    [
      'duplicate top-level bodies, forged',
      () => `{"head":${headWith('')},"body":{"mid":"M1"},"body":{"mid":"M2"}}`,
      '1001',
    ],
    ['malformed JSON in a forged body', () => `{"head":${headWith('')},"body":{"mid":"M1",,"x":tru}}`, '1001'],
    ['duplicate keys in a signed body', () => notification({ bodyText: '{"mid":"M1","mid":"M2"}' }).text, '400'],
    [
      'duplicate top-level bodies, the first signed',
      () => notification({ bodyText: '{"mid":"M1"}' }).text.replace(/}$/, ',"body":{"mid":"M2"}}'),
      '400',
    ],
    [
      'a head member repeated in a signed notification',
      () => notification().text.replace('"requestId":"NTF-0001"', '"requestId":"NTF-0001","requestId":"NTF-0002"'),
      '400',
    ],
    ['malformed JSON in a signed body', () => notification({ bodyText: '{"mid":"M1",,"x":tru}' }).text, '400'],
    ['text after the envelope', () => `${notification().text} {}`, '400'],
    [
      'a head whose signature is not a JSON string',
      () => `{"head":{"signatureType":"CHECKSUM","signature":"\\x"},"body":{}}`,
      '400',
    ],
  ];

  it.each(hostile)('receive() answers %s with a clear failure, without throwing', async (_what, make, code) => {
    const verdict = await receiver({ maxBytes: 64 * 1024 * 1024 }).receive(make());
    expectRejected(verdict, code);
    for (const issue of verdict.accepted ? [] : verdict.issues) {
      expect(issue.message.length).toBeLessThan(400);
      expect(issue.message).not.toContain('FFFFFFFF');
    }
    expect(({} as any).polluted).toBeUndefined();
    expect((Object.prototype as any).polluted).toBeUndefined();
  });

  it('receive() refuses inputs over maxBytes (default 1 MiB) before parsing them', async () => {
    const verdict = await receiver({ maxBytes: 1_000 }).receive(
      notification({ body: { ...example('TokenStatusActive').body, pad: 'x'.repeat(2_000) } }).text,
    );
    expectRejected(verdict, '400', '', 'maxBytes');
    for (const [, make] of hostile.filter(([what]) => /10 MB|huge/.test(what)))
      expectRejected(await receiver().receive(make()), '400', '', 'maxBytes');
  });

  it('measures a body given as a text by its UTF-8 bytes, as counting them one by one does (lone surrogates, two-, three- and four-byte characters)', async () => {
    const unit = fc.constantFrom('a', '{', 'é', '€', '😀', '\ud800', '\udfff');
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit, minLength: 1, maxLength: 12 }),
        fc.integer({ min: -2, max: 2 }),
        async (text, offset) => {
          const limit = utf8Length(text) + offset;
          if (limit < 1) return;
          const verdict = await receiver({ maxBytes: limit }).receive(text);
          const refusedForSize = !verdict.accepted && verdict.issues[0]?.rule === 'maxBytes';
          expect(refusedForSize).toBe(utf8Length(text) > limit);
        },
      ),
      fcParameters(500),
    );
  });

  it('refuses a body nested deeper than a notification can be before parsing it or checking its signature', async () => {
    const calls: string[] = [];
    const verifier = {
      signatureType: 'CHECKSUM',
      verify: (text: string) => {
        calls.push(text);
        return true;
      },
    };
    const deepHead = notification({ head: { deep: 'DEEP' } }).text.replace('"DEEP"', nested(10_000));
    expectRejected(await receiver({ verifier }).receive(deepHead), '400', '', 'json');
    // About 1 MiB of nested arrays: refused by a linear scan, never parsed.
    const arrays = `{"head":${'['.repeat(500_000)}${']'.repeat(500_000)},"body":{}}`;
    const verdict = await receiver({ verifier, maxBytes: 2 * 1024 * 1024 }).receive(arrays);
    expectRejected(verdict, '400', '', 'json');
    if (!verdict.accepted) expect(verdict.issues[0]?.message).toMatch(/nested deeper than 32 levels/);
    expect(calls).toEqual([]);
    // What a notification nests (four levels) is still read and judged.
    expectRejected(
      await receiver().receive(notification({ head: { deep: { a: [[1]] } } }).text),
      '400',
      '/head/<unknown key>',
      'additionalProperties',
    );
  });

  it('checks the signature of a flat body before building it: nothing larger than a signature is parsed for a forged one', async () => {
    const flat = {
      'many keys': `{${Array.from({ length: 60_000 }, (_, i) => `"k${i.toString(36)}":0`).join(',')}}`,
      'many small objects': `[${'{},'.repeat(200_000)}{}]`,
      'many strings': `[${'"a",'.repeat(200_000)}"a"]`,
      'many escaped keys': `{${Array.from({ length: 30_000 }, (_, i) => `"\\u006b${i}":1`).join(',')}}`,
    };
    const verified: number[] = [];
    const verifier = {
      signatureType: 'CHECKSUM',
      verify: async (text: string, signature: string) => {
        verified.push(text.length);
        return createChecksumVerifier(KEY).verify(text, signature);
      },
    };
    const r = receiver({ verifier, maxBytes: 2 * 1024 * 1024 });
    const parse = JSON.parse;
    const parsed: number[] = [];
    JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
      parsed.push(String(text).length);
      return parse(text, reviver);
    }) as typeof JSON.parse;
    try {
      for (const [what, body] of Object.entries(flat)) {
        const forged = notification({ bodyText: body }).text.replace(
          /"signature":"[^"]+"/,
          `"signature":"${'F'.repeat(108)}"`,
        );
        verified.length = 0;
        parsed.length = 0;
        expectRejected(await r.receive(forged), '1001');
        expect(verified, what).toEqual([body.length]);
        expect(Math.max(0, ...parsed), what).toBeLessThan(200);
        // Signed, it is read whole and judged by the contract (a body that is no notification).
        parsed.length = 0;
        const verdict = await r.receive(notification({ bodyText: body }).text);
        expect(verdict.accepted, what).toBe(false);
        expect(verdict.accepted ? '' : verdict.code, what).not.toBe('1001');
        expect(Math.max(...parsed)).toBeGreaterThan(body.length);
      }
    } finally {
      JSON.parse = parse;
    }
  });

  it.each(hostile.filter(([what]) => !/10 MB|huge/.test(what)))(
    'the node adapter answers %s with a valid reply',
    async (_what, make, code) => {
      const answer = await post(make());
      expect(answer.status).toBe(200);
      expectReply(answer.reply, code);
      expect((Object.prototype as any).polluted).toBeUndefined();
    },
  );

  it('the node adapter answers 10 MB and huge bodies with 413', async () => {
    for (const [, make] of hostile.filter(([what]) => /10 MB|huge/.test(what))) {
      const answer = await post(make());
      expect(answer.status).toBe(413);
      expectReply(answer.reply, '400');
    }
  });
});
