// The inputs of a journey that `redocly respect` cannot compute itself (docs/decisions.md, D-99):
// the head signature of each signed step, the CHECKSUM of the exact body text respect sends, and
// encryptedCardData, the card encrypted with the service's public key. Computed with the package's
// own functions. The output holds a signature and encrypted card data: pass it to respect through
// the environment (REDOCLY_CLI_RESPECT_INPUT), never in a committed file or on a command line.
//
//   MERCHANT_KEY=... node openapi/journeys/inputs.mjs <journey.arazzo.yaml> <workflowId> <inputs.json> [--card-key <pem file>]
//
// <inputs.json> holds the workflow's plain inputs; with --card-key, its member "card"
// ({cardNumber, expiryMonth, expiryYear, securityCode}) is encrypted into encryptedCardData and left out.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { encryptCardData, generateSignature } from 'gateway-contract';
import { parse } from 'yaml';

const WHOLE_INPUT = /^\$inputs\.([A-Za-z0-9_]+)$/;

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

/**
 * The workflow's inputs with the computed ones added: for each step whose head.signature is
 * `$inputs.<name>`, that input is the CHECKSUM of `JSON.stringify(body)` under the merchant key
 * (the text respect sends); with a card and the service's public key, encryptedCardData.
 * @param {string} file the journey (an Arazzo file)
 * @param {string} workflowId
 * @param {Record<string, unknown>} given the workflow's plain inputs
 * @param {{ merchantKey?: string | undefined, card?: import('gateway-contract').CardData, publicKeyPem?: string }} [secrets]
 * @returns {Promise<Record<string, unknown>>}
 */
export async function journeyInputs(file, workflowId, given, { merchantKey, card, publicKeyPem } = {}) {
  /** @type {{ workflows?: { workflowId: string, inputs?: { properties?: Record<string, unknown> }, steps: { stepId: string, requestBody?: { payload?: any } }[] }[] }} */
  const doc = parse(readFileSync(file, 'utf8'));
  const workflow = doc.workflows?.find((w) => w.workflowId === workflowId);
  if (!workflow) throw new Error(`${file} has no workflow ${workflowId}.`);
  const inputs = { ...given };
  // Only for a workflow that takes it: each encryption is another ciphertext (RSA-OAEP is randomised).
  if (card && publicKeyPem && workflow.inputs?.properties?.encryptedCardData) inputs.encryptedCardData = await encryptCardData(card, publicKeyPem);
  for (const step of workflow.steps) {
    const payload = step.requestBody?.payload;
    const m = WHOLE_INPUT.exec(payload?.head?.signature ?? '');
    if (!m) continue;
    if (!merchantKey) throw new Error(`The step ${step.stepId} is signed: give the merchant key (MERCHANT_KEY).`);
    inputs[m[1]] = await generateSignature(JSON.stringify(bodyOf(payload.body, inputs, `${step.stepId}/body`)), merchantKey);
  }
  return inputs;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { 'card-key': { type: 'string' } } });
  const [file, workflowId, inputsFile] = positionals;
  if (!file || !workflowId || !inputsFile) {
    process.stderr.write('usage: MERCHANT_KEY=... node openapi/journeys/inputs.mjs <journey.arazzo.yaml> <workflowId> <inputs.json> [--card-key <pem file>]\n');
    process.exit(2);
  }
  const { card, ...given } = JSON.parse(readFileSync(inputsFile, 'utf8'));
  const publicKeyPem = values['card-key'] === undefined ? undefined : readFileSync(values['card-key'], 'utf8');
  const inputs = await journeyInputs(file, workflowId, given, {
    merchantKey: process.env.MERCHANT_KEY,
    ...(card && publicKeyPem ? { card, publicKeyPem } : {}),
  });
  process.stdout.write(`${JSON.stringify(inputs)}\n`);
}
