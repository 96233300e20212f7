// Many payloads in one run of the command: 1 000 of mixed operations and directions as NDJSON, and
// 1 000 payload files through a directory, against a bare `node -e 0` measured in the same rounds.
// With one payload in ten breaking a rule the run also lists problems (and loads the validators
// that describe every problem, and the contract); all valid, it only gives verdicts. The target's
// figure: half of them invalid, every problem written to a JUnit report file.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { examples } from '../test/helpers/payloads.mjs';
import { pairedMsPerRun } from './stats.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const COUNT = 1_000;

/** Runs the command (or a bare node) to its end; the exit status is checked against `want`. */
const run = (/** @type {string[]} */ args, /** @type {number} */ want) => () =>
  new Promise((resolve, reject) => {
    spawn(process.execPath, args, { stdio: 'ignore' }).on('exit', (code) =>
      code === want ? resolve(undefined) : reject(new Error(`${args.join(' ')}: exit ${code}`)),
    );
  });

/** One payload in ten (or every other one) with its head removed (an invalid case); the others as the examples are. */
const broken = (/** @type {number} */ i, /** @type {any} */ payload, /** @type {number} */ every = 10) =>
  i % every === 3 % every ? { ...payload, head: undefined } : payload;
const ROUNDS = { rounds: 11, warmup: 2 };

/** The JUnit report of a run lists every case and exactly `failures` of them failed (else the figure measures something else). */
function assertJunit(/** @type {string} */ file, /** @type {number} */ failures) {
  const head = /<testsuites [^>]*tests="(\d+)" failures="(\d+)"/.exec(readFileSync(file, 'utf8'));
  if (Number(head?.[1]) !== COUNT || Number(head?.[2]) !== failures)
    throw new Error(`JUnit report: ${head?.[1]} cases, ${head?.[2]} failed; expected ${COUNT}, ${failures}`);
}

export async function batchFigures() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-batch-'));
  try {
    const all = examples();
    const record = (/** @type {number} */ i, /** @type {number} */ invalidEvery) => {
      const e = all[i % all.length];
      const payload = invalidEvery ? broken(i, e?.payload, invalidEvery) : e?.payload;
      return JSON.stringify({
        operationId: e?.operationId,
        direction: e?.direction,
        payload,
        query: e?.query,
        path: e?.path,
        name: `case ${i}`,
      });
    };
    const mixed = join(dir, 'mixed.ndjson');
    writeFileSync(mixed, `${Array.from({ length: COUNT }, (_, i) => record(i, 10)).join('\n')}\n`);
    const valid = join(dir, 'valid.ndjson');
    writeFileSync(valid, `${Array.from({ length: COUNT }, (_, i) => record(i, 0)).join('\n')}\n`);
    const half = join(dir, 'half.ndjson');
    writeFileSync(half, `${Array.from({ length: COUNT }, (_, i) => record(i, 2)).join('\n')}\n`);
    const pays = all.filter((e) => e.operationId === 'initiatePayment' && e.direction === 'request');
    mkdirSync(join(dir, 'pay'));
    for (let i = 0; i < COUNT; i++) {
      const e = pays[i % pays.length];
      const payload = broken(i, {
        ...e?.payload,
        body: { ...e?.payload.body, mid: 'MERCHANT0001', orderId: 'ORDER-1001' },
      });
      writeFileSync(join(dir, 'pay', `pay-${String(i).padStart(4, '0')}.json`), JSON.stringify(payload, null, 2));
    }
    const bin = join(root, 'dist/cli/bin.js');
    const bare = run(['-e', '0'], 0);
    const report = join(dir, 'report.xml');
    const junit = await pairedMsPerRun(
      run([bin, 'validate', '--ndjson', half, '--format', 'junit', '--output', report], 1),
      bare,
      ROUNDS,
    );
    assertJunit(report, COUNT / 2);
    const allValid = await pairedMsPerRun(run([bin, 'validate', '--ndjson', valid], 0), bare, ROUNDS);
    const fromNdjson = await pairedMsPerRun(run([bin, 'validate', '--ndjson', mixed], 1), bare, ROUNDS);
    const fromFiles = await pairedMsPerRun(
      run(
        [
          bin,
          'validate',
          'initiatePayment',
          'request',
          join(dir, 'pay'),
          '--query',
          'mid=MERCHANT0001',
          '--query',
          'orderId=ORDER-1001',
        ],
        1,
      ),
      bare,
      ROUNDS,
    );
    const figure = (/** @type {string} */ name, /** @type {any} */ m) => ({
      group: 'batch',
      name,
      subject: m.subject,
      reference: m.reference,
      ratio: m.ratio,
      unit: 'ms',
      target: '<= 3x node -e 0',
      met: m.ratio.value <= 3,
    });
    return [
      figure(
        `${COUNT} payloads of every operation and direction, half of them invalid, NDJSON, a JUnit report file, one run (vs node -e 0)`,
        junit,
      ),
      figure(`${COUNT} valid payloads of every operation and direction, NDJSON, one run (vs node -e 0)`, allValid),
      figure(
        `${COUNT} payloads of every operation and direction, 1 in 10 invalid, NDJSON, one run (vs node -e 0)`,
        fromNdjson,
      ),
      figure(`${COUNT} pay request files in a directory, 1 in 10 invalid, one run (vs node -e 0)`, fromFiles),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
