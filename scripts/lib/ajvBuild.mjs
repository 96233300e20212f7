// How the contract becomes AJV validators. Used by the generator (precompiled, standalone code)
// and by tests and benchmarks that compile at runtime. One place, so both agree.
import { _, Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fullFormatsModule from 'ajv-formats/dist/formats.js';
import { codeTableDiscriminatorCode } from './codeTableCode.mjs';
import { characterCount, exactFormats, patternRegExp } from './formats.mjs';
import { fasterKeywordCode } from './keywordCode.mjs';

const addFormats = /** @type {any} */ (addFormatsModule).default ?? addFormatsModule;
const { fullFormats } = /** @type {any} */ (fullFormatsModule);

/**
 * ajv-formats' formats that are one regular expression (or none at all): the validators carry them
 * as they are. Those it checks with a function are ours (formats.mjs), exact and faster; any other
 * function format is left unknown, so that a contract using one fails to compile rather than
 * silently getting another check.
 */
const REGEX_FORMATS = Object.keys(fullFormats).filter((name) => {
  const def = fullFormats[name];
  return !(name in exactFormats) && (def === true || def instanceof RegExp || (def && def.validate instanceof RegExp));
});

/** The id under which the bundled document is registered; schema refs are `${DOCUMENT_ID}#/...`. */
export const DOCUMENT_ID = 'openapi.json';

/** OpenAPI keywords that are not JSON Schema, and the document's own root keys. */
const OPENAPI_KEYWORDS = ['example', 'xml', 'externalDocs'];

/**
 * Returns a copy of the bundled document made ready for AJV: where every branch of a `oneOf`
 * pins the same required property with `const`, an AJV `discriminator` is added so that a
 * failure reports the one branch the tag selects instead of every branch. Under a discriminator, a
 * branch's property whose schema is the object's own for that property (`cardInfo` of a card
 * payment) is left to the object: the selected branch checked it a second time and reported its
 * problems twice, and no other branch runs. The branch still requires it (D-143).
 * @param {any} doc the bundled OpenAPI document
 * @param {{ branchesRepeat?: boolean }} [forms] `branchesRepeat: true`: the branches keep those
 *   properties (the plain form test/validation/prepare.test.ts compares with)
 */
export function prepareDocument(doc, { branchesRepeat = false } = {}) {
  const copy = structuredClone(doc);
  walk(copy, (node) => {
    if (Array.isArray(node.oneOf) && !node.discriminator) {
      const tag = commonConstTag(node);
      if (tag) node.discriminator = { propertyName: tag };
    }
    if (!branchesRepeat && node.discriminator && node.properties)
      for (const branch of node.oneOf) dropRepeatedProperties(node, branch);
  });
  return copy;
}

/**
 * Removes from a branch the properties whose schema is the object's own, unless the branch has
 * its own rule on unlisted properties (where the list matters). @param {any} node @param {any} branch
 */
function dropRepeatedProperties(node, branch) {
  if (!branch?.properties || 'additionalProperties' in branch || 'unevaluatedProperties' in branch) return;
  for (const [name, schema] of Object.entries(branch.properties))
    if (name in node.properties && JSON.stringify(schema) === JSON.stringify(node.properties[name]))
      delete branch.properties[name];
}

/** @param {any} node */
function commonConstTag(node) {
  /** @type {string[] | null} */
  let candidates = null;
  for (const branch of node.oneOf) {
    if (!branch || typeof branch !== 'object' || !branch.properties) return null;
    const tags = Object.keys(branch.properties).filter(
      (k) =>
        branch.properties[k] &&
        typeof branch.properties[k] === 'object' &&
        'const' in branch.properties[k] &&
        (branch.required ?? []).includes(k),
    );
    candidates = candidates === null ? tags : candidates.filter((t) => tags.includes(t));
  }
  const tag = candidates?.[0];
  if (!tag) return null;
  const values = node.oneOf.map((/** @type {any} */ b) => b.properties[tag].const);
  return new Set(values).size === values.length && values.every((/** @type {unknown} */ v) => typeof v === 'string')
    ? tag
    : null;
}

/** @param {any} node @param {(n: any) => void} visit */
function walk(node, visit) {
  if (!node || typeof node !== 'object') return;
  if (!Array.isArray(node)) visit(node);
  for (const value of Array.isArray(node) ? node : Object.values(node)) walk(value, visit);
}

/** Every key beginning with `x-` anywhere in the document, and the document's root keys. */
function extraKeywords(/** @type {any} */ doc) {
  const keys = new Set([...OPENAPI_KEYWORDS, ...Object.keys(doc)]);
  walk(doc, (node) => {
    for (const k of Object.keys(node)) if (k.startsWith('x-')) keys.add(k);
  });
  return [...keys].sort();
}

/**
 * A strict AJV (JSON Schema 2020-12) holding the prepared document.
 * `allErrors` reports every problem at once; `verbose` stays off so that no error ever carries
 * the value that failed (card numbers, tokens, signatures).
 * @param {any} doc the bundled OpenAPI document
 * @param {Record<string, unknown>} [options] extra AJV options (the generator passes `code`)
 * @param {string} [runtimeModule] the module generated code takes the formats and the count of
 *   characters from (the generator's copy of formats.mjs in generated/, `../formats.js` from
 *   generated/validators/). AJV's standalone code writes `require("<module>").name` for them; the
 *   generator turns each into a binding of a static import (validators.mjs).
 * @param {{ codeTables?: boolean, branchesRepeat?: boolean }} [forms] `codeTables: false`: AJV's own
 *   code for result-code tables (codeTableCode.mjs); `branchesRepeat: true`: see prepareDocument
 */
export function createAjv(
  doc,
  options = {},
  runtimeModule = './formats.mjs',
  { codeTables = true, branchesRepeat = false } = {},
) {
  const prepared = prepareDocument(doc, { branchesRepeat });
  const ajv = new Ajv2020({
    strict: true,
    strictRequired: false,
    allErrors: true,
    discriminator: true,
    verbose: false,
    ...options,
  });
  // Where generated code finds the function formats; ajv-formats would otherwise point it at its own.
  /** @type {{ formats?: unknown }} */ (ajv.opts.code).formats = _`require(${runtimeModule}).exactFormats`;
  fasterKeywordCode(ajv, characterCount, runtimeModule);
  // Patterns through formats.mjs's patternRegExp: the printable-text pattern as a loop (AJV's
  // `code.regExp` hook: the generated code calls it where it would call `new RegExp`).
  /** @type {{ regExp?: unknown }} */ (ajv.opts.code).regExp = Object.assign(
    (/** @type {string} */ pattern, /** @type {string} */ flags) => patternRegExp(pattern, flags),
    { code: `require(${JSON.stringify(runtimeModule)}).patternRegExp` },
  );
  // A result-code table as one lookup (codeTableCode.mjs); `codeTables: false` is the plain form its test compares with.
  if (codeTables) {
    const discriminator = /** @type {any} */ (ajv.RULES.all).discriminator;
    if (!discriminator?.definition?.code) throw new Error('AJV has no discriminator keyword to adjust');
    discriminator.definition.code = codeTableDiscriminatorCode(discriminator.definition.code);
  }
  addFormats(ajv, { formats: REGEX_FORMATS, keywords: true });
  for (const [name, def] of Object.entries(exactFormats)) ajv.addFormat(name, /** @type {any} */ (def));
  ajv.addVocabulary(extraKeywords(prepared).filter((k) => !ajv.getKeyword(k)));
  ajv.addSchema(prepared, DOCUMENT_ID);
  return ajv;
}
