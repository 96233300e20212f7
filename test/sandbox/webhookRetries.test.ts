// The retries of notifications on the sandbox clock (src/sandbox/webhooks/retries.ts): when another
// attempt follows and why none does, each retry due on the scheduler, the older statuses of a token
// ended once a newer one is delivered, and a forgotten record's retry cancelled.
import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/sandbox/clock.js';
import type { WebhookDelivery } from '../../src/sandbox/records.js';
import { createScheduler } from '../../src/sandbox/scheduler.js';
import type { AttemptOutcome } from '../../src/sandbox/webhooks/attempt.js';
import { type AttemptedDelivery, attempted, created, goingOut, show } from '../../src/sandbox/webhooks/deliveries.js';
import { createRetries, nextAttempt } from '../../src/sandbox/webhooks/retries.js';

const T0 = Date.parse('2026-01-21T10:00:00.000Z');
const RETRY = { retries: 3, firstDelayMs: 1_000, factor: 3 };
const iso = (ms: number) => new Date(ms).toISOString();
const reply = (code: string): AttemptOutcome => ({
  state: code === '00' ? 'delivered' : 'not-accepted',
  httpStatus: 200,
  code,
  outcome: code === '00' ? 'success' : 'failure',
  valid: true,
  issues: [],
  reply: {},
});

/** A notification of token TIN1 and the record of its attempts, one per code. */
function notification(seq: number, codes: string[], duplicate = false) {
  let record: WebhookDelivery = created({
    id: `DLV${seq}`,
    mid: 'MID1',
    tokenInfo: { tokenIndexNumber: 'TIN1', tokenStatus: 'ACTIVE' } as any,
    url: 'u',
    requestId: 'R',
    createdAt: 't',
  });
  for (const code of codes) record = attempted(goingOut(record), reply(code), 'a', 'c');
  return { seq, duplicate, record };
}
const last = (n: { record: WebhookDelivery }) => n.record as AttemptedDelivery;

describe('nextAttempt', () => {
  it('is due after waits growing by the factor, until webhookRetry.retries retries were made', () => {
    expect(nextAttempt(last(notification(1, ['500'])), false, RETRY, T0)).toEqual({ due: T0 + 1_000 });
    expect(nextAttempt(last(notification(1, ['500', '500'])), false, RETRY, T0)).toEqual({ due: T0 + 3_000 });
    expect(nextAttempt(last(notification(1, ['500', '500', '500'])), false, RETRY, T0)).toEqual({ due: T0 + 9_000 });
    expect(nextAttempt(last(notification(1, ['500', '500', '500', '500'])), false, RETRY, T0)).toEqual({
      reason: 'No further attempt: 4 attempts made (webhookRetry.retries is 3).',
    });
  });

  it('never follows a copy, nor a retry refused 406; a first attempt refused 406 is retried; retries 0 says nothing', () => {
    expect(nextAttempt(last(notification(1, ['406'], true)), true, RETRY, T0)).toEqual({});
    expect(nextAttempt(last(notification(1, ['500', '406'])), false, RETRY, T0)).toEqual({
      reason:
        'No further attempt: the merchant refuses the repeated requestId (406), so an earlier attempt reached it.',
    });
    expect(nextAttempt(last(notification(1, ['406'])), false, RETRY, T0)).toEqual({ due: T0 + 1_000 });
    expect(nextAttempt(last(notification(1, ['500'])), false, { ...RETRY, retries: 0 }, T0)).toEqual({});
  });
});

describe('createRetries', () => {
  function setup() {
    const clock = createClock(() => T0);
    const scheduler = createScheduler(clock);
    const sent: number[] = [];
    const retries = createRetries<ReturnType<typeof notification>>({
      scheduler,
      clock,
      retry: RETRY,
      send: (n) => sent.push(n.seq),
    });
    const attemptEnded = (n: ReturnType<typeof notification>) => retries.after(n, last(n));
    return { clock, scheduler, retries, sent, attemptEnded };
  }

  it('schedules a retry on the sandbox clock and shows when it is due', async () => {
    const { clock, scheduler, retries, sent, attemptEnded } = setup();
    const n = notification(1, ['500']);
    attemptEnded(n);
    expect(n.record.nextAttemptAt).toBe(iso(T0 + 1_000));
    expect([retries.waiting(), scheduler.pending()]).toEqual([1, 1]);
    clock.advance(999);
    await scheduler.runDue();
    expect(sent).toEqual([]);
    clock.advance(1);
    await scheduler.runDue();
    expect(sent).toEqual([1]);
    expect(retries.waiting()).toBe(0);
    scheduler.stop();
  });

  it('a delivered status ends the retries of its token as old or older, with the reason, and not of newer ones', async () => {
    const { clock, scheduler, retries, sent, attemptEnded } = setup();
    const older = notification(1, ['500']);
    const newer = notification(5, ['500']);
    attemptEnded(older);
    attemptEnded(newer);
    attemptEnded(notification(2, ['00']));
    expect(older.record).toMatchObject({
      reason: 'No further attempt: DLV2, a later status of this token, was delivered.',
    });
    expect(older.record.nextAttemptAt).toBeUndefined();
    expect(newer.record.nextAttemptAt).toBe(iso(T0 + 1_000));
    // Its copy delivered ends the original's retries too.
    const copied = notification(4, ['500']);
    attemptEnded(copied);
    attemptEnded(notification(4, ['00'], true));
    expect(copied.record.reason).toBe('No further attempt: its copy DLV4 was delivered.');
    expect(retries.waiting()).toBe(1);
    clock.advance(60_000);
    await scheduler.runDue();
    expect(sent).toEqual([5]);
    scheduler.stop();
  });

  it('a forgotten record leaves the scheduler; clear forgets every retry', async () => {
    const { clock, scheduler, retries, sent, attemptEnded } = setup();
    const forgotten = notification(1, ['500']);
    attemptEnded(forgotten);
    attemptEnded(notification(2, ['500']));
    retries.forget(forgotten);
    retries.forget(notification(9, ['500']));
    expect([retries.waiting(), scheduler.pending()]).toEqual([1, 1]);
    retries.clear();
    expect(retries.waiting()).toBe(0);
    scheduler.clear();
    clock.advance(60_000);
    await scheduler.runDue();
    expect(sent).toEqual([]);
    scheduler.stop();
  });

  it('an attempt that ends the retries shows its reason in the record', () => {
    const { attemptEnded } = setup();
    const n = notification(1, ['500', '500', '500', '500']);
    const shown = n.record;
    attemptEnded(n);
    expect(n.record).toBe(shown);
    expect(n.record.reason).toBe('No further attempt: 4 attempts made (webhookRetry.retries is 3).');
    // show() is how the record changes: the same object.
    show(shown, goingOut(shown));
    expect(n.record.state).toBe('pending');
  });
});
