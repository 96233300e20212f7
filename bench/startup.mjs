// Cold start: importing the precompiled validators, compiling the contract at runtime, a bare node.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { msPerRun, ratio } from './stats.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const run = (/** @type {string} */ code) => () => new Promise((resolve, reject) => {
  spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: 'ignore' }).on('exit', (c) => (c === 0 ? resolve(undefined) : reject(new Error(`exit ${c}`))));
});

export async function startupFigures() {
  const bare = await msPerRun(run('0'), { rounds: 7 });
  const precompiled = await msPerRun(run(`const v = await import('./generated/validators.js'); if (typeof v.initiatePaymentRequest !== 'function') process.exit(1);`), { rounds: 7 });
  const api = await msPerRun(run(`const { validate } = await import('./src/index.js'); validate('initiatePayment', 'request', {});`), { rounds: 7 });
  const runtime = await msPerRun(run(`
    const { readFileSync } = await import('node:fs');
    const { createAjv } = await import('./src/validation/ajvBuild.js');
    const { operations } = await import('./generated/operations.js');
    const doc = JSON.parse(readFileSync('generated/openapi.json', 'utf8'));
    const ajv = createAjv(doc);
    for (const op of operations) { ajv.getSchema('openapi.json#/components/schemas/' + op.request.schema); ajv.getSchema('openapi.json#/components/schemas/' + op.response.schema); }
  `), { rounds: 5 });
  const over = (/** @type {any} */ s) => ({ median: s.median - bare.median, min: s.min - bare.max, max: s.max - bare.min, spread: s.spread, rounds: s.rounds });
  return [
    { group: 'startup', name: 'import precompiled validators (over bare node)', subject: over(precompiled), reference: bare, ratio: ratio(precompiled, bare), unit: 'ms', target: '<= 30 ms over bare node', met: precompiled.median - bare.median <= 30 },
    { group: 'startup', name: 'import the package and validate once (over bare node)', subject: over(api), reference: bare, ratio: ratio(api, bare), unit: 'ms' },
    { group: 'startup', name: 'compile the contract at runtime (over bare node)', subject: over(runtime), reference: bare, ratio: ratio(runtime, bare), unit: 'ms' },
  ];
}
