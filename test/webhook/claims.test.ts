// The receiver's claims in a fleet (docs/decisions.md, D-105), in this process: several receivers over
// one memory store whose clock the test moves, and whose calls the test makes fail. A claim in progress
// is asked for again (500), never refused as a replay (406); only a handled one is. A handler that
// fails while the store is down, or that outruns its time limit, leaves a claim that lapses with its
// lease, and the next delivery is handled. A property over generated runs: none lost, none handled twice.
// The same on real servers, with processes: test/webhook/fleet.process.test.ts.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createChecksumVerifier,
  createMemoryReplayStore,
  createWebhookReceiver,
  type ReplayStore,
  type TokenStatusHandler,
  type WebhookReceiverOptions,
} from '../../src/index.js';
import { generateSignatureSync, generateSignatureWithSaltSync } from '../../src/signing/checksumNode.js';
import { leaseFor } from '../../src/webhook/receive.js';
import { STORE_CHANNEL } from '../../src/webhook/tracing.js';
import { fcParameters } from '../helpers/arbitraries.js';

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const BODY = JSON.stringify(doc.components.examples.TokenStatusActive.value.body);
const KEY = 'k3yK3yk3yK3yk3yK';
const NOW = 1_768_971_330_000;
const HANDLER_TIMEOUT_MS = 1_000;
const STORE_TIMEOUT_MS = 50;
const LEASE_MS = leaseFor(HANDLER_TIMEOUT_MS, STORE_TIMEOUT_MS);

/** A delivery as the service sends it: signed anew each time. */
function notification(requestId = 'CLAIM-1', at = NOW): string {
  const head = {
    version: 'v1',
    requestTimestamp: String(at),
    requestId,
    signature: generateSignatureSync(BODY, KEY),
    signatureType: 'CHECKSUM',
  };
  return `{"head":${JSON.stringify(head)},"body":${BODY}}`;
}

/** One memory store for the fleet, on the test's clock, whose calls fail while it is down. */
function sharedStore() {
  const clock = { t: NOW };
  const memory = createMemoryReplayStore({ now: () => clock.t });
  const down = { claim: false, complete: false, release: false };
  const unreachable = () => Promise.reject(new Error('connect ECONNREFUSED'));
  const store: ReplayStore = {
    claim: (key, leaseMs, owner) => (down.claim ? unreachable() : memory.claim(key, leaseMs, owner)),
    complete: (key, owner, windowMs) => (down.complete ? unreachable() : memory.complete(key, owner, windowMs)),
    release: (key, owner) => (down.release ? unreachable() : memory.release(key, owner)),
  };
  const setDown = (value: boolean) => Object.assign(down, { claim: value, complete: value, release: value });
  return { clock, memory, down, setDown, store };
}

type Shared = ReturnType<typeof sharedStore>;

