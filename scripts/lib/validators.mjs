// Precompiled AJV validators, one per operation and direction, as standalone code.
import { readFileSync } from 'node:fs';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { createAjv, DOCUMENT_ID } from './ajvBuild.mjs';
import { operationsOf } from './operationIndex.mjs';

const standaloneCode = /** @type {any} */ (standaloneCodeModule).default ?? standaloneCodeModule;

/** The export name of a validator: `initiatePaymentRequest`, `initiatePaymentResponse`. */
export function validatorName(/** @type {string} */ operationId, /** @type {'request'|'response'} */ direction) {
  return `${operationId}${direction === 'request' ? 'Request' : 'Response'}`;
}

/** Keywords that annotate a schema without constraining it. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'examples',
  'example',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'externalDocs',
  'xml',
]);
/** Keywords whose value is a map of names to schemas (the names are data, never annotations). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
/** Keywords whose value is a schema or a list of schemas. */
const SUBSCHEMAS = new Set([
  'items',
  'prefixItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'allOf',
  'anyOf',
  'oneOf',
]);

/**
 * A schema without its annotations and vendor extensions: what the validators need. The
 * validators embed the schemas they check; descriptions and examples would only make them larger
 * and slower to load. Error messages read titles and descriptions from the bundled contract.
 * @param {any} schema @returns {any}
 */
function constraintsOf(schema) {
  if (Array.isArray(schema)) return schema.map(constraintsOf);
  if (!schema || typeof schema !== 'object') return schema;
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    if (SCHEMA_MAPS.has(key) && value && typeof value === 'object')
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, constraintsOf(sub)]));
    else if (SUBSCHEMAS.has(key)) out[key] = constraintsOf(value);
    else out[key] = value;
  }
  return out;
}

/** Where the precompiled validators find the formats ajv-formats would check with a function. */
const FORMATS_FILE = 'formats.cjs';

/**
 * The precompiled validators: `validators.js`, every validator in one ES module (the package's
 * `./validators`), and per operation and direction a CommonJS module of its own that `validate()`
 * loads the first time it meets that operation: `validators/<name>.cjs` stops at the first problem
 * (the hot path, and bounded on any input), `validators/<name>.detailed.cjs` reports every problem
 * and is loaded only when a payload is invalid. A request's module holds the validators of its
 * query and path parameters too. CommonJS, so that they load synchronously on demand.
 * @param {any} doc @param {string} header
 */
export function buildValidators(doc, header) {
  // Only the component schemas are compiled; the rest of the document is not needed.
  const schemas = {
    openapi: doc.openapi,
    jsonSchemaDialect: doc.jsonSchemaDialect,
    components: { schemas: Object.fromEntries(Object.entries(doc.components.schemas).map(([name, schema]) => [name, constraintsOf(schema)])) },
  };
  /** @type {Record<string, string>} */
  const refs = {};
  /** Per module (`initiatePaymentRequest`): the validators it exports, by name. */
  /** @type {Record<string, Record<string, string>>} */
  const modules = {};
  /** Per operation and place (query, path), the object of its parameters' values: `initiatePaymentQuery`. */
  /** @type {Record<string, unknown>} */
  const parameterSets = {};
  for (const op of operationsOf(doc)) {
    const request = validatorName(op.operationId, 'request');
    const response = validatorName(op.operationId, 'response');
    refs[request] = `${DOCUMENT_ID}#/components/schemas/${op.request.schema}`;
    refs[response] = `${DOCUMENT_ID}#/components/schemas/${op.response.schema}`;
    modules[request] = { [request]: refs[request] };
    modules[response] = { [response]: refs[response] };
    for (const where of /** @type {const} */ (['query', 'path'])) {
      const params = op.parameters.filter((/** @type {{ in: string }} */ p) => p.in === where);
      if (params.length === 0) continue;
      const name = `${op.operationId}${where === 'query' ? 'Query' : 'Path'}`;
      // Presence is the named check requiredParameters; these validators judge the values given.
      parameterSets[name] = {
        type: 'object',
        properties: Object.fromEntries(
          params.map((p) => [p.name, constraintsOf(doc.components.parameters[/** @type {{ component?: string }} */ (p).component ?? '']?.schema)]),
        ),
      };
      refs[name] = `${DOCUMENT_ID}#/components/parameterSets/${name}`;
      modules[request][name] = refs[name];
    }
  }
  /** @type {any} */ (schemas.components).parameterSets = parameterSets;
  // The verdict: stops at the first problem. The details: every problem.
  const fast = createAjv(schemas, { allErrors: false, code: { source: true, esm: true } }, `./${FORMATS_FILE}`);
  // validate() words every problem itself: AJV's messages are left out of the modules it loads.
  const fastPerModule = createAjv(schemas, { allErrors: false, messages: false, code: { source: true } }, `../${FORMATS_FILE}`);
  const detailed = createAjv(schemas, { allErrors: true, messages: false, code: { source: true } }, `../${FORMATS_FILE}`);
  /** @type {Record<string, string>} */
  const files = {};
  // Standalone ESM output still calls require() for AJV's runtime helpers and the formats.
  files['validators.js'] =
    `// ${header}\nimport { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${standaloneCode(fast, refs)}`;
  for (const [name, exported] of Object.entries(modules).sort(([a], [b]) => a.localeCompare(b))) {
    files[`validators/${name}.cjs`] = `// ${header}\n${standaloneCode(fastPerModule, exported)}`;
    files[`validators/${name}.detailed.cjs`] = `// ${header}\n${standaloneCode(detailed, exported)}`;
  }
  files[FORMATS_FILE] = `// ${header} Copied from scripts/lib/formats.cjs.\n${readFileSync(new URL('./formats.cjs', import.meta.url), 'utf8')}`;
  const names = Object.keys(refs).sort();
  files['validators.d.ts'] = [
    `// ${header}`,
    '/** An AJV error as the precompiled validators report it (never carrying the failing value). */',
    'export interface CompiledValidatorError {',
    '  instancePath: string;',
    '  schemaPath: string;',
    '  keyword: string;',
    '  params: Record<string, unknown>;',
    '  message?: string;',
    '}',
    '/** A precompiled validator: true when the payload is valid; otherwise `errors` says the first problem. */',
    'export interface CompiledValidator {',
    '  (data: unknown): boolean;',
    '  errors?: CompiledValidatorError[] | null;',
    '}',
    ...names.map((n) => `/** Validates against \`${refs[n].slice(refs[n].indexOf('#'))}\`. */\nexport declare const ${n}: CompiledValidator;`),
    '',
  ].join('\n');
  return files;
}
