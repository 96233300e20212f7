// Four instances of a merchant's endpoint (test/services/receiver.mjs, each a process of its own)
// share one replay store on a real Redis or PostgreSQL (test/services/run.sh). This test plays the
// service: 1 000 distinct notifications, each delivered to every instance at once, delivered again
// (newly signed, as the service does) while no instance answered 00 and one answered 500. Each
// handler runs exactly once per notification and every other delivery is answered 406; the same
// through a restart of the store's server mid-run (the deliveries during the outage are answered
// 500 and delivered again: none lost, none doubled), and with a handler that fails the first time
// (its claim is released and the next delivery accepted).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPostgresReplayStore } from 'gateway-contract/webhook/postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSignatureSync } from '../src/signing/checksumNode.js';
import { type TestService, testService } from './helpers/services.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const RECEIVER = fileURLToPath(new URL('./services/receiver.mjs', import.meta.url));
const KEY = 'k3yK3yk3yK3yk3yK';
const doc = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8'));
const BODY = JSON.stringify(doc.components.examples.TokenStatusActive.value.body);
const NOTIFICATIONS = 1_000;
const INSTANCES = 4;
/** Notifications being delivered at once. */
const CONCURRENCY = 32;
/**
 * The service's wait before it delivers again: shorter than a real service's minute, and longer than
 * a receiver takes to pay a release it owes once the store answers again (D-94), without which
 * another instance still finds the claim and answers 406.
 */
const RETRY_DELAY_MS = 2_000;
const MAX_ROUNDS = 80;
const run = Date.now().toString(36);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Instance {
  child: ChildProcess;
  port: number;
  output: Promise<string>;
}

/** Starts one receiver process; resolves once it listens. */
function startInstance(args: string[]): Promise<Instance> {
  const child = spawn(process.execPath, [RECEIVER, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  let errors = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    errors = (errors + chunk).slice(-4_000);
  });
  const output = new Promise<string>((resolve) => child.on('close', () => resolve(text)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`a receiver did not start: ${errors}`)), 15_000);
    const poll = setInterval(() => {
      const port = /^port (\d+)$/m.exec(text)?.[1];
      if (port) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve({ child, port: Number(port), output });
      }
    }, 10);
    child.on('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`a receiver exited (${code}): ${errors}`));
    });
  });
}

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Connections kept open to the instances, a bounded number each, as a service's sender keeps them. */
const agent = new Agent({ keepAlive: true, maxSockets: 32 });
afterAll(() => agent.destroy());

/** The reply's code, or `http <status>` / `error <code>` when there is no notification reply. */
function deliver(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/hook',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => {
          if (response.statusCode !== 200) return resolve(`http ${response.statusCode}`);
          try {
            resolve((JSON.parse(body) as { body?: { resultInfo?: { resultCode?: string } } }).body?.resultInfo?.resultCode ?? 'none');
          } catch {
            resolve('unreadable');
          }
        });
        response.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? error.message}`));
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? error.message}`));
    request.end(text);
  });
}

interface Outcome {
  /** Replies by code, over every delivery. */
  codes: Map<string, number>;
  /** Notifications no instance answered 00 before the service would stop. */
  lost: string[];
  /** How many times each notification's handler ran to the end, and failed. */
  handled: Map<string, number>;
  failed: Map<string, number>;
  /** Notifications answered 00 more than once. */
  doubled: string[];
}

