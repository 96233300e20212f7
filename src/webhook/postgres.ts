// `gateway-contract/webhook/postgres`: the receiver's replay store on PostgreSQL, shared by every
// instance (docs/decisions.md, D-96, D-106). One row per key: its owner, its state (`in-progress` or
// `handled`) and when it lapses. A claim is one statement: insert the key in progress, or take over
// its row when that row has lapsed (`ON CONFLICT (key) DO UPDATE ... WHERE expires_at <= clock_timestamp()`),
// atomic under concurrent claims; when it took nothing, the state of the row that holds the key is
// read. A completion and a release act only on the owner's row in progress. Lapsed rows are deleted
// in bounded batches. Takes the merchant's connected `pg` Pool or Client, typed by the one method it
// calls: `pg` is not needed to compile or load this entry.
import { type ClaimOutcome, checkClaim, checkComplete, checkKey, type ReplayStore } from './replayStore.js';

/** A `pg` Pool or Client (or anything with its `query(text, values)`), connected. */
export interface PgQueryableLike {
  query(text: string, values?: unknown[]): Promise<{ rowCount: number | null; rows: unknown[] }>;
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
  const {
    client,
    table = 'gateway_contract_replay',
    cleanUpEvery = 1_000,
    cleanUpLimit = 1_000,
  } = options ?? ({} as Partial<PostgresReplayStoreOptions>);
  if (!client || typeof client.query !== 'function')
    throw new TypeError('createPostgresReplayStore needs a connected client: a Pool or Client of the `pg` package.');
  if (typeof table !== 'string' || !NAME.test(table))
    throw new TypeError(
      'table must be lower-case letters, digits and _ (schema.table allowed), at most 63 characters a part.',
    );
  if (!Number.isSafeInteger(cleanUpEvery) || cleanUpEvery < 0)
    throw new TypeError('cleanUpEvery must be a whole number, 0 or more.');
  if (!Number.isSafeInteger(cleanUpLimit) || cleanUpLimit < 1 || cleanUpLimit > 100_000)
    throw new TypeError('cleanUpLimit must be a whole number from 1 to 100 000.');
  const index = `${table.replace('.', '_')}_expires_at`.slice(0, 63);
  // The ALTER adds the state to a table of an earlier version: its rows were kept claims, handled.
  const schemaSql = `CREATE TABLE IF NOT EXISTS ${table} (key text PRIMARY KEY, owner text NOT NULL, state text NOT NULL, expires_at timestamptz NOT NULL);
ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS state text NOT NULL DEFAULT 'handled';
CREATE INDEX IF NOT EXISTS ${index} ON ${table} (expires_at);`;
  const CLAIM = `INSERT INTO ${table} AS held (key, owner, state, expires_at) VALUES ($1, $2, 'in-progress', clock_timestamp() + $3::bigint * interval '1 millisecond')
ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, state = excluded.state, expires_at = excluded.expires_at WHERE held.expires_at <= clock_timestamp()`;
  const HELD_STATE = `SELECT state FROM ${table} WHERE key = $1 AND expires_at > clock_timestamp()`;
  // Handled by this owner already: the row is left as it is (a retry after a lost answer).
  const COMPLETE = `UPDATE ${table} SET state = 'handled',
expires_at = CASE WHEN state = 'handled' THEN expires_at ELSE clock_timestamp() + $3::bigint * interval '1 millisecond' END
WHERE key = $1 AND owner = $2 AND expires_at > clock_timestamp()`;
  const RELEASE = `DELETE FROM ${table} WHERE key = $1 AND owner = $2 AND state = 'in-progress'`;
  const CLEAN_UP = `DELETE FROM ${table} WHERE key IN (SELECT key FROM ${table} WHERE expires_at <= clock_timestamp() LIMIT $1 FOR UPDATE SKIP LOCKED)`;

  let claims = 0;
  let cleaning = false;
  /**
   * Inserts or takes over the key, or reads the state of the row that holds it. A row that lapses or
   * is released between the two statements is claimed again (at most three tries).
   */
  async function claimOnce(key: string, leaseMs: number, owner: string): Promise<ClaimOutcome> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const { rowCount } = await client.query(CLAIM, [key, owner, leaseMs]);
      if (rowCount === 1) return 'claimed';
      if (rowCount !== 0) break;
      const { rows } = await client.query(HELD_STATE, [key]);
      const state = (rows[0] as { state?: unknown } | undefined)?.state;
      if (state === 'handled' || state === 'in-progress') return state;
      if (rows.length > 0) break;
    }
    throw new Error('PostgreSQL answered the claim with an unexpected row count or state.');
  }

  async function cleanUp(limit = cleanUpLimit): Promise<number> {
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100_000)
      throw new TypeError('limit must be a whole number from 1 to 100 000.');
    return (await client.query(CLEAN_UP, [limit])).rowCount ?? 0;
  }

  return {
    schemaSql,
    async createTable() {
      for (const statement of schemaSql.split(';\n')) await client.query(statement);
    },
    cleanUp,
    async claim(key, leaseMs, owner) {
      checkClaim(key, leaseMs, owner);
      const outcome = await claimOnce(key, leaseMs, owner);
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
      return outcome;
    },
    async complete(key, owner, windowMs) {
      checkComplete(key, owner, windowMs);
      const { rowCount } = await client.query(COMPLETE, [key, owner, windowMs]);
      if (rowCount === 1 || rowCount === 0) return rowCount === 1;
      throw new Error('PostgreSQL answered the completion with an unexpected row count.');
    },
    async release(key, owner) {
      checkKey(key, owner);
      await client.query(RELEASE, [key, owner]);
    },
  };
}
