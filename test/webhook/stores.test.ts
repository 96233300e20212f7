// The replay stores against the store test kit (gateway-contract/webhook/store-test-kit), loaded as a
// merchant loads them: the memory store always, Redis (node-redis and ioredis) and PostgreSQL (pg)
// on the real servers of test/services/run.sh. What they hold: digests, states and owners, never a
// signature or a body; the memory store's bytes per key. The four receivers sharing one store are
// test/webhook/fleet.process.test.ts.
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createChecksumVerifier } from 'gateway-contract';
import {
  type ClaimOutcome,
  createMemoryReplayStore,
  createWebhookReceiver,
  type ReplayStore,
} from 'gateway-contract/webhook';
import { createPostgresReplayStore } from 'gateway-contract/webhook/postgres';
import { createRedisReplayStore } from 'gateway-contract/webhook/redis';
import { replayStoreCases } from 'gateway-contract/webhook/store-test-kit';
import { Redis as IoRedis } from 'ioredis';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSignatureSync } from '../../src/signing/checksumNode.js';
import { newOwner, replayKeys } from '../../src/webhook/claims.js';
import { testService } from '../helpers/services.js';

const KEY = 'k3yK3yk3yK3yk3yK';
const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const BODY = JSON.stringify(doc.components.examples.TokenStatusActive.value.body);

/** A signed notification, as the service sends it. */
function notification(requestId: string) {
  const signature = generateSignatureSync(BODY, KEY);
  const head = { version: 'v1', requestTimestamp: String(Date.now()), requestId, signature, signatureType: 'CHECKSUM' };
  return { text: `{"head":${JSON.stringify(head)},"body":${BODY}}`, signature };
}

