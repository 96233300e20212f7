// Cold start, each measured in rounds alternating with a bare `node` and reported as the time it
// adds to it, round by round (and the ratio of the two): each entry point of the package imported
// by its name (as a program imports it) and used once (the root and `/validation` validating a pay
// request, each held to a target), one operation's validation alone (a target), every precompiled
// validator at once, and the contract compiled at runtime instead.
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

/** The entries held to a target, as a ratio to a bare start: the others are measured only. */
const TARGETS = new Map([
  ['gateway-contract', 1.5],
  ['gateway-contract/validation', 1.4],
]);

/** Each entry point, imported by the package's name, and a use of it (the program fails if the use does). */
const ENTRIES = [
  ['gateway-contract', `if (!e.validate('initiatePayment', 'request', ${VALID_PAY}, ${QUERY}).valid) process.exit(1);`],
  [
    'gateway-contract/validation',
    `if (!e.validate('initiatePayment', 'request', ${VALID_PAY}, ${QUERY}).valid) process.exit(1);`,
  ],
  [
    'gateway-contract/client',
    `e.createGatewayClient({ gatewayUrl: 'http://127.0.0.1:9', routerUrl: 'http://127.0.0.1:9' });`,
  ],
  [
    'gateway-contract/signing',
    `if ((await e.generateSignature('{}', 'SandboxTestKey01')).length !== 108) process.exit(1);`,
  ],
  [
    'gateway-contract/webhook',
    `e.createWebhookReceiver({ verifier: { signatureType: 'CHECKSUM', verify: () => true } });`,
  ],
  ['gateway-contract/webhook/sender', `if (typeof e.sendTokenNotification !== 'function') process.exit(1);`],
  ['gateway-contract/card', `if (!e.passesLuhn('4111111111111111')) process.exit(1);`],
  ['gateway-contract/reports', `if (!e.REPORT_FORMATS.includes('sarif')) process.exit(1);`],
  ['gateway-contract/inputs', `if (typeof e.expandPaths !== 'function') process.exit(1);`],
  ['gateway-contract/sandbox', `const s = await e.startSandbox({ port: 0 }); await s.stop();`],
];

export async function startupFigures() {
  const bare = run('0');
  const figures = [];
  const figure = (/** @type {string} */ name, /** @type {any} */ m, /** @type {object} */ target = {}) => ({
    group: 'startup',
    name,
    subject: m.difference,
    reference: m.reference,
    ratio: m.ratio,
    unit: 'ms',
    ...target,
  });
  // The target: a program that validates one operation imports that operation's entry alone.
  const one = await pairedMsPerRun(
    run(
      `const e = await import('gateway-contract/validators/initiatePayment'); if (!e.validateRequest(${VALID_PAY}, ${QUERY}).valid) process.exit(1);`,
    ),
    bare,
    { rounds: 11, warmup: 2 },
  );
  figures.push(
    figure(
      'import gateway-contract/validators/initiatePayment and validate a valid pay request once (vs bare node: ratio)',
      one,
      {
        target: '<= 1.3x bare node',
        met: one.ratio.value <= 1.3,
      },
    ),
  );
  const invalid = await pairedMsPerRun(
    run(
      `const e = await import('gateway-contract/validators/initiatePayment'); if (e.validateRequest({}).valid) process.exit(1);`,
    ),
    bare,
    { rounds: 7, warmup: 1 },
  );
  figures.push(
    figure('the same, an invalid payload with its problems described (vs bare node: ratio)', invalid, {
      target: 'measured only',
    }),
  );
  for (const [entry, use] of ENTRIES) {
    const limit = TARGETS.get(entry);
    const m = await pairedMsPerRun(run(`const e = await import('${entry}'); ${use}`), bare, {
      rounds: limit ? 9 : 5,
      warmup: 1,
    });
    const target = limit
      ? { target: `<= ${limit}x bare node`, met: m.ratio.value <= limit }
      : { target: 'measured only' };
    const what = limit ? 'validate a valid pay request once' : 'use it once';
    figures.push(figure(`import ${entry} and ${what} (vs bare node: ratio)`, m, target));
  }
  const every = await pairedMsPerRun(
    run(
      `const v = await import('./generated/validators.js'); if (typeof v.initiatePaymentRequest !== 'function') process.exit(1);`,
    ),
    bare,
    { rounds: 5, warmup: 1 },
  );
  figures.push(
    figure('import every precompiled validator, generated/validators.js (over bare node)', every, {
      target: 'measured only',
    }),
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
  figures.push(figure('compile the contract at runtime (over bare node)', runtime));
  return figures;
}
