// Verify's receiver of token status notifications: a generated notification of the contract, signed
// with the merchant key over its body's exact text, has no problem; the same text with its body
// changed by a few edits, or signed with another key, fails its signature; a notification of
// another merchant, of a token verify did not make, past 64 KiB, or a status change the state table
// does not allow, is a problem with its rule; each is answered 00 in the merchant's reply envelope.

import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { parseJson } from '../../src/json/parse.js';
import { generateSignatureSync } from '../../src/signing/checksumNode.js';
import { Coverage } from '../../src/verify/coverage.js';
import {
  NOTIFICATION_MAX_BYTES,
  NotificationReceiver,
  notificationProblems,
  TOKEN_TRANSITIONS,
  transitionAllowed,
} from '../../src/verify/notifications.js';
import type { Target } from '../../src/verify/types.js';
import { edited, fcParameters, operationViews, sampleArbitrary } from '../helpers/arbitraries.js';

const KEY = 'SandboxTestKey01';
const target: Target = {
  gatewayUrl: '',
  routerUrl: '',
  key: KEY,
  mid: 'MERCHANT0001',
  clientId: 'C11',
  timeoutMs: 1_000,
  maxAnswerBytes: 1 << 20,
};
const view = operationViews.find((v) => v.operationId === 'notifyTokenStatus');
if (!view) throw new Error('no notifyTokenStatus');

/** The envelope's text: the body serialized once and signed over exactly those bytes. */
function signed(payload: { head: Record<string, unknown>; body: unknown }, key = KEY): string {
  const body = JSON.stringify(payload.body);
  return `{"head":${JSON.stringify({ ...payload.head, signature: generateSignatureSync(body, key) })},"body":${body}}`;
}

/** JSON as the receiver reads it: a key repeated within an object is no JSON it accepts. */
const isJson = (text: string): boolean => parseJson(text).ok;

/** Generated notifications of the contract, for the target's merchant. */
const notifications = sampleArbitrary(view, 'request').map((s) => ({
  ...s.payload,
  body: { ...s.payload.body, mid: target.mid },
}));

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('notificationProblems', () => {
  it('finds nothing in a generated notification signed with the key', () => {
    fc.assert(
      fc.property(notifications, (payload) => {
        expect(notificationProblems(target, signed(payload)).problems).toEqual([]);
      }),
      fcParameters(60),
    );
  });

  it('refuses the signature of a body changed after signing, or signed with another key, and never echoes a value', () => {
    fc.assert(
      fc.property(notifications, fc.boolean(), (generated, otherKey) => {
        const payload = {
          ...generated,
          body: { ...generated.body, tokenInfo: { ...generated.body.tokenInfo, tokenIndexNumber: 'SECRETTOKEN4242' } },
        };
        const text = signed(payload, otherKey ? 'WrongMerchantKey' : KEY);
        const body = JSON.stringify(payload.body);
        return fc.assert(
          fc.property(edited(fc.constant(body), fc.constantFrom('1', 'a', ' ', '"', 'Z'), body.length), (changed) => {
            // White space around the body is no part of the signed text (the member's value is).
            fc.pre(otherKey || changed.trim() !== body);
            const { problems } = notificationProblems(
              target,
              text.replace(body, () => changed),
            );
            // An edit that leaves no JSON is refused before the signature is read; any other fails it.
            expect(problems.map((p) => p.rule)).toContain(
              isJson(changed) ? 'notificationSignature' : 'notificationSchema',
            );
            for (const p of problems) expect(p.message).not.toContain('SECRETTOKEN4242');
          }),
          { numRuns: 5 },
        );
      }),
      fcParameters(30),
    );
  });

  it('names a notification of another merchant (notificationMid) and one that breaks the schema (notificationSchema)', () => {
    fc.assert(
      fc.property(notifications, (payload) => {
        const rules = notificationProblems(
          target,
          signed({ ...payload, body: { ...payload.body, mid: 'OTHERMERCHANT1' } }),
        ).problems.map((p) => p.rule);
        expect(rules).toEqual(['notificationMid']);
        const broken = notificationProblems(
          target,
          signed({ ...payload, body: { ...payload.body, tokenInfo: 7 } }),
        ).problems.map((p) => p.rule);
        expect(broken).toEqual(['notificationSchema']);
      }),
      fcParameters(30),
    );
  });
});