describe('the store test kit', () => {
  it('refuses to run without a store, and gives each case a name and a function', () => {
    expect(() => replayStoreCases({} as never)).toThrow(/needs `store`/);
    const cases = replayStoreCases({ store: () => createMemoryReplayStore() });
    expect(cases.map((c) => c.name)).toHaveLength(8);
  });

  it('fails a store that breaks each rule, saying how', async () => {
    const memory = createMemoryReplayStore();
    const over = (prefix: string, changes: Partial<ReplayStore> = {}): ReplayStore => ({
      claim: (key, lease, owner) => memory.claim(`${prefix}:${key}`, lease, owner),
      complete: (key, owner, window) => memory.complete(`${prefix}:${key}`, owner, window),
      release: (key, owner) => memory.release(`${prefix}:${key}`, owner),
      ...changes,
    });
    const broken: Record<string, ReplayStore> = {
      'claimed once': over('once', { claim: () => 'claimed' }),
      // The earlier shape: a claim answering true or false.
      boolean: over('boolean', {
        claim: (key, lease, owner) =>
          (memory.claim(`boolean:${key}`, lease, owner) === 'claimed') as unknown as ClaimOutcome,
      }),
      concurrent: over('concurrent', {
        claim: async (key, lease, owner) => {
          memory.claim(`concurrent:${key}`, lease, owner);
          await new Promise((resolve) => setTimeout(resolve, 1));
          return 'claimed' as const; // every claim wins
        },
      }),
      'never expires': over('never', {
        claim: (key, _lease, owner) => memory.claim(`never:${key}`, 60 * 60 * 1000, owner),
      }),
      'handled is in progress': over('handled', {
        claim: (key, lease, owner) => {
          const outcome = memory.claim(`handled:${key}`, lease, owner);
          return outcome === 'handled' ? 'in-progress' : outcome;
        },
      }),
      'completes after the lease': over('lapsed', {
        complete: (key, owner, window) => {
          memory.release(`lapsed:${key}`, owner);
          memory.claim(`lapsed:${key}`, 60 * 60 * 1000, owner);
          return memory.complete(`lapsed:${key}`, owner, window);
        },
      }),
      'release ignored': over('ignored', { release: () => undefined }),
      // Deletes whatever holds the key, handled too: the key starts a new life in the memory store.
      'release removes handled': (() => {
        const lives = new Map<string, number>();
        const at = (key: string) => `removes:${lives.get(key) ?? 0}:${key}`;
        return {
          claim: (key: string, lease: number, owner: string) => memory.claim(at(key), lease, owner),
          complete: (key: string, owner: string, window: number) => memory.complete(at(key), owner, window),
          release: (key: string) => void lives.set(key, (lives.get(key) ?? 0) + 1),
        };
      })(),
    };
    const failures = async (store: ReplayStore, failing?: ReplayStore) => {
      const out: string[] = [];
      for (const c of replayStoreCases({
        store: () => store,
        expiryMs: 50,
        ...(failing ? { failingStore: () => failing } : {}),
        failureWaitMs: 100,
      })) {
        await c.run().catch((error: Error) => out.push(`${c.name}: ${error.message}`));
      }
      return out.join('\n');
    };
    expect(await failures(broken['claimed once'] as ReplayStore)).toMatch(/second claim of a key in progress/);
    expect(await failures(broken.boolean as ReplayStore)).toMatch(
      /claim must resolve 'claimed', 'in-progress' or 'handled', it resolved boolean/,
    );
    expect(await failures(broken.concurrent as ReplayStore)).toMatch(/32 of 32 concurrent claims/);
    expect(await failures(broken['never expires'] as ReplayStore)).toMatch(/After the lease/);
    expect(await failures(broken['handled is in progress'] as ReplayStore)).toMatch(
      /claim of a completed key must resolve 'handled'/,
    );
    expect(await failures(broken['completes after the lease'] as ReplayStore)).toMatch(
      /completion after the lease must resolve false/,
    );
    expect(await failures(broken['release ignored'] as ReplayStore)).toMatch(
      /after the owner's release must resolve 'claimed'/,
    );
    expect(await failures(broken['release removes handled'] as ReplayStore)).toMatch(/must not remove a handled key/);
    // A store that answers when it cannot reach its backend fails the failure case.
    const liar = over('liar', { claim: () => 'in-progress', complete: () => false });
    expect(await failures(createMemoryReplayStore(), liar)).toMatch(/must reject; it resolved in-progress/);
    const down = () => Promise.reject(new Error('down'));
    expect(await failures(createMemoryReplayStore(), over('down', { claim: down, complete: () => false }))).toMatch(
      /completion on a failing store must reject; it resolved false/,
    );
    expect(await failures(createMemoryReplayStore(), over('down', { claim: down, complete: down }))).toBe('');
  });

  describe('the memory store passes it', () => {
    const store = createMemoryReplayStore();
    for (const c of replayStoreCases({
      store: () => store,
      failingStore: () => createMemoryReplayStore({ maxEntries: 1, now: () => 0 }),
    })) {
      if (!c.name.startsWith('a failing store')) it(c.name, c.run);
    }
    it('a full memory store rejects its claim', async () => {
      const full = createMemoryReplayStore({ maxEntries: 1 });
      full.claim('a', 60_000, 'o');
      await expect(async () => full.claim('b', 60_000, 'o')).rejects.toThrow(/full/);
    });
  });

  it('holds a remembered id in at most 300 bytes of heap, its key and owner included, as the receiver passes them', async () => {
    // --expose-gc for this process, so that the heap is measured without garbage.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const NOTIFICATIONS = 10_000;
    const signatures = Array.from({ length: NOTIFICATIONS }, (_, i) =>
      Buffer.from(`signature ${i}`).toString('base64'),
    );
    gc();
    const before = process.memoryUsage().heapUsed;
    const store = createMemoryReplayStore();
    for (const [i, signature] of signatures.entries()) {
      // As the receiver does: the keys built from the head, one owner per delivery, claimed then completed.
      const keys = await replayKeys({ requestId: `HEAP-${i}`, signature });
      const owner = newOwner();
      for (const key of keys) {
        expect(store.claim(key, 60_000, owner)).toBe('claimed');
        expect(store.complete(key, owner, 24 * 60 * 60 * 1000)).toBe(true);
      }
    }
    gc();
    const perKey = (process.memoryUsage().heapUsed - before) / store.size;
    expect(store.size).toBe(2 * NOTIFICATIONS);
    expect(perKey).toBeLessThanOrEqual(300);
  });
});