/** An instance of the merchant's endpoint: a receiver over the shared store, through its Fetch adapter. */
function instance(shared: Shared, onEvent: TokenStatusHandler, options: Partial<WebhookReceiverOptions> = {}) {
  const receiver = createWebhookReceiver({
    verifier: createChecksumVerifier(KEY),
    store: shared.store,
    now: () => shared.clock.t,
    storeTimeoutMs: STORE_TIMEOUT_MS,
    handlerTimeoutMs: HANDLER_TIMEOUT_MS,
    ...options,
  });
  const handle = receiver.fetchHandler(onEvent);
  /** The reply's code. */
  return async (text: string): Promise<string> => {
    const response = await handle(
      new Request('https://merchant.example/hook', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      }),
    );
    return ((await response.json()) as { body: { resultInfo: { resultCode: string } } }).body.resultInfo.resultCode;
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('a claim in progress is not a replay', () => {
  it('another instance finds the notification in progress and asks for it again (500), never 406; once handled, 406', async () => {
    const shared = sharedStore();
    const ran: string[] = [];
    let started = false;
    let finish: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const a = instance(shared, async () => {
      started = true;
      await running;
      ran.push('a');
    });
    const b = instance(shared, () => void ran.push('b'));
    const first = a(notification());
    while (!started) await tick();
    expect(await b(notification())).toBe('500');
    finish();
    expect(await first).toBe('00');
    expect(await b(notification())).toBe('406');
    expect(ran).toEqual(['a']);
  });

  it('a handler that fails while the store is down: the claim lapses with its lease, and the next delivery, to another instance, is handled once', async () => {
    const shared = sharedStore();
    const ran: string[] = [];
    const a = instance(shared, () => {
      // The store goes down while the handler runs: the release after its failure cannot be made.
      shared.setDown(true);
      throw new Error('the merchant database is down');
    });
    const b = instance(shared, () => void ran.push('b'));
    expect(await a(notification())).toBe('500');
    shared.setDown(false);
    shared.down.release = true; // the owner's retries still fail
    expect(await b(notification())).toBe('500'); // in progress, not 406: the service delivers again
    shared.clock.t += LEASE_MS;
    expect(await b(notification())).toBe('00');
    expect(await a(notification())).toBe('406');
    expect(ran).toEqual(['b']);
  });

  it('a completion the store cannot take still answers 00 (the handler ran), and is tried again while the lease holds: no second run', async () => {
    const shared = sharedStore();
    let runs = 0;
    const a = instance(shared, () => {
      runs++;
      shared.down.complete = true;
    });
    const b = instance(shared, () => void runs++);
    expect(await a(notification())).toBe('00');
    // A duplicate delivery meanwhile finds it in progress, and is asked for again.
    expect(await b(notification())).toBe('500');
    shared.down.complete = false;
    await new Promise((resolve) => setTimeout(resolve, 150)); // the retry, 50 ms then 100 ms
    expect(await b(notification())).toBe('406');
    expect(runs).toBe(1);
  });

  it('a completion after the lease lapsed is refused by the store and reported (leaseLost): the reply is still 00', async () => {
    const shared = sharedStore();
    const events: unknown[] = [];
    const listener = (event: unknown) => void events.push(event);
    subscribe(STORE_CHANNEL, listener);
    try {
      const a = instance(shared, () => {
        shared.clock.t += LEASE_MS; // the handler outlives its lease on the store's clock
      });
      expect(await a(notification())).toBe('00');
      expect(events).toEqual([
        { operation: 'complete', outcome: 'leaseLost' },
        { operation: 'complete', outcome: 'leaseLost' },
      ]);
    } finally {
      unsubscribe(STORE_CHANNEL, listener);
    }
  });

  it('a handler past its time limit: 500 and its signal aborted; its claim stays in progress until it ends, then handled or released', async () => {
    for (const ending of ['succeeds', 'fails'] as const) {
      const shared = sharedStore();
      const ran: string[] = [];
      let end: (ok: boolean) => void = () => undefined;
      let aborted = false;
      const a = instance(
        shared,
        (_event, { signal }) =>
          new Promise<void>((resolve, reject) => {
            signal.addEventListener('abort', () => {
              aborted = true;
            });
            end = (ok) => (ok ? resolve() : reject(new Error('gave up')));
          }).then(() => void ran.push('a')),
        { handlerTimeoutMs: 30 },
      );
      const b = instance(shared, () => void ran.push('b'));
      expect(await a(notification())).toBe('500');
      expect(aborted).toBe(true);
      expect(await b(notification())).toBe('500');
      end(ending === 'succeeds');
      await tick();
      if (ending === 'succeeds') {
        expect(await b(notification())).toBe('406');
        expect(ran).toEqual(['a']);
      } else {
        expect(await b(notification())).toBe('00');
        expect(ran).toEqual(['b']);
      }
    }
  });
});

describe('a notification refused by every instance on its first delivery', () => {
  it('is one whose body and salt equal those of a handled one: the same signature, a replay under a new requestId (D-35), whatever the store', async () => {
    // The service signs the body alone with a four-character salt (16.7 million): two notifications of
    // byte-identical bodies carry the same signature once in 16.7 million deliveries. A run of 1 000
    // notifications of one body, delivered again and again, meets that often enough to see.
    const shared = sharedStore();
    const fleet = [0, 1, 2, 3].map(() => instance(shared, () => undefined));
    const withSalt = (requestId: string, body: string, salt: string) => {
      const head = {
        version: 'v1',
        requestTimestamp: String(NOW),
        requestId,
        signature: generateSignatureWithSaltSync(body, KEY, salt),
        signatureType: 'CHECKSUM',
      };
      return `{"head":${JSON.stringify(head)},"body":${body}}`;
    };
    expect(await (fleet[0] as (text: string) => Promise<string>)(withSalt('SAME-BODY-1', BODY, 'a1B2'))).toBe('00');
    const next = withSalt('SAME-BODY-2', BODY, 'a1B2');
    expect(await Promise.all(fleet.map((deliver) => deliver(next)))).toEqual(['406', '406', '406', '406']);
    // A body of its own (another token) under the same salt is another signature: handled.
    const body = JSON.parse(BODY);
    body.tokenInfo.tokenIndexNumber = 'TIN7Q2ZB0K4XK2';
    expect(
      await (fleet[1] as (text: string) => Promise<string>)(withSalt('OTHER-BODY-1', JSON.stringify(body), 'a1B2')),
    ).toBe('00');
  });
});

/** What the generated runs do: deliver to an instance (its handler succeeding or failing, the store failing while it runs), move the clock, bring the store back. */
type Step =
  | { kind: 'deliver'; to: number; handler: 'ok' | 'fail'; outage: 'none' | 'during-handler' | 'all' }
  | { kind: 'advance'; ms: number }
  | { kind: 'recover' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('deliver' as const),
      to: fc.nat({ max: 2 }),
      handler: fc.constantFrom('ok', 'fail'),
      outage: fc.constantFrom('none', 'during-handler', 'all'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 2 * LEASE_MS }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('recover' as const) }) },
);

