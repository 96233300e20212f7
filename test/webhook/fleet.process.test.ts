// Four instances of a merchant's endpoint (test/services/receiver.mjs, each a process of its own)
// share one replay store on a real Redis or PostgreSQL (test/services/run.sh). This test plays the
// service, 1 000 distinct notifications a run, in two ways:
// - every delivery to all four instances at once: each handler runs exactly once, one instance
//   answers 00, the others 406 (handled) or 500 (in progress: deliver again);
// - the strictest service: one instance at a time (the next one each round), again one second after
//   any answer but 00 or 406, and never again after the first 406. A quarter of the handlers fail the
//   first time (after 300 ms of work), while the store's server is restarted once and paused three
//   times for longer than storeTimeoutMs: some releases after a failure cannot be made, and the claims
//   they leave lapse with their lease. None lost, none handled twice (D-105).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPostgresReplayStore } from 'gateway-contract/webhook/postgres';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSignatureSync } from '../../src/signing/checksumNode.js';
import { type TestService, testService } from '../helpers/services.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const RECEIVER = fileURLToPath(new URL('../services/receiver.mjs', import.meta.url));
const KEY = 'k3yK3yk3yK3yk3yK';
const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const NOTIFICATIONS = 1_000;
const INSTANCES = 4;
/** The receivers' store wait and handler time limit: a lease of 1 000 + 3 × 500 ms (leaseFor). */
const STORE_TIMEOUT_MS = 500;
const HANDLER_TIMEOUT_MS = 1_000;
/** The strict service's wait before it delivers again. */
const RETRY_DELAY_MS = 1_000;
/** A pause of the store: longer than STORE_TIMEOUT_MS. */
const PAUSE_MS = 1_500;
const MAX_ROUNDS = 30;
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
            resolve(
              (JSON.parse(body) as { body?: { resultInfo?: { resultCode?: string } } }).body?.resultInfo?.resultCode ??
                'none',
            );
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
  /** Notifications the service stopped delivering before one was handled, or after MAX_ROUNDS. */
  lost: string[];
  /** Notifications answered 406 by every instance on their first delivery. */
  refusedAtOnce: string[];
  /** How many times each notification's handler ran to the end, and failed. */
  handled: Map<string, number>;
  failed: Map<string, number>;
  /** The receivers' store failures, `operation outcome` -> how many. */
  storeEvents: Map<string, number>;
  /** Notifications answered 00 more than once. */
  doubled: string[];
  seconds: number;
}

type Delivery = 'all-at-once' | 'strict';

/** A notification of its own body (each a token of its own) and id; `-F` marks one whose handler fails the first time. */
function notificationOf(i: number): { id: string; body: string } {
  const body = structuredClone(doc.components.examples.TokenStatusActive.value.body);
  body.tokenInfo.tokenIndexNumber = `TIN${run}${i}`.toUpperCase();
  return { id: `FLEET-${run}-${i}${i % 4 === 0 ? '-F' : ''}`, body: JSON.stringify(body) };
}

/** One delivery, signed anew (as the service does): the same bytes to each instance it goes to. */
function signed(id: string, body: string): string {
  const head = {
    version: 'v1',
    requestTimestamp: String(Date.now()),
    requestId: id,
    signature: generateSignatureSync(body, KEY),
    signatureType: 'CHECKSUM',
  };
  return `{"head":${JSON.stringify(head)},"body":${body}}`;
}

