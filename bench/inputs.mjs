// Big inputs in linear time: `gateway-contract validate` on a payload of 16 MiB against the same
// shape at 4 MiB, measured in the same rounds. Linear reading costs 4x (less, with the start of the
// process counted in both); the shapes are those that made a parse costly: objects within the
// bounds of a JSON text (docs/decisions.md, D-115), nests of 900 levels, and text past the bounds
// (empty objects, a million keys), which is refused.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pairedMsPerRun } from './stats.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const MiB = 1024 * 1024;
const ROUNDS = { rounds: 5, warmup: 1 };

/** An answer of pay with `bulk` under a member the contract does not name (answers are open). */
const answer = (/** @type {string} */ bulk) =>
  `{"head":{"responseTimestamp":"1768971330000","version":"v1"},"body":{"resultInfo":{"resultStatus":"S","resultCode":"0000","resultMsg":"Success"},"extra":${bulk}}}`;

/** `count` copies of `unit` as an array. */
const arrayOf = (/** @type {string} */ unit, /** @type {number} */ count) => `[${Array(count).fill(unit).join(',')}]`;

/** The shapes, each sized to `size` characters. */
const SHAPES = {
  'objects of two values, within the bounds': (/** @type {number} */ size) =>
    arrayOf('{"abcdefghij":"xxxxxxxxxxxxxxxxxxxxxxxx"}', Math.floor(size / 43)),
  'nests of 900 levels, within the bounds': (/** @type {number} */ size) =>
    arrayOf(`${'['.repeat(899)}${']'.repeat(899)}`, Math.floor(size / 18_000)),
  'empty objects, past the bounds (refused)': (/** @type {number} */ size) => arrayOf('{}', Math.floor(size / 3)),
  'keys of one object, past the bounds (refused)': (/** @type {number} */ size) =>
    `{${Array.from({ length: Math.floor(size / 13) }, (_, i) => `"k${String(i).padStart(7, '0')}":0`).join(',')}}`,
};

/** Runs `validate` on the file to its end; any exit status but 0 or 1 is a failure. */
const validating = (/** @type {string} */ file) => () =>
  new Promise((resolve, reject) => {
    spawn(
      process.execPath,
      [join(root, 'dist/cli/bin.js'), 'validate', 'initiatePayment', 'response', file, '--format', 'json'],
      { stdio: 'ignore' },
    ).on('exit', (code) =>
      code === 0 || code === 1 ? resolve(undefined) : reject(new Error(`validate ${file}: exit ${code}`)),
    );
  });

export async function inputFigures() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-inputs-'));
  try {
    const figures = [];
    for (const [name, bulk] of Object.entries(SHAPES)) {
      const small = join(dir, 'small.json');
      const large = join(dir, 'large.json');
      writeFileSync(small, answer(bulk(4 * MiB - 200)));
      writeFileSync(large, answer(bulk(16 * MiB - 200)));
      const m = await pairedMsPerRun(validating(large), validating(small), ROUNDS);
      figures.push({
        group: 'inputs',
        name: `validate, a payload of 16 MiB vs 4 MiB: ${name}`,
        subject: m.subject,
        reference: m.reference,
        ratio: m.ratio,
        unit: 'ms',
        target: '<= 5x (linear: 4x)',
        met: m.ratio.value <= 5,
      });
    }
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
