// One attempt to deliver a notification (src/sandbox/webhooks/attempt.ts): what it hands the sender
// (the timestamp, the time limit, the bound on the reply, the stop signal), the verdict on a reply,
// what it keeps of anything a sender throws, and the signers of an original and of its copy.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  attemptError,
  keepingSigner,
  MAX_REPLY_BYTES,
  repeatingSigner,
  sendAttempt,
  verdictOf,
} from '../../src/sandbox/webhooks/attempt.js';
import type { SendTokenNotificationOptions, SendTokenNotificationResult } from '../../src/webhook/send.js';

const tokenInfo = { tokenIndexNumber: 'TIN123', tokenStatus: 'ACTIVE' } as any;
const signer = { signatureType: 'CHECKSUM', sign: () => 'SIG' };

/** A sender that records what it was given and answers `result` (or throws it). */
function sender(result: Partial<SendTokenNotificationResult> | { throws: unknown }) {
  const given: SendTokenNotificationOptions[] = [];
  const send = async (options: SendTokenNotificationOptions): Promise<SendTokenNotificationResult> => {
    given.push(options);
    if ('throws' in result) throw result.throws;
    return {
      httpStatus: 200,
      reply: {},
      valid: true,
      issues: [],
      outcome: 'success',
      nextStep: { action: 'none' } as any,
      requestId: 'R',
      ...result,
    };
  };
  return { given, send };
}

const request = (send: ReturnType<typeof sender>['send'], signal = new AbortController().signal) => ({
  send,
  url: 'http://127.0.0.1:9/hook',
  mid: 'MID1',
  tokenInfo,
  requestId: 'NTF1',
  signer,
  at: 1_768_990_000_000,
  timeoutMs: 1_234,
  signal,
});

describe('one attempt', () => {
  it('hands the sender the notification, its timestamp, the time limit, the reply bound and the stop signal', async () => {
    const { given, send } = sender({ code: '00' });
    const stop = new AbortController();
    await sendAttempt(request(send, stop.signal));
    const [options] = given;
    expect(options).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      body: { mid: 'MID1', tokenInfo },
      requestId: 'NTF1',
      timeoutMs: 1_234,
      maxReplyBytes: MAX_REPLY_BYTES,
      signal: stop.signal,
      signer,
    });
    expect(options?.now?.()).toBe(1_768_990_000_000);
    expect(MAX_REPLY_BYTES).toBe(16 * 1024);
  });

  it("records the merchant's reply with its verdict: delivered only for a valid reply that says success", async () => {
    const { send } = sender({ httpStatus: 200, code: '00', valid: true, outcome: 'success', reply: { body: 1 } });
    expect(await sendAttempt(request(send))).toEqual({
      state: 'delivered',
      httpStatus: 200,
      code: '00',
      outcome: 'success',
      valid: true,
      issues: [],
      reply: { body: 1 },
    });
    const noCode = sender({ httpStatus: 502, valid: false, outcome: 'failure', reply: null });
    expect(await sendAttempt(request(noCode.send))).toEqual({
      state: 'invalid-reply',
      httpStatus: 502,
      outcome: 'failure',
      valid: false,
      issues: [],
      reply: null,
    });
    expect(verdictOf({ valid: true, outcome: 'success' })).toBe('delivered');
    expect(verdictOf({ valid: true, outcome: 'pending' })).toBe('not-accepted');
    expect(verdictOf({ valid: true, outcome: 'failure' })).toBe('not-accepted');
    expect(verdictOf({ valid: false, outcome: 'success' })).toBe('invalid-reply');
  });

  it('never rejects: of anything a sender throws it keeps a name, a kind that is a string, and 300 characters of message', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.anything(),
        fc.option(fc.string({ maxLength: 500 })),
        fc.anything(),
        async (thrownMessage, kind, other) => {
          const thrown = { name: 'SomeError', message: thrownMessage, kind: kind ?? other, extra: 'not kept' };
          const { send } = sender({ throws: thrown });
          const outcome = await sendAttempt(request(send));
          expect(outcome.state).toBe('failed');
          if (outcome.state !== 'failed') return;
          expect(Object.keys(outcome.error).every((k) => ['name', 'kind', 'message'].includes(k))).toBe(true);
          expect(outcome.error.message.length).toBeLessThanOrEqual(300);
          expect(outcome.error.kind === undefined || typeof outcome.error.kind === 'string').toBe(true);
        },
      ),
      { numRuns: 200 },
    );
    for (const thrown of [undefined, null, 'a string', 42, Symbol('s'), new TypeError('bad')]) {
      const { send } = sender({ throws: thrown });
      expect((await sendAttempt(request(send))).state).toBe('failed');
    }
    expect(attemptError(null)).toEqual({ name: 'Error', message: 'the delivery failed' });
    // A message or name that is no string, even one String() cannot convert, is not kept (it threw before).
    expect(attemptError({ name: { toString: 1 }, message: { toString: 1 } })).toEqual({
      name: 'Error',
      message: 'the delivery failed',
    });
    expect(attemptError(Object.assign(new Error('x'.repeat(400)), { kind: 'network' }))).toEqual({
      name: 'Error',
      kind: 'network',
      message: 'x'.repeat(300),
    });
  });

  it("an original's signer tells each signature it makes; a copy's repeats one byte for byte", async () => {
    const seen: string[] = [];
    const keeping = keepingSigner({ signatureType: 'CHECKSUM', sign: async (text) => `signed:${text}` }, (s) =>
      seen.push(s),
    );
    expect(await keeping.sign('body')).toBe('signed:body');
    expect(seen).toEqual(['signed:body']);
    expect(keeping.signatureType).toBe('CHECKSUM');
    const repeating = repeatingSigner('CHECKSUM', 'signed:body');
    expect(await repeating.sign('another body')).toBe('signed:body');
  });
});
