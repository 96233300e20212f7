// One instance of a merchant's webhook endpoint, as test/webhook/fleet.process.test.ts starts four of them:
// the package's receiver on node:http with a replay store shared through Redis or PostgreSQL,
// loaded by the package's name. Prints `port <n>` once listening, `handled <requestId>` (or
// `failed <requestId>`) each time its handler runs, and `store <operation> <outcome>` for each
// failure of the store the receiver reports (diagnostics_channel). Usage:
//   node test/services/receiver.mjs redis|postgres <url> <key> ok|fail-first <marker dir> <table or prefix> <storeTimeoutMs> <handlerTimeoutMs>
// With fail-first, the first run of a notification whose requestId ends in `-F` fails after 300 ms (in whichever instance).
import { subscribe } from 'node:diagnostics_channel';
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { createChecksumVerifier } from 'gateway-contract/signing';
import { createWebhookReceiver } from 'gateway-contract/webhook';
import { createPostgresReplayStore } from 'gateway-contract/webhook/postgres';
import { createRedisReplayStore } from 'gateway-contract/webhook/redis';
import pg from 'pg';
import { createClient } from 'redis';

const [engine, url, key, mode, markers, name, storeTimeoutMs, handlerTimeoutMs] = process.argv.slice(2);

/** @returns {Promise<import('gateway-contract/webhook').ReplayStore>} */
async function openStore() {
  if (engine === 'redis') {
    // No offline queue: while Redis is down a claim fails at once (and the receiver answers 500).
    const client = createClient({
      url,
      disableOfflineQueue: true,
      socket: { reconnectStrategy: () => 50, connectTimeout: 1_000 },
    });
    client.on('error', () => undefined);
    await client.connect();
    return createRedisReplayStore({ client, prefix: name });
  }
  const pool = new pg.Pool({ connectionString: url, max: 8, connectionTimeoutMillis: 1_000 });
  pool.on('error', () => undefined);
  return createPostgresReplayStore({ client: pool, table: name });
}

subscribe('gateway-contract:webhook:store', (event) => {
  const { operation, outcome } = /** @type {{ operation: string, outcome: string }} */ (event);
  process.stdout.write(`store ${operation} ${outcome}\n`);
});

const store = await openStore();
const receiver = createWebhookReceiver({
  verifier: createChecksumVerifier(String(key)),
  store,
  storeTimeoutMs: Number(storeTimeoutMs),
  handlerTimeoutMs: Number(handlerTimeoutMs),
});

/**
 * Whether this is the first run of the notification, in any instance: the marker is created atomically by exactly one.
 * @param {string} id
 */
function firstRun(id) {
  try {
    closeSync(openSync(join(String(markers), id), 'wx'));
    return true;
  } catch {
    return false;
  }
}

/** @param {import('gateway-contract/webhook').TokenStatusEvent} event */
async function handle(event) {
  const id = event.head.requestId;
  if (mode === 'fail-first' && id.endsWith('-F') && firstRun(id)) {
    // Some work first, so that an outage of the store can begin while the handler runs.
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.stdout.write(`failed ${id}\n`);
    throw new Error('the merchant database is down');
  }
  process.stdout.write(`handled ${id}\n`);
}

const server = createServer(receiver.nodeHandler(handle));
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`port ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => process.exit(0));
