// Cold start, each measured in rounds alternating with a bare `node` and reported as the time it
// adds to it, round by round (and the ratio of the two): the validators of the first operation a
// program uses, every precompiled validator at once, the package imported and one payload
// validated (valid, then invalid with its problems described), the contract compiled at runtime.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pairedMsPerRun } from './stats.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const run =
  (/** @type {string} */ code, /** @type {'module' | 'commonjs'} */ type = 'module') =>
  () =>
    new Promise((resolve, reject) => {
      spawn(process.execPath, [`--input-type=${type}`, '-e', code], { cwd: root, stdio: 'ignore' }).on('exit', (c) =>
        c === 0 ? resolve(undefined) : reject(new Error(`exit ${c}`)),
      );
    });

const VALID_PAY = JSON.stringify({
  head: { requestTimeStamp: '1768971330000', channelId: 'WEB', tokenType: 'TXN_TOKEN', token: 'T', version: 'v1' },
  body: { mid: 'MERCHANT0001', orderId: 'ORDER-1001', requestType: 'PAYMENT', paymentMode: 'UPI_INTENT' },
});
const QUERY = JSON.stringify({ query: { mid: 'MERCHANT0001', orderId: 'ORDER-1001' } });

export async function startupFigures() {
  const bare = run('0');
  const firstOperation = await pairedMsPerRun(
    run(`const v = await import('./generated/validators/initiatePaymentRequest.js'); if (!v.initiatePaymentRequest(${VALID_PAY})) process.exit(1);`),
    bare,
    { rounds: 9, warmup: 1 },
  );
  const every = await pairedMsPerRun(
    run(`const v = await import('./generated/validators.js'); if (typeof v.initiatePaymentRequest !== 'function') process.exit(1);`),
    bare,
    { rounds: 7, warmup: 1 },
  );
  const valid = await pairedMsPerRun(
    run(`const { validate } = await import('./dist/index.js'); if (!validate('initiatePayment', 'request', ${VALID_PAY}, ${QUERY}).valid) process.exit(1);`),
    bare,
    { rounds: 11, warmup: 2 },
  );
  const invalid = await pairedMsPerRun(
    run(`const { validate } = await import('./dist/index.js'); if (validate('initiatePayment', 'request', {}).valid) process.exit(1);`),
    bare,
    { rounds: 9, warmup: 1 },
  );
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
    figure('load the validators of the first operation used, a pay request (over bare node)', firstOperation, {
      target: '<= 8 ms over bare node',
      met: firstOperation.difference.median <= 8,
    }),
    figure('import every precompiled validator, generated/validators.js (over bare node)', every, { target: 'measured only' }),
    figure('import the package and validate a valid pay request once (vs bare node: ratio)', valid, {
      target: '<= 1.3x bare node',
      met: valid.ratio.value <= 1.3,
    }),
    figure('import the package and validate an invalid payload once, its problems described (vs bare node: ratio)', invalid, { target: 'measured only' }),
    figure('compile the contract at runtime (over bare node)', runtime),
  ];
}
