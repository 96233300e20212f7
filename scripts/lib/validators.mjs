// Precompiled AJV validators, one per operation and direction, as standalone code.
import { readFileSync } from 'node:fs';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { createAjv, DOCUMENT_ID } from './ajvBuild.mjs';
import { contractWording, lazyWordingCode, reachableWording } from './contractModules.mjs';
import { operationsOf } from './operationIndex.mjs';
import { resultCatalogOf } from './resultCatalog.mjs';
import { SCHEMA_MAPS, SUBSCHEMAS } from './schemaKeywords.mjs';

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

/** The module beside the validators that holds the formats they run and the count of characters. */
const FORMATS_FILE = 'formats.js';

/**
 * AJV's standalone code made an ES module of static imports only. AJV writes a function the
 * validators call from another module as `require("<module>").name` (with `esm: true` too, ajv#1976):
 * here each such reference to `formatsModule` becomes the binding `name`, imported from it at the
 * top. Any other `require` (one of AJV's runtime helpers that a new keyword would need) stops the
 * generation, so that no generated module needs CommonJS. AJV's `"use strict"` goes too: a module
 * is strict.
 * @param {string} code AJV's standalone code, written with `esm: true`
 * @param {string} formatsModule the specifier the AJV instance was created with
 */
function esModuleCode(code, formatsModule) {
  const reference = `require(${JSON.stringify(formatsModule)}).`;
  /** @type {Set<string>} */
  const bindings = new Set();
  const parts = code.replace(/^"use strict";/, '').split(reference);
  for (const part of parts.slice(1)) {
    const name = /^[A-Za-z_$][\w$]*/.exec(part)?.[0];
    if (!name) throw new Error(`AJV's code takes something unexpected from ${formatsModule}: ${part.slice(0, 40)}`);
    bindings.add(name);
  }
  const body = parts.join('');
  const other = /\brequire\s*\(/.exec(body);
  if (other)
    throw new Error(
      `AJV's code requires a module other than ${formatsModule}: ${body.slice(other.index, other.index + 80)}`,
    );
  const imports = bindings.size
    ? `import { ${[...bindings].sort().join(', ')} } from ${JSON.stringify(formatsModule)};\n`
    : '';
  return `${imports}${body}`;
}

/**
 * The type a validator's `true` proves, as a CompiledValidator's argument: a component schema's
 * generated type (`openapi.d.ts`, the contract's conditional rules included), or none for the
 * parameters' validators, which judge the values given and leave presence to a named check.
 * @param {string} ref @param {string} openapi the specifier of openapi.d.ts from the declaring module
 */
function validatorType(ref, openapi) {
  const schema = /#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
  return schema
    ? `CompiledValidator<import(${JSON.stringify(openapi)}).components["schemas"][${JSON.stringify(schema)}]>`
    : 'CompiledValidator';
}

/** The declarations of a module of validators: each export a CompiledValidator. @param {string} header @param {string} types where CompiledValidator is declared @param {Record<string, string>} exported the validators' names and refs @param {string} [what] */
function declarations(header, types, exported, what = '') {
  return [
    `// ${header}`,
    `import type { CompiledValidator } from ${JSON.stringify(types)};`,
    ...Object.entries(exported).map(
      ([n, ref]) =>
        `/** Validates against \`${ref.slice(ref.indexOf('#'))}\`${what}. */\nexport declare const ${n}: ${validatorType(ref, types.replace('validators.js', 'openapi.js'))};`,
    ),
    '',
  ].join('\n');
}

/**
 * The precompiled validators, ES modules of static imports only (they load as they are in Node,
 * edge runtimes and browsers, and bundlers follow them): `validators.js`, every validator in one
 * module (the package's `./validators`, stopping at the first problem, with AJV's messages), and
 * per operation and direction a module of its own, `validators/<name>.js`: the one validator of
 * that direction's payload, which lists every problem (docs/decisions.md, D-138), a request's
 * validators of its query and path parameters, the wording data of the schemas it reaches
 * (`wording()`, parsed when a problem is first worded) and, for a request, the codes of the
 * operation's result-code table. Each has its declarations (`.d.ts`). They import the formats they
 * run from `formats.js`, a copy of formats.mjs.
 * @param {any} doc @param {string} header
 */
export function buildValidators(doc, header) {
  /** @type {Record<string, { codes: any[] }>} */
  const codeTables = resultCatalogOf(doc);
  const wording = contractWording(doc);
  // Only the component schemas are compiled; the rest of the document is not needed.
  const schemas = {
    openapi: doc.openapi,
    jsonSchemaDialect: doc.jsonSchemaDialect,
    components: {
      schemas: Object.fromEntries(
        Object.entries(doc.components.schemas).map(([name, schema]) => [name, constraintsOf(schema)]),
      ),
    },
  };
  /** @type {Record<string, string>} */
  const refs = {};
  /** Per module (`initiatePaymentRequest`): the validators it exports, by name, and what it holds besides. */
  /** @type {Record<string, { operation: unknown, exported: Record<string, string>, schemas: string[], parameters: string[], codes?: any[], about: string }>} */
  const modules = {};
  /** Per operation and place (query, path), the object of its parameters' values: `initiatePaymentQuery`. */
  /** @type {Record<string, unknown>} */
  const parameterSets = {};
  for (const op of operationsOf(doc)) {
    const request = validatorName(op.operationId, 'request');
    const response = validatorName(op.operationId, 'response');
    refs[request] = `${DOCUMENT_ID}#/components/schemas/${op.request.schema}`;
    refs[response] = `${DOCUMENT_ID}#/components/schemas/${op.response.schema}`;
    const parameterComponents = op.parameters.flatMap((/** @type {any} */ p) => (p.component ? [p.component] : []));
    /** What validation reads of the operation, per direction (src/validation/operationValidation.ts). */
    const about = (/** @type {string} */ schema) => ({
      operationId: op.operationId,
      schema,
      parameters: op.parameters,
      namedChecks: op.namedChecks,
    });
    modules[request] = {
      operation: about(op.request.schema),
      exported: { [request]: refs[request] },
      schemas: [op.request.schema],
      parameters: parameterComponents,
      codes: (codeTables[op.operationId]?.codes ?? []).map((/** @type {any} */ c) => ({
        code: c.code,
        status: c.status,
        messages: c.messages,
      })),
      about: `The request of ${op.operationId}: its validator, its parameters' validators, the wording data of its schemas and the codes of its result-code table.`,
    };
    modules[response] = {
      operation: about(op.response.schema),
      exported: { [response]: refs[response] },
      schemas: [op.response.schema],
      parameters: [],
      about: `The response of ${op.operationId}: its validator and the wording data of its schemas.`,
    };
    for (const where of /** @type {const} */ (['query', 'path'])) {
      const params = op.parameters.filter((/** @type {{ in: string }} */ p) => p.in === where);
      if (params.length === 0) continue;
      const name = `${op.operationId}${where === 'query' ? 'Query' : 'Path'}`;
      // Presence is the named check requiredParameters; these validators judge the values given.
      parameterSets[name] = {
        type: 'object',
        properties: Object.fromEntries(
          params.map((p) => [
            p.name,
            constraintsOf(doc.components.parameters[/** @type {{ component?: string }} */ (p).component ?? '']?.schema),
          ]),
        ),
      };
      refs[name] = `${DOCUMENT_ID}#/components/parameterSets/${name}`;
      modules[request].exported[name] = refs[name];
    }
  }
  /** @type {any} */ (schemas.components).parameterSets = parameterSets;
  const shared = `./${FORMATS_FILE}`;
  const beside = `../${FORMATS_FILE}`;
  // The package's `./validators`: stops at the first problem, with AJV's messages.
  const fast = createAjv(schemas, { allErrors: false, code: { source: true, esm: true } }, shared);
  // One validator per operation and direction, listing every problem; validate() words them itself.
  const every = createAjv(schemas, { allErrors: true, messages: false, code: { source: true, esm: true } }, beside);
  /** @type {Record<string, string>} */
  const files = {};
  files['validators.js'] = `// ${header}\n${esModuleCode(standaloneCode(fast, refs), shared)}`;
  const aboutOperation =
    "/** What validation reads of the operation: its id, this direction's schema, its parameters and its named checks (as generated/operations.js has them). */";
  const aboutWording =
    "/** The wording data of the schemas this module validates (the contract's, as generated/contract.js holds it, for these schemas and parameters only). */";
  for (const [name, part] of Object.entries(modules).sort(([a], [b]) => a.localeCompare(b))) {
    const codes = part.codes
      ? [`export const codes = [\n${part.codes.map((c) => `  ${JSON.stringify(c)},`).join('\n')}\n];`]
      : [];
    files[`validators/${name}.js`] = [
      `// ${header}`,
      `// ${part.about}`,
      esModuleCode(standaloneCode(every, part.exported), beside),
      aboutOperation,
      `export const operation = ${JSON.stringify(part.operation)};`,
      ...codes,
      ...lazyWordingCode(reachableWording(wording, part.schemas, part.parameters), 'wording', aboutWording),
      '',
    ].join('\n');
    files[`validators/${name}.d.ts`] = [
      declarations(header, '../validators.js', part.exported, ', reporting every problem').trimEnd(),
      aboutOperation,
      `export declare const operation: ${JSON.stringify(part.operation)};`,
      ...(part.codes
        ? [
            "/** The codes of the operation's result-code table: code, status and the message(s) the service answers. */",
            'export declare const codes: readonly { readonly code: string; readonly status: string; readonly messages: readonly string[] }[];',
          ]
        : []),
      aboutWording,
      'export declare function wording(): { readonly components: { readonly schemas: Readonly<Record<string, unknown>>; readonly parameters: Readonly<Record<string, unknown>> } };',
      '',
    ].join('\n');
  }
  files[FORMATS_FILE] =
    `// ${header} Copied from scripts/lib/formats.mjs.\n${readFileSync(new URL('./formats.mjs', import.meta.url), 'utf8')}`;
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
    '/**',
    ' * A precompiled validator: true when the payload is valid, and then the payload is a `T` (the',
    " * schema's generated type); otherwise `errors` says the first problem.",
    ' */',
    'export interface CompiledValidator<T = unknown> {',
    '  (data: unknown): data is T;',
    '  errors?: CompiledValidatorError[] | null;',
    '}',
    ...names.map(
      (n) =>
        `/** Validates against \`${refs[n].slice(refs[n].indexOf('#'))}\`. */\nexport declare const ${n}: ${validatorType(refs[n], './openapi.js')};`,
    ),
    '',
  ].join('\n');
  return files;
}
