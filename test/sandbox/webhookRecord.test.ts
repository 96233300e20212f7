// The record of a notification's delivery (src/sandbox/webhooks/deliveries.ts): each transition makes
// the whole next record, whose fields are those of its state, and `show` writes it over the one
// record the sandbox shows (the same object throughout, its fields in the order they arrived).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../../src/sandbox/records.js';
import type { AttemptOutcome } from '../../src/sandbox/webhooks/attempt.js';
import {
  attempted,
  attemptLine,
  created,
  ended,
  goingOut,
  isAttempted,
  retryDue,
  show,
  skipped,
} from '../../src/sandbox/webhooks/deliveries.js';

const tokenInfo = { tokenIndexNumber: 'TIN123', tokenStatus: 'ACTIVE' } as any;
const fresh = (extra: { duplicateOf?: string; reordered?: boolean } = {}) =>
  created({
    id: 'DLV1',
    mid: 'MID1',
    tokenInfo,
    url: 'http://127.0.0.1:9/hook',
    requestId: 'NTF1',
    createdAt: 't0',
    ...extra,
  });

const OK: AttemptOutcome = {
  state: 'delivered',
  httpStatus: 200,
  code: '00',
  outcome: 'success',
  valid: true,
  issues: [],
  reply: { body: {} },
};
const REFUSED: AttemptOutcome = {
  state: 'not-accepted',
  httpStatus: 200,
  code: '500',
  outcome: 'failure',
  valid: true,
  issues: [],
  reply: {},
};
const NO_CODE: AttemptOutcome = {
  state: 'invalid-reply',
  httpStatus: 502,
  outcome: 'failure',
  valid: false,
  issues: [],
  reply: null,
};
const DOWN: AttemptOutcome = {
  state: 'failed',
  error: { name: 'GatewayNetworkError', kind: 'network', message: 'refused' },
};

/** The fields each state may have besides those every delivery has. */
const COMMON = [
  'id',
  'tokenIndexNumber',
  'tokenStatus',
  'mid',
  'url',
  'requestId',
  'createdAt',
  'state',
  'attempts',
  'duplicateOf',
  'reordered',
];
const REPLY = ['httpStatus', 'code', 'outcome', 'valid', 'issues', 'reply', 'completedAt'];
const FAILURE = ['error', 'completedAt'];

/** Whether a record has the fields its state allows, and those its state requires. */
function keepsItsState(d: WebhookDelivery): boolean {
  const keys = Object.keys(d);
  const only = (allowed: string[]) => keys.every((k) => COMMON.includes(k) || allowed.includes(k));
  // What an earlier attempt left: a reply or a failure (never both), and when it ended, or nothing.
  const left = 'error' in d || 'httpStatus' in d;
  const lastOk = !('error' in d && 'httpStatus' in d) && left === 'completedAt' in d;
  switch (d.state) {
    case 'pending':
      return only([...REPLY, ...FAILURE]) && lastOk;
    case 'skipped':
      return only([...REPLY, ...FAILURE, 'reason']) && typeof d.reason === 'string' && lastOk;
    case 'failed':
      return (
        only([...FAILURE, 'nextAttemptAt', 'reason']) &&
        d.error !== undefined &&
        !('nextAttemptAt' in d && 'reason' in d)
      );
    default:
      return (
        only([...REPLY, 'nextAttemptAt', 'reason']) &&
        typeof d.httpStatus === 'number' &&
        !('nextAttemptAt' in d && 'reason' in d)
      );
  }
}