describe('the state table of tokens (D-42)', () => {
  it('allows INIT -> ACTIVE|FAILED, ACTIVE -> SUSPENDED|DEAD, SUSPENDED -> ACTIVE|DEAD and a repeated status; nothing else', () => {
    const statuses = Object.keys(TOKEN_TRANSITIONS);
    const allowed = new Set([
      'INIT>ACTIVE',
      'INIT>FAILED',
      'ACTIVE>SUSPENDED',
      'ACTIVE>DEAD',
      'SUSPENDED>ACTIVE',
      'SUSPENDED>DEAD',
    ]);
    for (const from of statuses)
      for (const to of statuses) expect(transitionAllowed(from, to)).toBe(from === to || allowed.has(`${from}>${to}`));
  });
});

describe('NotificationReceiver', () => {
  async function started() {
    const coverage = new Coverage();
    const receiver = await NotificationReceiver.start(target, coverage);
    cleanups.push(() => receiver.close());
    return { receiver, coverage };
  }
  const post = (url: string, text: string) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
  const sample = fc.sample(notifications, { seed: 7, numRuns: 1 })[0];
  const of = (token: string, status: string) =>
    signed({
      ...sample,
      body: { ...sample.body, tokenInfo: { ...sample.body.tokenInfo, tokenIndexNumber: token, tokenStatus: status } },
    });

  it('listens on 127.0.0.1 and answers 00 in the reply envelope of the contract', async () => {
    const { receiver, coverage } = await started();
    expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+\//);
    const answer = await post(receiver.url, of('TOKEN1', 'ACTIVE'));
    expect(answer.status).toBe(200);
    const reply = await answer.json();
    expect(validate('notifyTokenStatus', 'response', reply).valid).toBe(true);
    expect(reply.body.resultInfo.resultCode).toBe('00');
    expect(coverage.notifications).toBe(1);
  });

  it("checks a token's changes against the table, also for a notification that came before verify knew its token", async () => {
    const { receiver } = await started();
    await post(receiver.url, of('TOKEN2', 'ACTIVE'));
    receiver.track('TOKEN2', 'ACTIVE');
    await post(receiver.url, of('TOKEN2', 'SUSPENDED'));
    await post(receiver.url, of('TOKEN2', 'SUSPENDED'));
    await post(receiver.url, of('TOKEN2', 'INIT'));
    expect(await receiver.waitFor('TOKEN2', (s) => s === 'INIT', 1_000)).toBe(true);
    const received = receiver.take('TOKEN2');
    expect(received.map((r) => [r.status, r.problems.map((p) => p.rule)])).toEqual([
      ['ACTIVE', []],
      ['SUSPENDED', []],
      ['SUSPENDED', []],
      ['INIT', ['tokenTransition']],
    ]);
    expect(receiver.take('TOKEN2')).toEqual([]);
    expect(await receiver.waitFor('TOKEN2', (s) => s === 'DEAD', 50)).toBe(false);
  });

  it('keeps a notification of a token verify did not make, and one past 64 KiB (413), as strays', async () => {
    const { receiver } = await started();
    await post(receiver.url, of('NOTMINE', 'ACTIVE'));
    const large = await post(receiver.url, `{"head":{},"body":"${'x'.repeat(NOTIFICATION_MAX_BYTES)}"}`);
    expect(large.status).toBe(413);
    const strays = receiver.takeStrays();
    expect(strays.map((s) => s.problems.map((p) => p.rule))).toEqual([['notificationSchema'], ['notificationToken']]);
    expect(receiver.takeStrays()).toEqual([]);
  });
});
