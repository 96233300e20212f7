// Validation cost against JSON.parse of the same text, per operation; an invalid pay request with
// exactly one problem and with exactly ten, each held to a target; and the full CLI path.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from '../dist/validation/index.js';
import { operations } from '../generated/operations.js';
import { parametersOf } from '../test/helpers/payloads.mjs';
import { msPerRun, pairedNsPerOp, ratio } from './stats.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const doc = JSON.parse(readFileSync(join(root, 'generated/openapi.json'), 'utf8'));

function exampleOf(/** @type {any} */ op) {
  const item = op.kind === 'webhook' ? doc.webhooks[op.webhook] : doc.paths[op.path];
  const ref = Object.values(item.post.requestBody.content['application/json'].examples)[0].$ref;
  return doc.components.examples[ref.split('/').pop()].value;
}

/** The pay example with one value out of its enum: exactly one problem. */
const oneProblem = (/** @type {any} */ pay) => ({ ...pay, head: { ...pay.head, channelId: 'FAX' } });

/** The pay example with ten problems: an unknown key at each of three levels and seven values wrong. */
const tenProblems = (/** @type {any} */ pay) => ({
  head: { ...pay.head, channelId: 'FAX', requestTimeStamp: 'x', tokenType: 'NOPE', token: '', unknownKey: 1 },
  body: {
    ...pay.body,
    requestType: 'NOPE',
    unknownKey: 2,
    cardInfo: { ...pay.body.cardInfo, cvv: 'abc', cardFlowType: 'NOPE', unknownKey: 3 },
  },
});

/**
 * Validation of an invalid pay request with exactly `count` problems vs JSON.parse of its text; it
 * throws when the result does not list exactly that many (the figure would measure something else).
 * @param {number} count @param {any} payload @param {number} limit
 */
function invalidPayFigure(count, payload, limit) {
  const options = parametersOf('initiatePayment', payload);
  const result = validate('initiatePayment', 'request', payload, options);
  const errors = result.valid ? [] : result.errors;
  if (errors.length !== count) throw new Error(`the pay request of ${count} problems has ${errors.length}`);
  const text = JSON.stringify(payload);
  const m = pairedNsPerOp(
    () => validate('initiatePayment', 'request', payload, options),
    () => JSON.parse(text),
  );
  return {
    group: 'validation',
    name: `initiatePayment invalid request, exactly ${count} problem${count === 1 ? '' : 's'} listed (${text.length} B)`,
    ...m,
    unit: 'ns',
    target: `<= ${limit}x JSON.parse`,
    met: m.ratio.value <= limit,
  };
}

const run = (/** @type {string[]} */ args) =>
  new Promise((resolve) => spawn(process.execPath, args, { stdio: 'ignore' }).on('exit', resolve));

export async function validationFigures() {
  const pay = exampleOf(operations.find((op) => op.operationId === 'initiatePayment'));
  /** @type {import('./table.mjs').Figure[]} */
  const figures = [invalidPayFigure(1, oneProblem(pay), 2), invalidPayFigure(10, tenProblems(pay), 5)];
  const dir = mkdtempSync(join(tmpdir(), 'bench-validate-'));
  try {
    for (const op of operations) {
      const payload = exampleOf(op);
      const text = JSON.stringify(payload);
      // The parameters of the request's URL: without them the request is incomplete (D-48).
      const options = parametersOf(op.operationId, payload);
      if (!validate(op.operationId, 'request', payload, options).valid)
        throw new Error(`example of ${op.operationId} is not valid`);
      const parse = () => JSON.parse(text);
      const valid = pairedNsPerOp(() => validate(op.operationId, 'request', payload, options), parse);
      figures.push({
        group: 'validation',
        name: `${op.operationId} valid request (${text.length} B)`,
        ...valid,
        unit: 'ns',
        target: '<= 0.5x JSON.parse',
        met: valid.ratio.value <= 0.5,
      });
      const broken = structuredClone(payload);
      delete broken.head;
      const invalid = pairedNsPerOp(() => validate(op.operationId, 'request', broken, options), parse, { rounds: 5 });
      figures.push({
        group: 'validation',
        name: `${op.operationId} invalid request (head missing)`,
        ...invalid,
        unit: 'ns',
        target: 'measured only',
      });
      const file = join(dir, `${op.operationId}.json`);
      writeFileSync(file, text);
      const args = [
        join(root, 'dist/cli/bin.js'),
        'validate',
        op.operationId,
        'request',
        file,
        ...Object.entries(options.query ?? {}).flatMap(([k, v]) => ['--query', `${k}=${v}`]),
        ...Object.entries(options.path ?? {}).flatMap(([k, v]) => ['--path', `${k}=${v}`]),
      ];
      const cli = await msPerRun(() => run(args), { rounds: 3 });
      const bare = await msPerRun(() => run(['-e', '0']), { rounds: 3 });
      figures.push({
        group: 'cli',
        name: `${op.operationId} validate via CLI`,
        subject: cli,
        reference: bare,
        ratio: ratio(cli, bare),
        unit: 'ms',
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
