// The receiver's claim ledger on its own (src/webhook/claims.ts, storeCalls.ts, handlerRun.ts;
// docs/decisions.md, D-105): a store call bounded in time, a completion or release retried while the
// lease holds and no longer, a handler within its time limit, and a notification's claim settled by
// how its handler ended. Timers are the test's (fake), never the machine's speed.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimNotification, createClaimLedger, settleClaim } from '../../src/webhook/claims.js';
import { type HandlerEnd, runHandler } from '../../src/webhook/handlerRun.js';
import { type ClaimOutcome, createMemoryReplayStore, ReplayStoreFullError } from '../../src/webhook/replayStore.js';
import { callStore, retriesWhileLeased } from '../../src/webhook/storeCalls.js';
import { STORE_CHANNEL, type WebhookStoreEvent } from '../../src/webhook/tracing.js';
import { fcParameters } from '../helpers/arbitraries.js';

const EVENT = { head: {}, body: {} } as never;

/** The store events published while `run` runs. */
async function storeEvents(run: () => Promise<void>): Promise<WebhookStoreEvent[]> {
  const events: WebhookStoreEvent[] = [];
  const listener = (message: unknown) => void events.push(message as WebhookStoreEvent);
  subscribe(STORE_CHANNEL, listener);
  try {
    await run();
  } finally {
    unsubscribe(STORE_CHANNEL, listener);
  }
  return events;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a call of the store', () => {
  it('gives the value a store answers at once or later, and says why there is none: failed, full, timeout', async () => {
    expect((await callStore(() => 'claimed', 50)).result).toEqual({ ok: true, value: 'claimed' });
    expect((await callStore(() => Promise.resolve('handled'), 50)).result).toEqual({ ok: true, value: 'handled' });
    const thrown = new Error('connect ECONNREFUSED');
    expect(
      (
        await callStore(() => {
          throw thrown;
        }, 50)
      ).result,
    ).toEqual({ ok: false, outcome: 'failed', error: thrown });
    expect((await callStore(() => Promise.reject(thrown), 50)).result).toEqual({
      ok: false,
      outcome: 'failed',
      error: thrown,
    });
    const full = new ReplayStoreFullError('full');
    expect(
      (
        await callStore(() => {
          throw full;
        }, 50)
      ).result,
    ).toMatchObject({ ok: false, outcome: 'full' });
  });

  it('waits at most its time limit, and says when the call itself is over', async () => {
    vi.useFakeTimers();
    let answer: (value: ClaimOutcome) => void = () => undefined;
    const call = callStore(() => new Promise<ClaimOutcome>((resolve) => (answer = resolve)), 2_000);
    await vi.advanceTimersByTimeAsync(1_999);
    let done = false;
    void call.then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const { result, settled } = await call;
    expect(result).toEqual({ ok: false, outcome: 'timeout' });
    let over = false;
    void settled.then(() => (over = true));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(over).toBe(false);
    answer('claimed');
    await settled;
    expect(over).toBe(true);
  });
});

describe('retries while the lease holds', () => {
  it('try again from 50 ms, doubling up to 1 s, until the store answers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const retry = retriesWhileLeased(16_000);
    const at: number[] = [];
    const start = performance.now();
    retry('release', async () => {
      at.push(performance.now() - start);
      return at.length === 6;
    });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(at).toEqual([50, 150, 350, 750, 1_550, 2_550]);
  });

  it('give up once the lease has lapsed, saying so on the store channel, and never hold more than 10 000 at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const events = await storeEvents(async () => {
      const retry = retriesWhileLeased(3_000);
      let tries = 0;
      retry('complete', async () => {
        tries++;
        return false;
      });
      await vi.advanceTimersByTimeAsync(10_000);
      expect(tries).toBe(6); // at 50, 150, 350, 750, 1 550 and 2 550 ms; the next wait (1 s) would pass the lease
      // 10 000 waiting (their first try not yet due): the next is given up at once.
      const crowded = retriesWhileLeased(3_000);
      for (let i = 0; i < 10_000; i++) crowded('release', async () => true);
      crowded('release', async () => true);
    });
    expect(events).toEqual([
      { operation: 'complete', outcome: 'gaveUp' },
      { operation: 'release', outcome: 'gaveUp' },
    ]);
  });

  it('after a call whose outcome is unknown, try as soon as it is over; one that never ends lapses with the lease', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const retry = retriesWhileLeased(3_000);
    let over: () => void = () => undefined;
    const tries: string[] = [];
    const attempt = (name: string) => async () => {
      tries.push(name);
      return true;
    };
    retry('release', attempt('after'), new Promise<void>((resolve) => (over = resolve)));
    retry('release', attempt('never'), new Promise<void>(() => undefined));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(tries).toEqual([]);
    over();
    await vi.advanceTimersByTimeAsync(0);
    expect(tries).toEqual(['after']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(tries).toEqual(['after']);
  });
});

