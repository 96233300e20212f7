// `gateway-contract/webhook/store-test-kit`: the conformance cases of a replay store, for any test
// runner (docs/decisions.md, D-98). Each case is a name and an async function that throws an Error
// saying what the store did wrong. The package's own stores pass them (test/webhookStores.test.ts);
// a merchant runs them against a store of their own:
//
//   for (const c of replayStoreCases({ store: () => myStore })) test(c.name, c.run);
import { toHex, webCrypto } from '../encoding/bytes.js';
import type { ReplayStore } from './replayStore.js';

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
   * A store whose backend is unreachable or failing (e.g. a client of a closed port). Its claim must
   * reject, or not settle: never answer true or false. Without it, the failure case is left out.
   */
  failingStore?: (() => ReplayStore | Promise<ReplayStore>) | undefined;
  /** The short ttl of the expiry case (default 300 ms); the case waits a little over it. */
  expiryMs?: number | undefined;
  /** How many claims of one key race in the concurrency case (default 32). */
  concurrency?: number | undefined;
  /** How long the failure case waits for the failing store's claim to reject (default 2 000 ms). */
  failureWaitMs?: number | undefined;
}

const HOUR = 60 * 60 * 1000;

function fail(message: string): never {
  throw new Error(message);
}

const random = () => toHex(webCrypto().getRandomValues(new Uint8Array(8)));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The conformance cases, each with its own keys (unique to this call: a persistent store may keep those of an earlier run). */
export function replayStoreCases(options: ReplayStoreCasesOptions): ReplayStoreCase[] {
  const { store, failingStore, expiryMs = 300, concurrency = 32, failureWaitMs = 2_000 } = options ?? ({} as Partial<ReplayStoreCasesOptions>);
  if (typeof store !== 'function') throw new TypeError('replayStoreCases needs `store`: a function that returns the store to test.');
  const run = random();
  const key = (name: string) => `kit:${run}:${name}`;
  const owner = (name: string) => `${name}-${random()}`;
  const claim = async (s: ReplayStore, k: string, ttlMs: number, o: string, what: string) => {
    const won = await s.claim(k, ttlMs, o);
    if (typeof won !== 'boolean') fail(`${what}: claim must resolve true or false, it resolved ${typeof won}.`);
    return won;
  };

  const cases: ReplayStoreCase[] = [
    {
      name: 'a key is claimed once: a second claim, by any owner, is refused',
      async run() {
        const s = await store();
        const k = key('once');
        const [a, b] = [owner('a'), owner('b')];
        if (!(await claim(s, k, HOUR, a, 'first claim'))) fail('The first claim of a new key must resolve true.');
        if (await claim(s, k, HOUR, b, 'second claim')) fail('A second claim of a held key (another owner) must resolve false.');
        if (await claim(s, k, HOUR, a, 'same owner again')) fail('A second claim of a held key (same owner) must resolve false.');
        if (!(await claim(s, key('once-other'), HOUR, b, 'other key'))) fail('A claim of another key must resolve true: keys are independent.');
      },
    },
    {
      name: 'of concurrent claims of one key, from several store objects, exactly one wins',
      async run() {
        const stores = await Promise.all([store(), store()]);
        const k = key('race');
        const results = await Promise.all(
          Array.from({ length: concurrency }, (_, i) => claim(stores[i % stores.length] as ReplayStore, k, HOUR, owner(`r${i}`), 'concurrent claim')),
        );
        const won = results.filter(Boolean).length;
        if (won !== 1) fail(`${won} of ${concurrency} concurrent claims of one key resolved true; exactly one must.`);
      },
    },
    {
      name: 'a claim expires after its ttl, and the key can be claimed again (once)',
      async run() {
        const s = await store();
        const k = key('expiry');
        if (!(await claim(s, k, expiryMs, owner('a'), 'short claim'))) fail('The first claim of a new key must resolve true.');
        if (await claim(s, k, HOUR, owner('b'), 'claim before expiry')) fail(`A claim within the ttl (${expiryMs} ms) must resolve false.`);
        await sleep(expiryMs + Math.max(50, expiryMs / 2));
        const again = await Promise.all([claim(s, k, HOUR, owner('c'), 'claim after expiry'), claim(s, k, HOUR, owner('d'), 'claim after expiry')]);
        if (again.filter(Boolean).length !== 1) fail('After the ttl, exactly one of two concurrent claims of the key must resolve true.');
      },
    },
    {
      name: 'a release by its owner frees the key for the next claim',
      async run() {
        const [s, t] = await Promise.all([store(), store()]);
        const k = key('release');
        const a = owner('a');
        if (!(await claim(s, k, HOUR, a, 'first claim'))) fail('The first claim of a new key must resolve true.');
        await s.release(k, a);
        if (!(await claim(t, k, HOUR, owner('b'), 'claim after release'))) fail("A claim after the owner's release must resolve true.");
      },
    },
    {
      name: 'a release by another owner, or of a key not held, changes nothing',
      async run() {
        const s = await store();
        const k = key('foreign');
        if (!(await claim(s, k, HOUR, owner('a'), 'first claim'))) fail('The first claim of a new key must resolve true.');
        await s.release(k, owner('b'));
        if (await claim(s, k, HOUR, owner('c'), 'claim after a foreign release'))
          fail('A release by another owner must leave the claim: the next claim must resolve false.');
        await s.release(key('never-claimed'), owner('d'));
        if (!(await claim(s, key('never-claimed'), HOUR, owner('e'), 'claim after releasing nothing'))) fail('Releasing a key not held must not hold it.');
      },
    },
  ];
  if (failingStore) {
    cases.push({
      name: 'a failing store rejects its claim: it never answers true or false',
      async run() {
        const s = await failingStore();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const outcome = await Promise.race([
          Promise.resolve()
            .then(() => s.claim(key('failing'), HOUR, owner('a')))
            .then(
              (value) => `resolved ${String(value)}`,
              () => 'rejected',
            ),
          new Promise<string>((resolve) => {
            timer = setTimeout(() => resolve('pending'), failureWaitMs);
          }),
        ]);
        clearTimeout(timer);
        // Pending is allowed: the receiver bounds its wait (storeTimeoutMs) and answers 500.
        if (outcome !== 'rejected' && outcome !== 'pending') fail(`A claim on a failing store must reject; it ${outcome}.`);
      },
    });
  }
  return cases;
}
