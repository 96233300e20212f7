// The inputs of the journeys that `redocly respect` cannot compute itself (docs/decisions.md, D-99):
// the head signature of each signed step, the CHECKSUM of the exact body text respect sends, and
// encryptedCardData, the card encrypted with the service's public key. Computed with the package's
// own functions. The output holds signatures and encrypted card data: pass it to respect through
// the environment (REDOCLY_CLI_RESPECT_INPUT), never in a committed file or on a command line.
//
//   MERCHANT_KEY=... node inputs.mjs <inputs.json> <journey.arazzo.yaml>... [--sandbox <url>]
//     [--wait-for <url>]... [--wait-ms 30000] [--card-key <pem file>]
//
// <inputs.json> holds the plain inputs; the ones left out that a run must make new are made here
// (D-120): requestTimestamp (epoch milliseconds, digits), requestId, orderId and custId (fresh
// random ones), startDate and expiryDate (yyyy-MM-dd, 7 and 372 days ahead). Its member "card"
// ({cardNumber, expiryMonth, expiryYear, securityCode}) is encrypted into encryptedCardData with
// the service's public key (--card-key, or the sandbox's own with --sandbox) and left out.
// --sandbox waits until the sandbox answers and gives its address to the control steps; each
// --wait-for waits until that address answers (a proxy in front of it). Waits end after --wait-ms.
// The journeys are read from generated/journeys.json (no YAML parser needed).
import { randomBytes } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { encryptCardData, generateSignature } from 'gateway-contract';

const WHOLE_INPUT = /^\$inputs\.([A-Za-z0-9_]+)$/;
const JOURNEYS = new URL('../../generated/journeys.json', import.meta.url);
const DAY_MS = 86_400_000;

/**
 * @typedef {{ stepId: string, requestBody?: { payload?: any } }} Step
 * @typedef {{ workflowId: string, inputs?: { properties?: Record<string, unknown> }, steps: Step[] }} Workflow
 */

/** The workflow of a journey file, as generated/journeys.json holds it. @param {string} file @param {string} workflowId @returns {Workflow} */
function workflowOf(file, workflowId) {
  /** @type {{ journeys: Record<string, { workflows?: Workflow[] }> }} */
  const { journeys } = JSON.parse(readFileSync(JOURNEYS, 'utf8'));
  const doc = journeys[basename(file)];
  if (!doc) throw new Error(`${basename(file)} is not a journey of the package (${Object.keys(journeys).join(', ')}).`);
  const workflow = doc.workflows?.find((w) => w.workflowId === workflowId);
  if (!workflow) throw new Error(`${basename(file)} has no workflow ${workflowId}.`);
  return workflow;
}

/** The workflow ids of a journey file. @param {string} file @returns {string[]} */
export function workflowIds(file) {
  /** @type {{ journeys: Record<string, { workflows?: Workflow[] }> }} */
  const { journeys } = JSON.parse(readFileSync(JOURNEYS, 'utf8'));
  const doc = journeys[basename(file)];
  if (!doc) throw new Error(`${basename(file)} is not a journey of the package (${Object.keys(journeys).join(', ')}).`);
  return (doc.workflows ?? []).map((w) => w.workflowId);
}

/**
 * The body as respect sends it: each string that is exactly `$inputs.<name>` replaced by that input.
 * @param {unknown} template @param {Record<string, unknown>} inputs @param {string} where @returns {unknown}
 */
function bodyOf(template, inputs, where) {
  if (typeof template === 'string') {
    const m = WHOLE_INPUT.exec(template);
    if (m) {
      const name = /** @type {string} */ (m[1]);
      if (!Object.hasOwn(inputs, name)) throw new Error(`${where}: the input ${name} is missing.`);
      return inputs[name];
    }
    if (template.startsWith('$') || template.includes('{$'))
      throw new Error(`${where}: a signed body may hold inputs alone (an answer's value is not known before the run).`);
    return template;
  }
  if (Array.isArray(template)) return template.map((v, i) => bodyOf(v, inputs, `${where}/${i}`));
  if (template !== null && typeof template === 'object')
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, bodyOf(v, inputs, `${where}/${k}`)]));
  return template;
}

/** A fresh identifier: the prefix and 12 random hexadecimal digits. @param {string} prefix */
const freshId = (prefix) => `${prefix}${randomBytes(6).toString('hex').toUpperCase()}`;
/** The date `days` ahead of `now`, yyyy-MM-dd (UTC). @param {number} now @param {number} days */
const dayAhead = (now, days) => new Date(now + days * DAY_MS).toISOString().slice(0, 10);

/**
 * The inputs a run must make new, for those of `declared` that `given` leaves out: the time of the
 * requests, new ids (so no answer from an earlier run or from canned examples can pass) and dates ahead.
 * @param {Record<string, unknown>} declared @param {Record<string, unknown>} given @param {number} now
 * @returns {Record<string, string>}
 */
export function freshInputs(declared, given, now = Date.now()) {
  /** @type {Record<string, () => string>} */
  const makers = {
    requestTimestamp: () => String(now),
    requestId: () => freshId('REQ-'),
    orderId: () => freshId('ORDER-'),
    custId: () => freshId('CUST_'),
    startDate: () => dayAhead(now, 7),
    expiryDate: () => dayAhead(now, 372),
  };
  return Object.fromEntries(
    Object.entries(makers)
      .filter(([name]) => Object.hasOwn(declared, name) && !Object.hasOwn(given, name))
      .map(([name, make]) => [name, make()]),
  );
}