describe('the handler', () => {
  it('ends succeeded, or failed when it throws or rejects', async () => {
    expect(await runHandler(() => undefined, EVENT, 1_000)).toEqual({ ended: 'succeeded' });
    expect(await runHandler(async () => undefined, EVENT, 1_000)).toEqual({ ended: 'succeeded' });
    expect(
      await runHandler(
        () => {
          throw new Error('down');
        },
        EVENT,
        1_000,
      ),
    ).toEqual({ ended: 'failed' });
    expect(await runHandler(() => Promise.reject(new Error('down')), EVENT, 1_000)).toEqual({ ended: 'failed' });
  });

  it('outruns its time limit: its signal aborts, the wait ends, and how it ends later is still known', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    let finish: () => void = () => undefined;
    const run = runHandler(
      (_event, context) => {
        signal = context.signal;
        return new Promise<void>((resolve) => (finish = resolve));
      },
      EVENT,
      10_000,
    );
    await vi.advanceTimersByTimeAsync(10_000);
    const end = await run;
    expect(end.ended).toBe('timeout');
    expect(signal?.aborted).toBe(true);
    finish();
    expect(await (end as Extract<HandlerEnd, { ended: 'timeout' }>).late).toBe(true);
  });
});

describe("a notification's claim", () => {
  const head = (n: number) => ({ requestId: `REQ-${n}`, signature: Buffer.from(`signature ${n}`).toString('base64') });

  it('is settled by how its handler ended: succeeded, handled (406 after); failed, released (claimed again); late, once it ends', async () => {
    const ends = fc.constantFrom<'succeeded' | 'failed' | 'late success' | 'late failure'>(
      'succeeded',
      'failed',
      'late success',
      'late failure',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(ends, { minLength: 1, maxLength: 12 }), async (runs) => {
        const clock = { t: 1_000 };
        const store = createMemoryReplayStore({ now: () => clock.t });
        const ledger = createClaimLedger({ store, storeTimeoutMs: 50, leaseMs: 1_000, windowMs: 60_000 });
        const lateEnds: (() => void)[] = [];
        for (const [n, how] of runs.entries()) {
          const claimed = await claimNotification(ledger, head(n));
          if (!claimed.won) throw new Error(`claim ${n} not won: ${claimed.verdict}`);
          // While it is held, another delivery finds it in progress, never handled.
          expect(await claimNotification(ledger, head(n))).toEqual({ won: false, verdict: 'in-progress' });
          let end: HandlerEnd;
          if (how === 'succeeded' || how === 'failed') end = { ended: how };
          else {
            let resolve: (succeeded: boolean) => void = () => undefined;
            const late = new Promise<boolean>((settle) => (resolve = settle));
            lateEnds.push(() => resolve(how === 'late success'));
            end = { ended: 'timeout', late };
          }
          await settleClaim(ledger, claimed.claim, end);
        }
        for (const finish of lateEnds) finish();
        await new Promise((resolve) => setTimeout(resolve, 0));
        for (const [n, how] of runs.entries()) {
          const again = await claimNotification(ledger, head(n));
          if (how === 'succeeded' || how === 'late success') expect(again).toEqual({ won: false, verdict: 'handled' });
          else expect(again.won).toBe(true);
        }
      }),
      fcParameters(100),
    );
  });

  it('is claimed by the signature then the requestId, each under the same new owner; a replay by either is handled', async () => {
    const store = createMemoryReplayStore();
    const ledger = createClaimLedger({ store, storeTimeoutMs: 50, leaseMs: 1_000, windowMs: 60_000 });
    const first = await claimNotification(ledger, head(1));
    const second = await claimNotification(ledger, head(2));
    if (!first.won || !second.won) throw new Error('not won');
    expect(first.claim.keys.map((key) => key.split(':')[0])).toEqual(['signature', 'requestId']);
    expect(first.claim.owner).toMatch(/^[0-9a-f]{32}$/);
    expect(first.claim.owner).not.toBe(second.claim.owner);
    await settleClaim(ledger, first.claim, { ended: 'succeeded' });
    expect(await claimNotification(ledger, { ...head(1), requestId: 'NEW' })).toEqual({
      won: false,
      verdict: 'handled',
    });
    expect(await claimNotification(ledger, { ...head(1), signature: 'b3RoZXI=' })).toEqual({
      won: false,
      verdict: 'handled',
    });
  });
});