/** Receives one notification through a store and returns what the store holds afterwards, as text. */
async function acceptOne(store: ReplayStore, requestId: string) {
  const receiver = createWebhookReceiver({ verifier: createChecksumVerifier(KEY), store });
  const sent = notification(requestId);
  const verdict = await receiver.receive(sent.text);
  expect(verdict.accepted).toBe(true);
  // The same notification again, and its signature under a new requestId: both refused.
  expect((await receiver.receive(sent.text)).accepted).toBe(false);
  return sent;
}

const redis = testService('redis', 'Redis (SET NX PX), with node-redis and ioredis');
describe.skipIf(redis.skip)(redis.title, () => {
  let nodeRedis: ReturnType<typeof createClient>;
  let ioredis: IoRedis;
  const prefix = `test:${Date.now()}:`;
  beforeAll(async () => {
    const url = redis.require();
    nodeRedis = createClient({ url, disableOfflineQueue: true });
    nodeRedis.on('error', () => undefined);
    await nodeRedis.connect();
    ioredis = new IoRedis(url, { enableOfflineQueue: false, lazyConnect: true });
    ioredis.on('error', () => undefined);
    await ioredis.connect();
  });
  afterAll(async () => {
    nodeRedis?.destroy();
    ioredis?.disconnect();
  });

  describe('node-redis passes the kit', () => {
    for (const c of replayStoreCases({
      store: () => createRedisReplayStore({ client: nodeRedis, prefix }),
      failingStore: async () => {
        const closed = createClient({ url: redis.require(), disableOfflineQueue: true });
        closed.on('error', () => undefined);
        await closed.connect();
        closed.destroy();
        return createRedisReplayStore({ client: closed });
      },
    }))
      it(c.name, c.run);
  });

  describe('ioredis passes the kit', () => {
    for (const c of replayStoreCases({
      store: () => createRedisReplayStore({ client: ioredis, prefix: `${prefix}io:` }),
      failingStore: async () => {
        const closed = new IoRedis(redis.require(), { enableOfflineQueue: false, lazyConnect: true });
        closed.on('error', () => undefined);
        await closed.connect();
        closed.disconnect();
        return createRedisReplayStore({ client: closed });
      },
    }))
      it(c.name, c.run);
  });

  it('holds the receiver’s digests as keys and the state and a random owner as values: never a signature or a body', async () => {
    const store = createRedisReplayStore({ client: nodeRedis, prefix: `${prefix}digests:` });
    const { signature } = await acceptOne(store, 'REDIS-DIGESTS-1');
    const keys = (await nodeRedis.keys(`${prefix}digests:*`)).sort();
    expect(keys).toEqual([
      expect.stringMatching(/^test:\d+:digests:requestId:[0-9a-f]{64}$/),
      expect.stringMatching(/^test:\d+:digests:signature:[0-9a-f]{64}$/),
    ]);
    const values = await Promise.all(keys.map((k) => nodeRedis.get(k)));
    // Handled (`h:`), by the delivery's owner.
    expect(values).toEqual([expect.stringMatching(/^h:[0-9a-f]{32}$/), expect.stringMatching(/^h:[0-9a-f]{32}$/)]);
    const ttl = await nodeRedis.pTTL(keys[0] as string);
    expect(ttl).toBeGreaterThan(23 * 60 * 60 * 1000);
    expect(JSON.stringify([keys, values])).not.toContain(signature.slice(0, 20));
  });

  it('reads a key of the earlier version (its value a bare owner, a kept claim) as handled', async () => {
    const store = createRedisReplayStore({ client: nodeRedis, prefix: `${prefix}earlier:` });
    await nodeRedis.set(`${prefix}earlier:kept`, 'a'.repeat(32), { PX: 60_000 });
    expect(await store.claim('kept', 60_000, 'b')).toBe('handled');
    await store.release('kept', 'a'.repeat(32));
    expect(await store.claim('kept', 60_000, 'b')).toBe('handled');
  });

  it('refuses a client it cannot use, and a prefix too long', () => {
    expect(() => createRedisReplayStore({ client: {} as never })).toThrow(/needs a connected client/);
    expect(() => createRedisReplayStore({ client: nodeRedis, prefix: 'p'.repeat(200) })).toThrow(/prefix/);
  });
});