describe('a delivery record by state', () => {
  it('is made pending, with no attempt; a copy names its original, a held one says so', () => {
    expect(fresh()).toEqual({
      id: 'DLV1',
      tokenIndexNumber: 'TIN123',
      tokenStatus: 'ACTIVE',
      mid: 'MID1',
      url: 'http://127.0.0.1:9/hook',
      requestId: 'NTF1',
      createdAt: 't0',
      state: 'pending',
      attempts: [],
    });
    expect(fresh({ duplicateOf: 'DLV0' }).duplicateOf).toBe('DLV0');
    expect(fresh({ reordered: true }).reordered).toBe(true);
    expect('reordered' in fresh({ reordered: false })).toBe(false);
  });

  it('an answer replaces a failure before it, and a failure an answer: no field of the other stays', () => {
    const failed = attempted(fresh(), DOWN, 'a1', 'c1');
    expect(failed).toMatchObject({
      state: 'failed',
      error: DOWN.error,
      completedAt: 'c1',
      attempts: [{ at: 'a1', state: 'failed', error: DOWN.error }],
    });
    const retry = retryDue(failed, 'n1');
    expect(retry.nextAttemptAt).toBe('n1');
    const going = goingOut(retry);
    expect(going).toMatchObject({ state: 'pending', error: DOWN.error, completedAt: 'c1' });
    expect('nextAttemptAt' in going).toBe(false);
    const answered = attempted(going, OK, 'a2', 'c2');
    expect('error' in answered).toBe(false);
    expect(answered).toMatchObject({ state: 'delivered', httpStatus: 200, code: '00', completedAt: 'c2' });
    expect(answered.attempts).toEqual([
      { at: 'a1', state: 'failed', error: DOWN.error },
      { at: 'a2', state: 'delivered', httpStatus: 200, code: '00' },
    ]);
    const again = attempted(goingOut(answered), DOWN, 'a3', 'c3');
    for (const key of ['httpStatus', 'code', 'outcome', 'valid', 'issues', 'reply']) expect(key in again).toBe(false);
    // A reply without a code has none, in the record and in its attempt.
    const noCode = attempted(fresh(), NO_CODE, 'a1', 'c1');
    expect('code' in noCode).toBe(false);
    expect(noCode.attempts).toEqual([{ at: 'a1', state: 'invalid-reply', httpStatus: 502 }]);
  });

  it('ends with a reason in place of its next attempt; skipped keeps what an earlier attempt left', () => {
    const waiting = retryDue(attempted(fresh(), REFUSED, 'a1', 'c1'), 'n1');
    const over = ended(waiting, 'No further attempt.');
    expect(over).toMatchObject({ state: 'not-accepted', reason: 'No further attempt.' });
    expect('nextAttemptAt' in over).toBe(false);
    const notSent = skipped(goingOut(waiting), 'No URL.');
    expect(notSent).toMatchObject({ state: 'skipped', reason: 'No URL.', code: '500', completedAt: 'c1' });
    expect(isAttempted(notSent)).toBe(false);
    expect(isAttempted(over)).toBe(true);
    expect(attemptLine(over)).toMatch(/^webhook ACTIVE \S+ attempt 1 -> not-accepted \(500\)$/);
    expect(attemptLine(over)).not.toContain('TIN123');
  });

  it('show writes the next record over the shown one: the same object, only the fields of the next, new ones last', () => {
    const shown: WebhookDelivery = fresh();
    show(shown, retryDue(attempted(shown, DOWN, 'a1', 'c1'), 'n1'));
    show(shown, goingOut(shown));
    const held = shown;
    show(shown, attempted(shown, OK, 'a2', 'c2'));
    expect(held).toBe(shown);
    expect(Object.keys(shown)).toEqual([
      ...['id', 'tokenIndexNumber', 'tokenStatus', 'mid', 'url', 'requestId', 'createdAt', 'state', 'attempts'],
      ...['completedAt', 'httpStatus', 'code', 'outcome', 'valid', 'issues', 'reply'],
    ]);
  });

  it('every sequence of transitions leaves the shown record equal to the last one made, with the fields of its state', () => {
    const outcome = fc.constantFrom(OK, REFUSED, NO_CODE, DOWN);
    type Move =
      | { kind: 'attempt'; outcome: AttemptOutcome }
      | { kind: 'retry' }
      | { kind: 'end' }
      | { kind: 'skip' }
      | { kind: 'go' };
    const move: fc.Arbitrary<Move> = fc.oneof(
      fc.record({ kind: fc.constant('attempt' as const), outcome }),
      fc.constantFrom<Move>({ kind: 'retry' }, { kind: 'end' }, { kind: 'skip' }, { kind: 'go' }),
    );
    fc.assert(
      fc.property(fc.boolean(), fc.array(move, { maxLength: 30 }), (reordered, moves) => {
        const shown: WebhookDelivery = fresh({ reordered });
        let last: WebhookDelivery = fresh({ reordered });
        for (const [i, m] of moves.entries()) {
          if (m.kind === 'attempt') last = attempted(shown, m.outcome, `a${i}`, `c${i}`);
          else if (m.kind === 'go') last = goingOut(shown);
          else if (m.kind === 'skip') last = skipped(shown, `s${i}`);
          else if (!isAttempted(shown)) continue;
          else last = m.kind === 'retry' ? retryDue(shown, `n${i}`) : ended(shown, `r${i}`);
          show(shown, last);
          expect(shown).toStrictEqual(last);
          expect(JSON.stringify(shown).length).toBe(JSON.stringify(last).length);
          expect(keepsItsState(shown)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
