// `gateway-contract/webhook/store-test-kit`: the conformance cases of a replay store, for any test
// runner (docs/decisions.md, D-98, D-105): the two states of a claim, in progress and handled, and
// the moves between them. Each case is a name and an async function that throws an Error
// saying what the store did wrong. The package's own stores pass them (test/webhook/stores.test.ts);
// a merchant runs them against a store of their own:
//
//   for (const c of replayStoreCases({ store: () => myStore })) test(c.name, c.run);
import { toHex, webCrypto } from '../encoding/bytes.js';
import type { ClaimOutcome, ReplayStore } from './replayStore.js';

export interface ReplayStoreCase {
  name: string;
  /** Resolves when the store behaves; rejects with an Error that says how it does not. */
  run(): Promise<void>;
}

export interface ReplayStoreCasesOptions {
  /**
   * A store to test. Called more than once: for a shared store (Redis, PostgreSQL, yours) give a new
   * store object over the same backend each time, as two instances of a receiver would have.
   */
  store: () => ReplayStore | Promise<ReplayStore>;
  /**
   * A store whose backend is unreachable or failing (e.g. a client of a closed port). Its claim and
   * its completion must reject, or not settle: never answer. Without it, the failure case is left out.
   */
  failingStore?: (() => ReplayStore | Promise<ReplayStore>) | undefined;
  /** The short lease and window of the expiry cases (default 300 ms); each case waits a little over it. */
  expiryMs?: number | undefined;
  /** How many claims of one key race in the concurrency case (default 32). */
  concurrency?: number | undefined;
  /** How long the failure case waits for the failing store's claim to reject (default 2 000 ms). */
  failureWaitMs?: number | undefined;
}

const HOUR = 60 * 60 * 1000;
const OUTCOMES: readonly unknown[] = ['claimed', 'in-progress', 'handled'] satisfies ClaimOutcome[];

function fail(message: string): never {
  throw new Error(message);
}

const random = () => toHex(webCrypto().getRandomValues(new Uint8Array(8)));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls of a store that check the type of each answer. */
function checked(s: ReplayStore) {
  return {
    async claim(key: string, leaseMs: number, owner: string, what: string): Promise<ClaimOutcome> {
      const outcome = await s.claim(key, leaseMs, owner);
      if (!OUTCOMES.includes(outcome))
        fail(`${what}: claim must resolve 'claimed', 'in-progress' or 'handled', it resolved ${typeof outcome}.`);
      return outcome;
    },
    async complete(key: string, owner: string, windowMs: number, what: string): Promise<boolean> {
      const done = await s.complete(key, owner, windowMs);
      if (typeof done !== 'boolean') fail(`${what}: complete must resolve true or false, it resolved ${typeof done}.`);
      return done;
    },
    release: (key: string, owner: string) => s.release(key, owner),
  };
}

function expect(actual: unknown, expected: unknown, message: string): void {
  if (actual !== expected) fail(`${message} (it answered ${String(actual)}).`);
}

/** The conformance cases, each with its own keys (unique to this call: a persistent store may keep those of an earlier run). */
export function replayStoreCases(options: ReplayStoreCasesOptions): ReplayStoreCase[] {
  const {
    store,
    failingStore,
    expiryMs = 300,
    concurrency = 32,
    failureWaitMs = 2_000,
  } = options ?? ({} as Partial<ReplayStoreCasesOptions>);
  if (typeof store !== 'function')
    throw new TypeError('replayStoreCases needs `store`: a function that returns the store to test.');
  const run = random();
  const key = (name: string) => `kit:${run}:${name}`;
  const owner = (name: string) => `${name}-${random()}`;
  const open = async () => checked(await store());
  const lapse = () => sleep(expiryMs + Math.max(50, expiryMs / 2));

  const kit: CaseKit = { open, key, owner, lapse, concurrency, expiryMs };
  const cases: ReplayStoreCase[] = [...claimCases(kit), ...settleCases(kit)];
  if (failingStore) cases.push(failingCase(failingStore, key, owner, failureWaitMs));
  return cases;
}

/** What the cases share: a store to open, keys and owners unique to the run, a wait past the lease. */
interface CaseKit {
  open: () => Promise<ReturnType<typeof checked>>;
  key: (name: string) => string;
  owner: (name: string) => string;
  lapse: () => Promise<unknown>;
  concurrency: number;
  expiryMs: number;
}

