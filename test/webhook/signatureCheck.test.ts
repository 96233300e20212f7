// The receiver's steps on their own (docs/decisions.md, D-34, D-113): the reading before the signature
// and the signature (src/webhook/signatureCheck.ts), the signed text read whole and held to the
// contract, the mid and the clock (notification.ts), and where a verdict goes besides the reply
// (verdicts.ts). The whole receiver is held to the same in test/webhook/webhook.test.ts.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateSignatureSync } from '../../src/signing/checksumNode.js';
import { createChecksumVerifier } from '../../src/signing/index.js';
import { clockProblem, midProblem, readNotification } from '../../src/webhook/notification.js';
import { replyFor } from '../../src/webhook/reply.js';
import { largerThan, signedText } from '../../src/webhook/signatureCheck.js';
import { VERDICT_CHANNEL, type WebhookVerdictEvent } from '../../src/webhook/tracing.js';
import { reportRejected } from '../../src/webhook/verdicts.js';
import { fcParameters } from '../helpers/arbitraries.js';

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const EXAMPLE = doc.components.examples.TokenStatusActive.value;
const BODY = JSON.stringify(EXAMPLE.body);
const KEY = 'k3yK3yk3yK3yk3yK';
const checksum = createChecksumVerifier(KEY);
const signature = generateSignatureSync(BODY, KEY);
const head = { ...EXAMPLE.head, signatureType: 'CHECKSUM', signature };
const signed = `{"head":${JSON.stringify(head)},"body":${BODY}}`;

/** A verifier that says yes to everything and keeps what it was asked. */
function recording() {
  const asked: [string, string][] = [];
  return {
    asked,
    verifier: {
      signatureType: 'CHECKSUM',
      verify: (bodyText: string, given: string) => {
        asked.push([bodyText, given]);
        return false;
      },
    },
  };
}

describe('the reading before the signature, and the signature', () => {
  it('refuses, in order, what keeps the signature from being checked, each with its pointer, rule and code', async () => {
    const cases: [unknown, string, string, string][] = [
      [{ head }, '', 'rawBody', '400'],
      ['x'.repeat(101), '', 'maxBytes', '400'],
      [new Uint8Array([0xff]), '', 'json', '400'],
      ['  ', '', 'json', '400'],
      ['[1]', '', 'type', '400'],
      ['{"head": }', '', 'json', '400'],
      ['{"body":{}}', '/head', 'required', '1006'],
      ['{"head":1,"body":{}}', '/head', 'type', '1006'],
      ['{"head":{"signature":"c2ln"},"body":{}}', '/head/signatureType', 'required', '1005'],
      ['{"head":{"signatureType":"RSA","signature":"c2ln"},"body":{}}', '/head/signatureType', 'const', '1400'],
      ['{"head":{"signatureType":"CHECKSUM"},"body":{}}', '/head/signature', 'required', '410'],
      ['{"head":{"signatureType":"CHECKSUM","signature":7},"body":{}}', '/head/signature', 'type', '400'],
      ['{"head":{"signatureType":"CHECKSUM","signature":"c2ln"}}', '/body', 'required', '410'],
    ];
    for (const [raw, pointer, rule, code] of cases) {
      const { asked, verifier } = recording();
      const found = await signedText(raw, 100, verifier);
      expect(found, String(raw)).toMatchObject({ ok: false, issue: { pointer, rule, resultCode: code } });
      expect(asked).toEqual([]);
    }
  });

  it('gives the verifier the exact text of the body and the signature, and the text on only when it says yes', async () => {
    expect(await signedText(signed, 1 << 20, checksum)).toEqual({ ok: true, text: signed });
    expect(await signedText(new TextEncoder().encode(signed), 1 << 20, checksum)).toEqual({ ok: true, text: signed });
    const spaced = signed.replace(`"body":${BODY}`, `"body" :  ${BODY.replace('{', '{ ')} `);
    const { asked, verifier } = recording();
    expect(await signedText(spaced, 1 << 20, verifier)).toMatchObject({
      ok: false,
      issue: { rule: 'signature', resultCode: '1001' },
    });
    expect(asked).toEqual([[BODY.replace('{', '{ '), signature]]);
    const failing = {
      signatureType: 'CHECKSUM',
      verify: () => {
        throw new Error('key store at 10.0.0.7 unreachable');
      },
    };
    const broken = await signedText(signed, 1 << 20, failing);
    expect(broken).toMatchObject({ ok: false, issue: { rule: 'verifier', resultCode: '500' } });
    expect(JSON.stringify(broken)).not.toContain('10.0.0.7');
    // No comparison of the signature's value here (a type check is not one): the verifier decides.
    expect(readFileSync(new URL('../../src/webhook/signatureCheck.ts', import.meta.url), 'utf8')).not.toMatch(
      /(?<!typeof\s+[\w.]*)\bsignature\s*[!=]==|[!=]==\s*[\w.]*\.signature\b/,
    );
  });

  it('never says the signature in what it refuses, whatever the text (generated)', async () => {
    const secret = fc.stringMatching(/^Zq[A-Za-z0-9+/]{8,40}$/); // never a word of a message
    const envelope = fc.record(
      {
        head: fc.record(
          { signatureType: fc.constantFrom('CHECKSUM', 'RSA', 7), signature: secret },
          { requiredKeys: [] },
        ),
        body: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(envelope, fc.nat(40), async (value, cut) => {
        const text = JSON.stringify(value);
        for (const raw of [text, text.slice(0, text.length - cut)]) {
          const found = await signedText(raw, 1 << 20, checksum);
          expect(found.ok).toBe(false);
          const said = JSON.stringify(found);
          const given = value.head?.signature;
          if (given !== undefined) expect(said).not.toContain(given);
        }
      }),
      fcParameters(300),
    );
  });

  it('measures a text against the size limit exactly as its UTF-8 bytes (generated)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), fc.nat(200), (text, limit) => {
        expect(largerThan(text, limit)).toBe(new TextEncoder().encode(text).byteLength > limit);
      }),
      fcParameters(500),
    );
  });
});