/**
 * The workflow's inputs with the computed ones added: the fresh ones it declares and `given` leaves
 * out; for each step whose head.signature is `$inputs.<name>`, that input is the CHECKSUM of
 * `JSON.stringify(body)` under the merchant key (the text respect sends); with a card and the
 * service's public key, encryptedCardData.
 * @param {string} file the journey (an Arazzo file of openapi/journeys/)
 * @param {string} workflowId
 * @param {Record<string, unknown>} given the workflow's plain inputs
 * @param {{ merchantKey?: string | undefined, card?: import('gateway-contract').CardData, publicKeyPem?: string }} [secrets]
 * @returns {Promise<Record<string, unknown>>}
 */
export async function journeyInputs(file, workflowId, given, { merchantKey, card, publicKeyPem } = {}) {
  const workflow = workflowOf(file, workflowId);
  const declared = workflow.inputs?.properties ?? {};
  /** @type {Record<string, unknown>} */
  const inputs = { ...freshInputs(declared, given), ...given };
  // Only for a workflow that takes it: each encryption is another ciphertext (RSA-OAEP is randomised).
  if (card && publicKeyPem && declared.encryptedCardData)
    inputs.encryptedCardData = await encryptCardData(card, publicKeyPem);
  for (const step of workflow.steps) {
    const payload = step.requestBody?.payload;
    const m = WHOLE_INPUT.exec(payload?.head?.signature ?? '');
    if (!m) continue;
    if (!merchantKey) throw new Error(`The step ${step.stepId} is signed: give the merchant key (MERCHANT_KEY).`);
    inputs[/** @type {string} */ (m[1])] = await generateSignature(
      JSON.stringify(bodyOf(payload.body, inputs, `${step.stepId}/body`)),
      merchantKey,
    );
  }
  return inputs;
}

/**
 * Resolves once `url` answers over HTTP (any status), trying every 200 ms until `deadline`.
 * @param {string} url @param {number} deadline @returns {Promise<Response>}
 */
async function answered(url, deadline) {
  for (;;) {
    try {
      return await fetch(url, { signal: AbortSignal.timeout(Math.max(1, Math.min(5_000, deadline - Date.now()))) });
    } catch {
      if (Date.now() + 200 > deadline) throw new Error(`${url} did not answer within the wait (--wait-ms).`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** The sandbox's public key for encryptedCardData, once the sandbox answers. @param {string} sandboxUrl @param {number} deadline */
async function sandboxCardKey(sandboxUrl, deadline) {
  const answer = await answered(`${sandboxUrl.replace(/\/+$/, '')}/sandbox/card-encryption-key`, deadline);
  const text = await answer.text();
  const key =
    answer.ok && text.length < 16_384
      ? /** @type {{ publicKeyPem?: unknown }} */ (JSON.parse(text)).publicKeyPem
      : undefined;
  if (typeof key !== 'string')
    throw new Error(`${sandboxUrl} answered ${answer.status} for its card encryption key: is it the sandbox?`);
  return key;
}

/** A JSON file of plain inputs. @param {string} path @returns {Record<string, unknown>} */
function readInputs(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${path}: ${/** @type {NodeJS.ErrnoException} */ (error).code ?? 'read error'}`);
  }
  try {
    const value = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {}
  throw new Error(`${path} is not a JSON object of inputs.`);
}

const USAGE =
  'usage: MERCHANT_KEY=... node inputs.mjs <inputs.json> <journey.arazzo.yaml>... [--sandbox <url>] [--wait-for <url>]... [--wait-ms 30000] [--card-key <pem file>]';

/** The command: every workflow of every journey named, their inputs merged into one JSON object on standard output. */
async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      sandbox: { type: 'string' },
      'wait-for': { type: 'string', multiple: true },
      'wait-ms': { type: 'string', default: '30000' },
      'card-key': { type: 'string' },
    },
  });
  const [inputsFile, ...files] = positionals;
  const waitMs = Number(values['wait-ms']);
  if (!inputsFile || files.length === 0 || !Number.isSafeInteger(waitMs) || waitMs < 0)
    throw Object.assign(new Error(USAGE), { usage: true });
  const { card, ...plain } = readInputs(inputsFile);
  const deadline = Date.now() + waitMs;
  const sandbox = values.sandbox;
  const publicKeyPem = values['card-key']
    ? readFileSync(values['card-key'], 'utf8')
    : sandbox
      ? await sandboxCardKey(sandbox, deadline)
      : undefined;
  for (const url of values['wait-for'] ?? []) await answered(url, deadline);
  /** @type {Record<string, unknown>} */
  let inputs = { ...(sandbox ? { sandboxUrl: sandbox.replace(/\/+$/, '') } : {}), ...plain };
  for (const file of files)
    for (const workflowId of workflowIds(file))
      inputs = {
        ...inputs,
        ...(await journeyInputs(file, workflowId, inputs, {
          merchantKey: process.env.MERCHANT_KEY,
          ...(card && publicKeyPem
            ? { card: /** @type {import('gateway-contract').CardData} */ (card), publicKeyPem }
            : {}),
        })),
      };
  process.stdout.write(`${JSON.stringify(inputs)}\n`);
}

// Run as a command (also through a symlinked node_modules): the script's real path is the one started.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  main().catch((/** @type {Error & { usage?: boolean }} */ error) => {
    // One line, never a stack trace or an input's value.
    process.stderr.write(
      `inputs.mjs: ${String(error?.message ?? error)
        .split('\n')[0]
        ?.slice(0, 400)}\n`,
    );
    process.exit(error?.usage ? 2 : 1);
  });
}