/** The cases of claiming: once, concurrently, after a lease, and releases. */
function claimCases({ open, key, owner, lapse, concurrency, expiryMs }: CaseKit): ReplayStoreCase[] {
  return [
    {
      name: 'a key is claimed once: a second claim, by any owner, finds it in progress',
      async run() {
        const s = await open();
        const k = key('once');
        const [a, b] = [owner('a'), owner('b')];
        expect(
          await s.claim(k, HOUR, a, 'first claim'),
          'claimed',
          "The first claim of a new key must resolve 'claimed'",
        );
        expect(
          await s.claim(k, HOUR, b, 'second claim'),
          'in-progress',
          "A second claim of a key in progress (another owner) must resolve 'in-progress'",
        );
        expect(
          await s.claim(k, HOUR, a, 'same owner again'),
          'in-progress',
          "A second claim of a key in progress (same owner) must resolve 'in-progress'",
        );
        expect(
          await s.claim(key('once-other'), HOUR, b, 'other key'),
          'claimed',
          "A claim of another key must resolve 'claimed': keys are independent",
        );
      },
    },
    {
      name: 'of concurrent claims of one key, from several store objects, exactly one claims it',
      async run() {
        const stores = await Promise.all([open(), open()]);
        const k = key('race');
        const results = await Promise.all(
          Array.from({ length: concurrency }, (_, i) =>
            (stores[i % stores.length] as ReturnType<typeof checked>).claim(
              k,
              HOUR,
              owner(`r${i}`),
              'concurrent claim',
            ),
          ),
        );
        const won = results.filter((r) => r === 'claimed').length;
        if (won !== 1)
          fail(`${won} of ${concurrency} concurrent claims of one key resolved 'claimed'; exactly one must.`);
        if (results.some((r) => r === 'handled'))
          fail("A concurrent claim resolved 'handled' though nobody completed the key.");
      },
    },
    {
      name: 'a claim in progress lapses after its lease, and the key can be claimed again (once)',
      async run() {
        const s = await open();
        const k = key('lease');
        expect(
          await s.claim(k, expiryMs, owner('a'), 'short claim'),
          'claimed',
          "The first claim of a new key must resolve 'claimed'",
        );
        expect(
          await s.claim(k, HOUR, owner('b'), 'claim within the lease'),
          'in-progress',
          `A claim within the lease (${expiryMs} ms) must resolve 'in-progress'`,
        );
        await lapse();
        const again = await Promise.all([
          s.claim(k, HOUR, owner('c'), 'claim after the lease'),
          s.claim(k, HOUR, owner('d'), 'claim after the lease'),
        ]);
        if (again.filter((r) => r === 'claimed').length !== 1)
          fail("After the lease, exactly one of two concurrent claims of the key must resolve 'claimed'.");
      },
    },
    {
      name: 'a completion by its owner makes the key handled, for every owner; a retry of it is answered true',
      async run() {
        const [s, t] = await Promise.all([open(), open()]);
        const k = key('complete');
        const a = owner('a');
        expect(
          await s.claim(k, HOUR, a, 'first claim'),
          'claimed',
          "The first claim of a new key must resolve 'claimed'",
        );
        expect(
          await s.complete(k, a, HOUR, 'completion'),
          true,
          'A completion by the owner within its lease must resolve true',
        );
        expect(
          await t.claim(k, HOUR, owner('b'), 'claim of a handled key'),
          'handled',
          "A claim of a completed key must resolve 'handled'",
        );
        expect(
          await s.claim(k, HOUR, a, 'claim by its owner'),
          'handled',
          "A claim of a completed key, by its owner, must resolve 'handled'",
        );
        expect(
          await s.complete(k, a, HOUR, 'completion again'),
          true,
          'A second completion by the owner (a retry after a lost answer) must resolve true',
        );
        expect(
          await t.complete(k, owner('c'), HOUR, 'completion by another'),
          false,
          'A completion by another owner must resolve false',
        );
        await t.release(k, a);
        expect(
          await t.claim(k, HOUR, owner('d'), 'claim after a release'),
          'handled',
          'A release must not remove a handled key, even by its owner',
        );
      },
    },
  ];
}

