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
  const ajv = createAjv(doc, { code: { source: true, esm: true } });
  /** @type {Record<string, string>} */
  const refs = {};
  for (const op of operationsOf(doc)) {
    refs[validatorName(op.operationId, 'request')] = `${DOCUMENT_ID}#/components/schemas/${op.request.schema}`;
    refs[validatorName(op.operationId, 'response')] = `${DOCUMENT_ID}#/components/schemas/${op.response.schema}`;
  }
  let code = standaloneCode(ajv, refs);
  // Standalone ESM output still calls require() for AJV's runtime helpers and formats.
  code = `// ${header}\nimport { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${code}`;
  const names = Object.keys(refs).sort();
  const dts = [
    `// ${header}`,
    '/** An AJV error as the precompiled validators report it (never carrying the failing value). */',
    'export interface CompiledValidatorError {',
    '  instancePath: string;',
    '  schemaPath: string;',
    '  keyword: string;',
    '  params: Record<string, unknown>;',
    '  message?: string;',
    '}',
    '/** A precompiled validator: true when the payload is valid; otherwise `errors` says why. */',
    'export interface CompiledValidator {',
    '  (data: unknown): boolean;',
    '  errors?: CompiledValidatorError[] | null;',
    '}',
    ...names.map((n) => `/** Validates against \`${refs[n].slice(refs[n].indexOf('#'))}\`. */\nexport declare const ${n}: CompiledValidator;`),
    '',
  ];
  return { 'validators.js': code, 'validators.d.ts': dts.join('\n') };
}
