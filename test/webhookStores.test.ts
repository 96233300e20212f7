// The replay stores against the store test kit (gateway-contract/webhook/store-test-kit), loaded as a
// merchant loads them: the memory store always, Redis (node-redis and ioredis) and PostgreSQL (pg)
// on the real servers of test/services/run.sh. What they hold: digests and owners, never a
// signature or a body. The four receivers sharing one store are test/webhookFleet.process.test.ts.
import { readFileSync } from 'node:fs';
import { createChecksumVerifier } from 'gateway-contract';
import { createMemoryReplayStore, createWebhookReceiver, type ReplayStore } from 'gateway-contract/webhook';
import { createPostgresReplayStore } from 'gateway-contract/webhook/postgres';
import { createRedisReplayStore } from 'gateway-contract/webhook/redis';
import { replayStoreCases } from 'gateway-contract/webhook/store-test-kit';
import { Redis as IoRedis } from 'ioredis';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSignatureSync } from '../src/signing/checksumNode.js';
import { testService } from './helpers/services.js';

const KEY = 'k3yK3yk3yK3yk3yK';
const doc = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8'));
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
    expect(cases.map((c) => c.name)).toHaveLength(5);
  });

  it('fails a store that breaks each rule, saying how', async () => {
    const memory = createMemoryReplayStore();
    const broken: Record<string, ReplayStore> = {
      'claimed once': { claim: () => true, release: () => undefined },
      concurrent: {
        claim: async (key, ttl, owner) => {
          const held = memory.claim(`probe:${key}`, ttl, owner);
          await new Promise((resolve) => setTimeout(resolve, 1));
          return held || Math.random() < 2; // every claim wins
        },
        release: () => undefined,
      },
      'never expires': { claim: (key, _ttl, owner) => memory.claim(`never:${key}`, 60 * 60 * 1000, owner), release: () => undefined },
      'release ignored': { claim: (key, ttl, owner) => memory.claim(`ignored:${key}`, ttl, owner), release: () => undefined },
    };
    const failures = async (store: ReplayStore, failing?: ReplayStore) => {
      const out: string[] = [];
      for (const c of replayStoreCases({ store: () => store, expiryMs: 50, ...(failing ? { failingStore: () => failing } : {}), failureWaitMs: 100 })) {
        await c.run().catch((error: Error) => out.push(`${c.name}: ${error.message}`));
      }
      return out;
    };
    expect((await failures(broken['claimed once'] as ReplayStore)).join('\n')).toMatch(/second claim of a held key/);
    expect((await failures(broken.concurrent as ReplayStore)).join('\n')).toMatch(/32 of 32 concurrent claims/);
    expect((await failures(broken['never expires'] as ReplayStore)).join('\n')).toMatch(/After the ttl/);
    expect((await failures(broken['release ignored'] as ReplayStore)).join('\n')).toMatch(/after the owner's release must resolve true/);
    // A store that answers false when it cannot reach its backend fails the failure case.
    const liar = { claim: () => false, release: () => undefined };
    expect((await failures(createMemoryReplayStore(), liar)).join('\n')).toMatch(/must reject; it resolved false/);
    expect(await failures(createMemoryReplayStore(), { claim: () => Promise.reject(new Error('down')), release: () => undefined })).toEqual([]);
  });

  describe('the memory store passes it', () => {
    const store = createMemoryReplayStore();
    for (const c of replayStoreCases({ store: () => store, failingStore: () => createMemoryReplayStore({ maxEntries: 1, now: () => 0 }) })) {
      if (!c.name.startsWith('a failing store')) it(c.name, c.run);
    }
    it('a full memory store rejects its claim', async () => {
      const full = createMemoryReplayStore({ maxEntries: 1 });
      full.claim('a', 60_000, 'o');
      const [failure] = replayStoreCases({ store: () => full, failingStore: () => full, failureWaitMs: 100 }).filter((c) =>
        c.name.startsWith('a failing store'),
      );
      await failure?.run();
    });
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

  it('holds the receiver’s digests as keys and a random owner as values: never a signature or a body', async () => {
    const store = createRedisReplayStore({ client: nodeRedis, prefix: `${prefix}digests:` });
    const { signature } = await acceptOne(store, 'REDIS-DIGESTS-1');
    const keys = (await nodeRedis.keys(`${prefix}digests:*`)).sort();
    expect(keys).toEqual([
      expect.stringMatching(/^test:\d+:digests:requestId:[0-9a-f]{64}$/),
      expect.stringMatching(/^test:\d+:digests:signature:[0-9a-f]{64}$/),
    ]);
    const values = await Promise.all(keys.map((k) => nodeRedis.get(k)));
    expect(values).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/), expect.stringMatching(/^[0-9a-f]{32}$/)]);
    const ttl = await nodeRedis.pTTL(keys[0] as string);
    expect(ttl).toBeGreaterThan(23 * 60 * 60 * 1000);
    expect(JSON.stringify([keys, values])).not.toContain(signature.slice(0, 20));
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

  it('holds the receiver’s digests and a random owner in its rows: never a signature or a body', async () => {
    const digests = `${table}_digests`;
    const store = createPostgresReplayStore({ client: pool, table: digests });
    await store.createTable();
    try {
      const { signature } = await acceptOne(store, 'PG-DIGESTS-1');
      const { rows } = await pool.query(`SELECT key, owner, expires_at > now() + interval '23 hours' AS long FROM ${digests} ORDER BY key`);
      expect(rows).toEqual([
        { key: expect.stringMatching(/^requestId:[0-9a-f]{64}$/), owner: expect.stringMatching(/^[0-9a-f]{32}$/), long: true },
        { key: expect.stringMatching(/^signature:[0-9a-f]{64}$/), owner: expect.stringMatching(/^[0-9a-f]{32}$/), long: true },
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
      for (let i = 0; i < 12; i++) expect(await store.claim(`old:${i}`, 1, 'o')).toBe(true);
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
    expect(createPostgresReplayStore({ client: pool }).schemaSql).toContain('CREATE TABLE IF NOT EXISTS gateway_contract_replay (key text PRIMARY KEY');
  });
});
