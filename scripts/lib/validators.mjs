// Precompiled AJV validators, one per operation and direction, as standalone ESM.
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

/** @param {any} doc @param {string} header */
export function buildValidators(doc, header) {
  // Only the component schemas are compiled; the rest of the document is not needed.
  const schemas = {
    openapi: doc.openapi,
    jsonSchemaDialect: doc.jsonSchemaDialect,
    components: { schemas: Object.fromEntries(Object.entries(doc.components.schemas).map(([name, schema]) => [name, constraintsOf(schema)])) },
  };
  /** @type {Record<string, string>} */
  const refs = {};
  /** Per operation and place (query, path), the object of its parameters' values: `initiatePaymentQuery`. */
  /** @type {Record<string, unknown>} */
  const parameterSets = {};
  for (const op of operationsOf(doc)) {
    refs[validatorName(op.operationId, 'request')] = `${DOCUMENT_ID}#/components/schemas/${op.request.schema}`;
    refs[validatorName(op.operationId, 'response')] = `${DOCUMENT_ID}#/components/schemas/${op.response.schema}`;
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
    }
  }
  /** @type {any} */ (schemas.components).parameterSets = parameterSets;
  // The verdict: stops at the first problem (the hot path, and bounded on any input).
  const fast = standaloneCode(createAjv(schemas, { allErrors: false, code: { source: true, esm: true } }), refs);
  // The details: every problem, loaded only when a payload is invalid (CommonJS, so it can be
  // loaded synchronously on demand).
  const detailed = standaloneCode(createAjv(schemas, { allErrors: true, code: { source: true } }), refs);
  // Standalone ESM output still calls require() for AJV's runtime helpers and formats.
  const esm = `// ${header}\nimport { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${fast}`;
  const names = Object.keys(refs).sort();
  const dts = (/** @type {string} */ what) =>
    [
      `// ${header}`,
      '/** An AJV error as the precompiled validators report it (never carrying the failing value). */',
      'export interface CompiledValidatorError {',
      '  instancePath: string;',
      '  schemaPath: string;',
      '  keyword: string;',
      '  params: Record<string, unknown>;',
      '  message?: string;',
      '}',
      `/** A precompiled validator: true when the payload is valid; otherwise \`errors\` says ${what}. */`,
      'export interface CompiledValidator {',
      '  (data: unknown): boolean;',
      '  errors?: CompiledValidatorError[] | null;',
      '}',
      ...names.map((n) => `/** Validates against \`${refs[n].slice(refs[n].indexOf('#'))}\`. */\nexport declare const ${n}: CompiledValidator;`),
      '',
    ].join('\n');
  return {
    'validators.js': esm,
    'validators.d.ts': dts('the first problem'),
    'validators-detailed.cjs': `// ${header}\n${detailed}`,
    'validators-detailed.d.cts': dts('every problem'),
  };
}
