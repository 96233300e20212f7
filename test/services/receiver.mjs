// One instance of a merchant's webhook endpoint, as test/webhookFleet.process.test.ts starts four of them:
// the package's receiver on node:http with a replay store shared through Redis or PostgreSQL,
// loaded by the package's name. Prints `port <n>` once listening, and `handled <requestId>` (or
// `failed <requestId>`) each time its handler runs. Usage:
//   node test/services/receiver.mjs redis|postgres <url> <key> ok|fail-first <marker dir> <table or prefix>
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { createChecksumVerifier } from 'gateway-contract/signing';
import { createWebhookReceiver } from 'gateway-contract/webhook';
import { createPostgresReplayStore } from 'gateway-contract/webhook/postgres';
import { createRedisReplayStore } from 'gateway-contract/webhook/redis';
import pg from 'pg';
import { createClient } from 'redis';

const [engine, url, key, mode, markers, name] = process.argv.slice(2);

/** @returns {Promise<import('gateway-contract/webhook').ReplayStore>} */
async function openStore() {
  if (engine === 'redis') {
    // No offline queue: while Redis is down a claim fails at once (and the receiver answers 500).
    const client = createClient({ url, disableOfflineQueue: true, socket: { reconnectStrategy: () => 50, connectTimeout: 1_000 } });
    client.on('error', () => undefined);
    await client.connect();
    return createRedisReplayStore({ client, prefix: name });
  }
  const pool = new pg.Pool({ connectionString: url, max: 8, connectionTimeoutMillis: 1_000 });
  pool.on('error', () => undefined);
  return createPostgresReplayStore({ client: pool, table: name });
}

const store = await openStore();
const receiver = createWebhookReceiver({ verifier: createChecksumVerifier(String(key)), store });

/** @param {import('gateway-contract/webhook').TokenStatusEvent} event */
function handle(event) {
  const id = event.head.requestId;
  if (mode === 'fail-first') {
    // The first run of each notification, in whichever instance, fails: the marker is created
    // atomically by exactly one of them.
    let first = false;
    try {
      closeSync(openSync(join(String(markers), id), 'wx'));
      first = true;
    } catch {
      // already there: this is a later run
    }
    if (first) {
      process.stdout.write(`failed ${id}\n`);
      throw new Error('the merchant database is down');
    }
  }
  process.stdout.write(`handled ${id}\n`);
}

const server = createServer(receiver.nodeHandler(handle));
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`port ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => process.exit(0));