describe('exactly once, over generated runs of a service that stops at the first 00 or 406', () => {
  it('none lost, none handled twice: three instances, handler failures, store outages, leases lapsing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 14 }), async (steps) => {
        const shared = sharedStore();
        let handled = 0;
        let plan: { handler: 'ok' | 'fail'; outage: boolean } = { handler: 'ok', outage: false };
        const onEvent = () => {
          if (plan.outage) shared.setDown(true);
          if (plan.handler === 'fail') throw new Error('the merchant database is down');
          handled++;
        };
        const fleet = [0, 1, 2].map(() => instance(shared, onEvent));
        let answered: string | undefined;
        for (const s of steps) {
          if (answered === '00' || answered === '406') break; // the service stops
          if (s.kind === 'advance') shared.clock.t += s.ms;
          else if (s.kind === 'recover') shared.setDown(false);
          else {
            if (s.outage === 'all') shared.setDown(true);
            plan = { handler: s.handler, outage: s.outage === 'during-handler' };
            answered = await (fleet[s.to] as (text: string) => Promise<string>)(notification('GEN-1', shared.clock.t));
            expect(handled).toBeLessThanOrEqual(1);
          }
        }
        // The store comes back and the service goes on delivering, past the lease each time, until 00 or 406.
        shared.setDown(false);
        plan = { handler: 'ok', outage: false };
        for (let round = 0; round < 3 && answered !== '00' && answered !== '406'; round++) {
          shared.clock.t += LEASE_MS;
          answered = await (fleet[round] as (text: string) => Promise<string>)(notification('GEN-1', shared.clock.t));
        }
        expect(['00', '406']).toContain(answered);
        expect(handled).toBe(1);
      }),
      fcParameters(60),
    );
  });
});