/** Pauses the store for PAUSE_MS: Redis stops serving every client, PostgreSQL's table is locked. */
async function pause(service: TestService, name: string): Promise<void> {
  if (service.engine === 'redis') {
    const client = createClient({ url: service.require(), disableOfflineQueue: true });
    client.on('error', () => undefined);
    await client.connect();
    await client.sendCommand(['CLIENT', 'PAUSE', String(PAUSE_MS), 'ALL']);
    client.destroy();
    await sleep(PAUSE_MS);
    return;
  }
  const locker = new pg.Client({ connectionString: service.require() });
  locker.on('error', () => undefined);
  await locker.connect();
  try {
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${name} IN ACCESS EXCLUSIVE MODE`);
    await sleep(PAUSE_MS);
    await locker.query('COMMIT');
  } finally {
    await locker.end();
  }
}

async function fleet(service: TestService, delivery: Delivery): Promise<Outcome> {
  const startedAt = performance.now();
  const url = service.require();
  const name =
    service.engine === 'redis' ? `fleet:${run}:${delivery}:` : `fleet_${run}_${delivery.replaceAll('-', '_')}`;
  let pool: pg.Pool | undefined;
  if (service.engine === 'postgres') {
    pool = new pg.Pool({ connectionString: url, max: 1 });
    pool.on('error', () => undefined);
    await createPostgresReplayStore({ client: pool, table: name }).createTable();
  }
  const markers = mkdtempSync(join(tmpdir(), 'gc-fleet-'));
  const mode = delivery === 'strict' ? 'fail-first' : 'ok';
  try {
    const args = [service.engine, url, KEY, mode, markers, name, String(STORE_TIMEOUT_MS), String(HANDLER_TIMEOUT_MS)];
    const instances = await Promise.all(Array.from({ length: INSTANCES }, () => startInstance(args)));
    started.push(...instances.map((i) => i.child));
    const codes = new Map<string, number>();
    const count = (code: string) => codes.set(code, (codes.get(code) ?? 0) + 1);
    const lost: string[] = [];
    const refusedAtOnce: string[] = [];
    const doubled: string[] = [];

    /** Every instance at once, until one answers 00 or all 406. */
    async function toAll(id: string, body: string) {
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const text = signed(id, body);
        const replies = await Promise.all(instances.map((i) => deliver(i.port, text)));
        for (const code of replies) count(code);
        if (round === 0 && replies.every((c) => c === '406')) refusedAtOnce.push(id);
        const accepted = replies.filter((c) => c === '00').length;
        if (accepted > 1) doubled.push(id);
        if (accepted > 0) return;
        if (replies.every((c) => c === '406')) break;
        await sleep(RETRY_DELAY_MS);
      }
      lost.push(id);
    }

    /** One instance at a time, the next each round; stops at the first 00 or 406. */
    async function strictly(id: string, body: string, first: number) {
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const code = await deliver((instances[(first + round) % INSTANCES] as Instance).port, signed(id, body));
        count(code);
        if (code === '00') return;
        if (code === '406') {
          if (round === 0) refusedAtOnce.push(id);
          return; // lost unless handled: counted from the receivers' output
        }
        await sleep(RETRY_DELAY_MS);
      }
      lost.push(id);
    }

    // The strict run's faults, by how many notifications are done: a restart, then three pauses.
    const faults =
      delivery === 'strict'
        ? new Map<number, () => Promise<void>>([
            [150, () => service.restart()],
            ...[400, 600, 800].map((n) => [n, () => pause(service, name)] as const),
          ])
        : new Map();
    const faulted: Promise<void>[] = [];
    let done = 0;
    let next = 0;
    const concurrency = delivery === 'strict' ? 64 : 32;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < NOTIFICATIONS) {
          const i = next++;
          const { id, body } = notificationOf(i);
          await (delivery === 'strict' ? strictly(id, body, i) : toAll(id, body));
          const fault = faults.get(++done);
          if (fault) faulted.push(fault());
        }
      }),
    );
    await Promise.all(faulted);
    // A handler's claim settles after its answer: give the receivers the time of a lease to finish.
    await sleep(HANDLER_TIMEOUT_MS + 3 * STORE_TIMEOUT_MS);
    for (const i of instances) i.child.kill('SIGTERM');
    const outputs = await Promise.all(instances.map((i) => i.output));
    const handled = new Map<string, number>();
    const failed = new Map<string, number>();
    const storeEvents = new Map<string, number>();
    for (const line of outputs.join('').split('\n')) {
      const [what, id, outcome] = line.split(' ');
      if (what === 'handled') handled.set(id as string, (handled.get(id as string) ?? 0) + 1);
      if (what === 'failed') failed.set(id as string, (failed.get(id as string) ?? 0) + 1);
      if (what === 'store') storeEvents.set(`${id} ${outcome}`, (storeEvents.get(`${id} ${outcome}`) ?? 0) + 1);
    }
    return {
      codes,
      lost,
      refusedAtOnce,
      handled,
      failed,
      storeEvents,
      doubled,
      seconds: Math.round((performance.now() - startedAt) / 1000),
    };
  } finally {
    rmSync(markers, { recursive: true, force: true });
    if (pool) {
      await pool.query(`DROP TABLE IF EXISTS ${name}`).catch(() => undefined);
      await pool.end();
    }
  }
}

/** Every notification handled exactly once: none lost, none twice. */
function expectExactlyOnce(outcome: Outcome) {
  expect(outcome.lost).toEqual([]);
  expect(outcome.doubled).toEqual([]);
  expect(outcome.refusedAtOnce).toEqual([]);
  expect(outcome.handled.size).toBe(NOTIFICATIONS);
  expect([...outcome.handled.entries()].filter(([, n]) => n !== 1)).toEqual([]);
}

for (const engine of ['redis', 'postgres'] as const) {
  const service = testService(
    engine,
    `four receivers sharing a replay store on ${engine === 'redis' ? 'Redis' : 'PostgreSQL'}`,
  );
  describe.skipIf(service.skip)(service.title, () => {
    it('each of 1 000 notifications delivered to all four at once is handled once: one 00, the others 406 (handled) or 500 (in progress)', async () => {
      const outcome = await fleet(service, 'all-at-once');
      console.log(`${engine}, all at once: ${outcome.seconds} s, ${JSON.stringify(Object.fromEntries(outcome.codes))}`);
      expectExactlyOnce(outcome);
      const { '00': accepted, '406': _handled, '500': _inProgress, ...other } = Object.fromEntries(outcome.codes);
      expect(other).toEqual({});
      expect(accepted).toBe(NOTIFICATIONS);
    }, 60_000);

    it('the strictest service (one instance at a time, stops at the first 406), a quarter of the handlers failing once, through a restart and three pauses of the store: none lost, none handled twice', async () => {
      const outcome = await fleet(service, 'strict');
      console.log(
        `${engine}, strict: ${outcome.seconds} s, ${JSON.stringify(Object.fromEntries(outcome.codes))}, store failures ${JSON.stringify(Object.fromEntries(outcome.storeEvents))}`,
      );
      expectExactlyOnce(outcome);
      expect(outcome.failed.size).toBe(NOTIFICATIONS / 4);
      expect([...outcome.failed.values()].every((n) => n === 1)).toBe(true);
      const { '00': _accepted, '406': _handled, '500': retried = 0, ...other } = Object.fromEntries(outcome.codes);
      expect(other).toEqual({});
      expect(retried).toBeGreaterThan(NOTIFICATIONS / 4);
      // The faults were met: claims the store did not answer in time, and releases after a failed handler it could not take.
      const failures = (operation: string) =>
        [...outcome.storeEvents].filter(([what]) => what.startsWith(operation)).reduce((n, [, k]) => n + k, 0);
      expect(failures('claim')).toBeGreaterThan(0);
      expect(failures('release')).toBeGreaterThan(0);
    }, 180_000);
  });
}