/** The cases of settling a claim: completions and releases by the wrong owner, late or of keys not held. */
function settleCases({ open, key, owner, lapse, expiryMs }: CaseKit): ReplayStoreCase[] {
  return [
    {
      name: 'a completion by another owner, after the lease, or of a key not held, changes nothing and answers false',
      async run() {
        const s = await open();
        const k = key('complete-lapsed');
        const [a, b] = [owner('a'), owner('b')];
        expect(
          await s.claim(k, expiryMs, a, 'short claim'),
          'claimed',
          "The first claim of a new key must resolve 'claimed'",
        );
        expect(
          await s.complete(k, b, HOUR, 'completion by another'),
          false,
          'A completion by another owner must resolve false',
        );
        expect(
          await s.claim(k, HOUR, b, 'claim after it'),
          'in-progress',
          'A completion by another owner must leave the key in progress',
        );
        await lapse();
        expect(
          await s.complete(k, a, HOUR, 'completion after the lease'),
          false,
          'A completion after the lease must resolve false',
        );
        expect(
          await s.claim(k, HOUR, b, 'claim after the lease'),
          'claimed',
          'A completion after the lease must not hold the key',
        );
        expect(
          await s.complete(k, a, HOUR, 'completion of a key another holds'),
          false,
          'A completion by the earlier owner of a key claimed again must resolve false',
        );
        expect(
          await s.complete(k, b, HOUR, 'completion by the new owner'),
          true,
          'The new owner must still complete it',
        );
        expect(
          await s.complete(key('never-claimed'), a, HOUR, 'completion of nothing'),
          false,
          'A completion of a key not held must resolve false',
        );
        expect(
          await s.claim(key('never-claimed'), HOUR, b, 'claim after it'),
          'claimed',
          'A completion of a key not held must not hold it',
        );
      },
    },
    {
      name: 'a handled key lapses after the window, and can be claimed again',
      async run() {
        const s = await open();
        const k = key('window');
        const a = owner('a');
        expect(
          await s.claim(k, HOUR, a, 'first claim'),
          'claimed',
          "The first claim of a new key must resolve 'claimed'",
        );
        expect(
          await s.complete(k, a, expiryMs, 'completion for a short window'),
          true,
          'A completion by the owner within its lease must resolve true',
        );
        expect(
          await s.claim(k, HOUR, owner('b'), 'claim within the window'),
          'handled',
          "A claim within the window must resolve 'handled'",
        );
        await lapse();
        expect(
          await s.claim(k, HOUR, owner('c'), 'claim after the window'),
          'claimed',
          "A claim after the window must resolve 'claimed'",
        );
      },
    },
    {
      name: 'a release by its owner frees a key in progress for the next claim',
      async run() {
        const [s, t] = await Promise.all([open(), open()]);
        const k = key('release');
        const a = owner('a');
        expect(
          await s.claim(k, HOUR, a, 'first claim'),
          'claimed',
          "The first claim of a new key must resolve 'claimed'",
        );
        await s.release(k, a);
        expect(
          await t.claim(k, HOUR, owner('b'), 'claim after release'),
          'claimed',
          "A claim after the owner's release must resolve 'claimed'",
        );
        expect(
          await s.complete(k, a, HOUR, 'completion after release'),
          false,
          'A completion by an owner who released the key must resolve false',
        );
      },
    },
    {
      name: 'a release by another owner, or of a key not held, changes nothing',
      async run() {
        const s = await open();
        const k = key('foreign');
        expect(
          await s.claim(k, HOUR, owner('a'), 'first claim'),
          'claimed',
          "The first claim of a new key must resolve 'claimed'",
        );
        await s.release(k, owner('b'));
        expect(
          await s.claim(k, HOUR, owner('c'), 'claim after a foreign release'),
          'in-progress',
          'A release by another owner must leave the claim in progress',
        );
        await s.release(key('never-claimed-2'), owner('d'));
        expect(
          await s.claim(key('never-claimed-2'), HOUR, owner('e'), 'claim after releasing nothing'),
          'claimed',
          'Releasing a key not held must not hold it',
        );
      },
    },
  ];
}

/** A failing backend: its claim and its completion reject or stay pending, never answer. */
function failingCase(
  failingStore: () => ReplayStore | Promise<ReplayStore>,
  key: (name: string) => string,
  owner: (name: string) => string,
  failureWaitMs: number,
): ReplayStoreCase {
  const settle = async (call: () => unknown) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await Promise.race([
      Promise.resolve()
        .then(call)
        .then(
          (value) => `resolved ${String(value)}`,
          () => 'rejected',
        ),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve('pending'), failureWaitMs);
      }),
    ]);
    clearTimeout(timer);
    return outcome;
  };
  return {
    name: 'a failing store rejects its claim and its completion: it never answers',
    async run() {
      const s = await failingStore();
      const a = owner('a');
      // Pending is allowed: the receiver bounds its wait (storeTimeoutMs) and answers 500.
      const claimed = await settle(() => s.claim(key('failing'), HOUR, a));
      if (claimed !== 'rejected' && claimed !== 'pending')
        fail(`A claim on a failing store must reject; it ${claimed}.`);
      const completed = await settle(() => s.complete(key('failing'), a, HOUR));
      if (completed !== 'rejected' && completed !== 'pending')
        fail(`A completion on a failing store must reject; it ${completed}.`);
    },
  };
}
