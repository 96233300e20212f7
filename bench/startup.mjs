// Cold start: importing the precompiled validators, compiling the contract at runtime, a bare node.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pairedMsPerRun } from './stats.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const run = (/** @type {string} */ code) => () =>
  new Promise((resolve, reject) => {
    spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: 'ignore' }).on('exit', (c) =>
      c === 0 ? resolve(undefined) : reject(new Error(`exit ${c}`)),
    );
  });

export async function startupFigures() {
  const bare = run('0');
  // Each start is measured in rounds alternating with a bare `node`, and reported as the time it
  // adds to it, round by round.
  const precompiled = await pairedMsPerRun(
    run(`const v = await import('./generated/validators.js'); if (typeof v.initiatePaymentRequest !== 'function') process.exit(1);`),
    bare,
    { rounds: 9, warmup: 1 },
  );
  const api = await pairedMsPerRun(run(`const { validate } = await import('./dist/index.js'); validate('initiatePayment', 'request', {});`), bare, {
    rounds: 7,
    warmup: 1,
  });
  const runtime = await pairedMsPerRun(
    run(`
    const { readFileSync } = await import('node:fs');
    const { createAjv } = await import('./scripts/lib/ajvBuild.mjs');
    const { operations } = await import('./generated/operations.js');
    const doc = JSON.parse(readFileSync('generated/openapi.json', 'utf8'));
    const ajv = createAjv(doc);
    for (const op of operations) { ajv.getSchema('openapi.json#/components/schemas/' + op.request.schema); ajv.getSchema('openapi.json#/components/schemas/' + op.response.schema); }
  `),
    bare,
    { rounds: 5, warmup: 1 },
  );
  const figure = (/** @type {string} */ name, /** @type {any} */ m, /** @type {object} */ target = {}) => ({
    group: 'startup',
    name,
    subject: m.difference,
    reference: m.reference,
    ratio: m.ratio,
    unit: 'ms',
    ...target,
  });
  return [
    figure('import precompiled validators (over bare node)', precompiled, { target: '<= 30 ms over bare node', met: precompiled.difference.median <= 30 }),
    figure('import the package and validate once (over bare node)', api),
    figure('compile the contract at runtime (over bare node)', runtime),
  ];
}