async function fleet(service: TestService, mode: 'ok' | 'fail-first', restart: boolean): Promise<Outcome> {
  const url = service.require();
  const name = service.engine === 'redis' ? `fleet:${run}:${mode}:${restart}:` : `fleet_${run}_${mode.replace('-', '_')}_${restart}`;
  let pool: pg.Pool | undefined;
  if (service.engine === 'postgres') {
    pool = new pg.Pool({ connectionString: url, max: 1 });
    pool.on('error', () => undefined);
    await createPostgresReplayStore({ client: pool, table: name }).createTable();
  }
  const markers = mkdtempSync(join(tmpdir(), 'gc-fleet-'));
  try {
    const instances = await Promise.all(Array.from({ length: INSTANCES }, () => startInstance([service.engine, url, KEY, mode, markers, name])));
    started.push(...instances.map((i) => i.child));
    const codes = new Map<string, number>();
    const lost: string[] = [];
    const doubled: string[] = [];
    let done = 0;
    let restarted: Promise<void> | undefined;

    async function notify(id: string) {
      for (let round = 0; round < MAX_ROUNDS; round++) {
        // Signed anew for each delivery, as the service does: the same bytes to every instance.
        const signature = generateSignatureSync(BODY, KEY);
        const head = { version: 'v1', requestTimestamp: String(Date.now()), requestId: id, signature, signatureType: 'CHECKSUM' };
        const text = `{"head":${JSON.stringify(head)},"body":${BODY}}`;
        const replies = await Promise.all(instances.map((i) => deliver(i.port, text)));
        for (const code of replies) codes.set(code, (codes.get(code) ?? 0) + 1);
        const accepted = replies.filter((c) => c === '00').length;
        if (accepted > 1) doubled.push(id);
        if (accepted > 0) return;
        // No 00: the service delivers again only when asked to (500); 406 everywhere ends it.
        if (!replies.some((c) => c !== '406')) break;
        await sleep(RETRY_DELAY_MS);
      }
      lost.push(id);
    }

    const ids = Array.from({ length: NOTIFICATIONS }, (_, i) => `FLEET-${run}-${i}`);
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < ids.length) {
          await notify(ids[next++] as string);
          done++;
          if (restart && !restarted && done >= NOTIFICATIONS / 3) restarted = service.restart();
        }
      }),
    );
    await restarted;
    for (const i of instances) i.child.kill('SIGTERM');
    const outputs = await Promise.all(instances.map((i) => i.output));
    const handled = new Map<string, number>();
    const failed = new Map<string, number>();
    for (const line of outputs.join('').split('\n')) {
      const [what, id] = line.split(' ');
      if (what === 'handled') handled.set(id as string, (handled.get(id as string) ?? 0) + 1);
      if (what === 'failed') failed.set(id as string, (failed.get(id as string) ?? 0) + 1);
    }
    return { codes, lost, handled, failed, doubled };
  } finally {
    rmSync(markers, { recursive: true, force: true });
    if (pool) {
      await pool.query(`DROP TABLE IF EXISTS ${name}`).catch(() => undefined);
      await pool.end();
    }
  }
}

/** Every notification handled exactly once, answered 00 exactly once. */
function expectExactlyOnce(outcome: Outcome) {
  expect(outcome.lost).toEqual([]);
  expect(outcome.doubled).toEqual([]);
  expect(outcome.handled.size).toBe(NOTIFICATIONS);
  expect([...outcome.handled.values()].reduce((a, b) => a + b, 0)).toBe(NOTIFICATIONS);
  expect(outcome.codes.get('00')).toBe(NOTIFICATIONS);
}

for (const engine of ['redis', 'postgres'] as const) {
  const service = testService(engine, `four receivers sharing a replay store on ${engine === 'redis' ? 'Redis' : 'PostgreSQL'}`);
  describe.skipIf(service.skip)(service.title, () => {
    it('each of 1 000 notifications delivered to all four at once is handled once; every other delivery is answered 406', async () => {
      const outcome = await fleet(service, 'ok', false);
      expectExactlyOnce(outcome);
      expect(Object.fromEntries(outcome.codes)).toEqual({ '00': NOTIFICATIONS, '406': NOTIFICATIONS * (INSTANCES - 1) });
    }, 60_000);

    it('through a restart of the store’s server mid-run: deliveries during the outage are answered 500, delivered again, none lost, none doubled', async () => {
      const outcome = await fleet(service, 'ok', true);
      expectExactlyOnce(outcome);
      const { '00': accepted, '406': refused = 0, '500': retried = 0, ...other } = Object.fromEntries(outcome.codes);
      expect(other).toEqual({});
      expect(accepted).toBe(NOTIFICATIONS);
      // The outage was met: some deliveries were answered 500.
      expect(retried).toBeGreaterThan(0);
      expect(refused).toBeGreaterThanOrEqual(NOTIFICATIONS * (INSTANCES - 1) - retried);
    }, 90_000);

    it('with a handler that fails the first time: the claim is released and the next delivery accepted, once', async () => {
      const outcome = await fleet(service, 'fail-first', false);
      expectExactlyOnce(outcome);
      expect(outcome.failed.size).toBe(NOTIFICATIONS);
      expect([...outcome.failed.values()].every((n) => n === 1)).toBe(true);
      const { '00': accepted, '406': _refused, '500': retried = 0, ...other } = Object.fromEntries(outcome.codes);
      expect(other).toEqual({});
      expect(accepted).toBe(NOTIFICATIONS);
      expect(retried).toBe(NOTIFICATIONS);
    }, 60_000);
  });
}