const postgres = testService('postgres', 'PostgreSQL (INSERT ... ON CONFLICT), with pg');
describe.skipIf(postgres.skip)(postgres.title, () => {
  let pool: pg.Pool;
  const table = `replay_test_${Date.now()}`;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: postgres.require(), max: 8 });
    pool.on('error', () => undefined);
    await createPostgresReplayStore({ client: pool, table }).createTable();
  });
  afterAll(async () => {
    await pool?.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await pool?.end();
  });

  describe('pg passes the kit', () => {
    for (const c of replayStoreCases({
      store: () => createPostgresReplayStore({ client: pool, table }),
      failingStore: async () => {
        const ended = new pg.Pool({ connectionString: postgres.require() });
        await ended.end();
        return createPostgresReplayStore({ client: ended, table });
      },
    }))
      it(c.name, c.run);
  });

  it('holds the receiver’s digests, the state and a random owner in its rows: never a signature or a body', async () => {
    const digests = `${table}_digests`;
    const store = createPostgresReplayStore({ client: pool, table: digests });
    await store.createTable();
    try {
      const { signature } = await acceptOne(store, 'PG-DIGESTS-1');
      const { rows } = await pool.query(
        `SELECT key, owner, state, expires_at > now() + interval '23 hours' AS long FROM ${digests} ORDER BY key`,
      );
      expect(rows).toEqual([
        {
          key: expect.stringMatching(/^requestId:[0-9a-f]{64}$/),
          owner: expect.stringMatching(/^[0-9a-f]{32}$/),
          state: 'handled',
          long: true,
        },
        {
          key: expect.stringMatching(/^signature:[0-9a-f]{64}$/),
          owner: expect.stringMatching(/^[0-9a-f]{32}$/),
          state: 'handled',
          long: true,
        },
      ]);
      expect(JSON.stringify(rows)).not.toContain(signature.slice(0, 20));
    } finally {
      await pool.query(`DROP TABLE ${digests}`);
    }
  });

  it('deletes expired rows in bounded batches, in the background after cleanUpEvery claims', async () => {
    const expiring = `${table}_cleanup`;
    const store = createPostgresReplayStore({ client: pool, table: expiring, cleanUpEvery: 20, cleanUpLimit: 5 });
    await store.createTable();
    try {
      for (let i = 0; i < 12; i++) expect(await store.claim(`old:${i}`, 1, 'o')).toBe('claimed');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await store.cleanUp(5)).toBe(5);
      expect(await store.cleanUp()).toBe(5);
      // The twentieth claim starts a clean-up of at most cleanUpLimit rows.
      for (let i = 0; i < 8; i++) await store.claim(`new:${i}`, 60_000, 'o');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { rows } = await pool.query(`SELECT count(*)::int AS n FROM ${expiring}`);
      expect(rows[0].n).toBe(8);
    } finally {
      await pool.query(`DROP TABLE ${expiring}`);
    }
  });

  it('refuses a table name that is not a plain identifier, and gives its schema for a migration', () => {
    expect(() => createPostgresReplayStore({ client: pool, table: 'x; DROP TABLE y' })).toThrow(/table must be/);
    expect(() => createPostgresReplayStore({ client: {} as never })).toThrow(/needs a connected client/);
    expect(createPostgresReplayStore({ client: pool }).schemaSql).toContain(
      'CREATE TABLE IF NOT EXISTS gateway_contract_replay (key text PRIMARY KEY',
    );
  });

  it('createTable() adds the state to a table of the earlier shape, whose rows were kept claims: handled', async () => {
    const earlier = `${table}_earlier`;
    await pool.query(
      `CREATE TABLE ${earlier} (key text PRIMARY KEY, owner text NOT NULL, expires_at timestamptz NOT NULL)`,
    );
    try {
      await pool.query(`INSERT INTO ${earlier} VALUES ('kept', 'o', now() + interval '1 hour')`);
      const store = createPostgresReplayStore({ client: pool, table: earlier });
      await store.createTable();
      expect(await store.claim('kept', 60_000, 'p')).toBe('handled');
      expect(await store.claim('new', 60_000, 'p')).toBe('claimed');
    } finally {
      await pool.query(`DROP TABLE ${earlier}`);
    }
  });
});
