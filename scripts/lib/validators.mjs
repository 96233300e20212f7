// Precompiled AJV validators, one per operation and direction, as standalone ESM.
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { createAjv, DOCUMENT_ID } from '../../src/validation/ajvBuild.js';
import { operationsOf } from './operationIndex.mjs';

const standaloneCode = /** @type {any} */ (standaloneCodeModule).default ?? standaloneCodeModule;

/** The export name of a validator: `initiatePaymentRequest`, `initiatePaymentResponse`. */
export function validatorName(/** @type {string} */ operationId, /** @type {'request'|'response'} */ direction) {
  return `${operationId}${direction === 'request' ? 'Request' : 'Response'}`;
}

/** @param {any} doc @param {string} header */
export function buildValidators(doc, header) {
  /** @type {Record<string, string>} */
  const refs = {};
  for (const op of operationsOf(doc)) {
    refs[validatorName(op.operationId, 'request')] = `${DOCUMENT_ID}#/components/schemas/${op.request.schema}`;
    refs[validatorName(op.operationId, 'response')] = `${DOCUMENT_ID}#/components/schemas/${op.response.schema}`;
  }
  // The verdict: stops at the first problem (the hot path, and bounded on any input).
  const fast = standaloneCode(createAjv(doc, { allErrors: false, code: { source: true, esm: true } }), refs);
  // The details: every problem, loaded only when a payload is invalid (CommonJS, so it can be
  // loaded synchronously on demand).
  const detailed = standaloneCode(createAjv(doc, { allErrors: true, code: { source: true } }), refs);
  // Standalone ESM output still calls require() for AJV's runtime helpers and formats.
  const esm = `// ${header}\nimport { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${fast}`;
  const names = Object.keys(refs).sort();
  const dts = (/** @type {string} */ what) => [
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