describe('the signed notification', () => {
  it('is read whole (no repeated key), held to the contract, to the merchant ids served and to the clock', () => {
    const read = readNotification(signed);
    if (!read.ok) throw new Error('the example is refused');
    expect(read.event.body.mid).toBe(EXAMPLE.body.mid);
    expect(readNotification(signed.replace('{"head":', '{"body":{},"head":'))).toMatchObject({
      ok: false,
      code: '400',
      issues: [{ rule: 'json' }],
    });
    const invalid = readNotification(`{"head":${JSON.stringify(head)},"body":{}}`);
    expect(invalid.ok).toBe(false);
    expect(midProblem(read.event, undefined)).toBeNull();
    expect(midProblem(read.event, [EXAMPLE.body.mid])).toBeNull();
    expect(midProblem(read.event, ['ANOTHER'])).toMatchObject({
      pointer: '/body/mid',
      rule: 'expectedMid',
      resultCode: '407',
    });
    const at = Number(EXAMPLE.head.requestTimestamp);
    const sent = EXAMPLE.head.requestTimestamp.length <= 10 ? at * 1000 : at;
    expect(clockProblem(read.event, sent + 300_000, 300_000)).toBeNull();
    expect(clockProblem(read.event, sent - 300_001, 300_000)).toMatchObject({
      rule: 'maxClockSkew',
      resultCode: '400',
    });
    expect(clockProblem(read.event, sent + 300_001, 300_000)?.message).toMatch(
      /is 300 s behind this server's clock; at most 300 s/,
    );
  });
});

describe('where a refusal goes besides the reply', () => {
  it('to the verdict channel and to onRejected, whose failure changes nothing', () => {
    const verdict = {
      accepted: false as const,
      code: '1001' as const,
      reply: replyFor('1001', 0),
      issues: [{ in: 'body' as const, pointer: '', rule: 'signature', message: 'm' }],
    };
    const events: WebhookVerdictEvent[] = [];
    const listener = (message: unknown) => void events.push(message as WebhookVerdictEvent);
    subscribe(VERDICT_CHANNEL, listener);
    const logged: unknown[] = [];
    try {
      reportRejected((rejection) => void logged.push(rejection), verdict);
      reportRejected(
        () => {
          throw new Error('the logger is down');
        },
        verdict,
        performance.now(),
        true,
      );
    } finally {
      unsubscribe(VERDICT_CHANNEL, listener);
    }
    expect(logged).toEqual([{ code: '1001', issues: verdict.issues }]);
    expect(events.map(({ verdict: v, code, rule, handlerRan }) => ({ v, code, rule, handlerRan }))).toEqual([
      { v: 'rejected', code: '1001', rule: 'signature', handlerRan: false },
      { v: 'handlerFailed', code: '1001', rule: 'signature', handlerRan: true },
    ]);
  });
});
