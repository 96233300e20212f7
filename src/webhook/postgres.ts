// `gateway-contract/webhook/postgres`: the receiver's replay store on PostgreSQL, shared by every
// instance (docs/decisions.md, D-96). A claim is one statement: insert the key, or take over its row when
// that row has expired (`ON CONFLICT (key) DO UPDATE ... WHERE expires_at <= clock_timestamp()`),
// atomic under concurrent claims; a release deletes the row only when the owner still holds it.
// Expired rows are deleted in bounded batches. Takes the merchant's connected `pg` Pool or Client,
// typed by the one method it calls: `pg` is not needed to compile or load this entry.
import { checkClaim, checkKey, type ReplayStore } from './replayStore.js';

/** A `pg` Pool or Client (or anything with its `query(text, values)`), connected. */
export interface PgQueryableLike {
  query(text: string, values?: unknown[]): Promise<{ rowCount: number | null }>;
}

export interface PostgresReplayStoreOptions {
  client: PgQueryableLike;
  /** The table (default `gateway_contract_replay`; `schema.table` allowed): lower-case letters, digits and `_`. */
  table?: string | undefined;
  /** After this many claims, expired rows are deleted in the background (default 1 000; 0: never, call cleanUp()). */
  cleanUpEvery?: number | undefined;
  /** At most this many rows deleted by one clean-up (default 1 000). */
  cleanUpLimit?: number | undefined;
}

export interface PostgresReplayStore extends ReplayStore {
  /** The SQL that creates the table and its index (for a migration). */
  readonly schemaSql: string;
  /** Creates the table and its index if they do not exist (run once, before the receivers start). */
  createTable(): Promise<void>;
  /** Deletes at most `limit` expired rows; resolves how many it deleted. */
  cleanUp(limit?: number): Promise<number>;
}

const NAME = /^[a-z_][a-z0-9_]{0,62}(?:\.[a-z_][a-z0-9_]{0,62})?$/;

export function createPostgresReplayStore(options: PostgresReplayStoreOptions): PostgresReplayStore {
  const { client, table = 'gateway_contract_replay', cleanUpEvery = 1_000, cleanUpLimit = 1_000 } = options ?? ({} as Partial<PostgresReplayStoreOptions>);
  if (!client || typeof client.query !== 'function')
    throw new TypeError('createPostgresReplayStore needs a connected client: a Pool or Client of the `pg` package.');
  if (typeof table !== 'string' || !NAME.test(table))
    throw new TypeError('table must be lower-case letters, digits and _ (schema.table allowed), at most 63 characters a part.');
  if (!Number.isSafeInteger(cleanUpEvery) || cleanUpEvery < 0) throw new TypeError('cleanUpEvery must be a whole number, 0 or more.');
  if (!Number.isSafeInteger(cleanUpLimit) || cleanUpLimit < 1 || cleanUpLimit > 100_000)
    throw new TypeError('cleanUpLimit must be a whole number from 1 to 100 000.');
  const index = `${table.replace('.', '_')}_expires_at`.slice(0, 63);
  const schemaSql = `CREATE TABLE IF NOT EXISTS ${table} (key text PRIMARY KEY, owner text NOT NULL, expires_at timestamptz NOT NULL);
CREATE INDEX IF NOT EXISTS ${index} ON ${table} (expires_at);`;
  const CLAIM = `INSERT INTO ${table} AS held (key, owner, expires_at) VALUES ($1, $2, clock_timestamp() + $3::bigint * interval '1 millisecond')
ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at WHERE held.expires_at <= clock_timestamp()`;
  const RELEASE = `DELETE FROM ${table} WHERE key = $1 AND owner = $2`;
  const CLEAN_UP = `DELETE FROM ${table} WHERE key IN (SELECT key FROM ${table} WHERE expires_at <= clock_timestamp() LIMIT $1 FOR UPDATE SKIP LOCKED)`;

  let claims = 0;
  let cleaning = false;
  async function cleanUp(limit = cleanUpLimit): Promise<number> {
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100_000) throw new TypeError('limit must be a whole number from 1 to 100 000.');
    return (await client.query(CLEAN_UP, [limit])).rowCount ?? 0;
  }

  return {
    schemaSql,
    async createTable() {
      for (const statement of schemaSql.split(';\n')) await client.query(statement);
    },
    cleanUp,
    async claim(key, ttlMs, owner) {
      checkClaim(key, ttlMs, owner);
      const { rowCount } = await client.query(CLAIM, [key, owner, ttlMs]);
      if (cleanUpEvery > 0 && ++claims >= cleanUpEvery && !cleaning) {
        claims = 0;
        cleaning = true;
        // In the background: a failed clean-up is tried again after the next cleanUpEvery claims.
        cleanUp()
          .catch(() => 0)
          .finally(() => {
            cleaning = false;
          });
      }
      if (rowCount === 1) return true;
      if (rowCount === 0) return false;
      throw new Error('PostgreSQL answered the claim with an unexpected row count.');
    },
    async release(key, owner) {
      checkKey(key, owner);
      await client.query(RELEASE, [key, owner]);
    },
  };
}
