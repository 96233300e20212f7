// The SARIF 2.1.0 JSON Schema (OASIS, as published with Microsoft's SARIF tools), to hold the SARIF
// reports against the standard itself rather than against the fields the tests think of.
import { createRequire } from 'node:module';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);
// CommonJS modules whose default export TypeScript sees as a namespace under nodenext.
const Ajv = require('ajv-draft-04') as new (options: Options) => { compile(schema: unknown): ValidateFunction };
const addFormats = require('ajv-formats') as (ajv: unknown) => void;
const schema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
// One pattern of the published schema (a language tag) is not valid with the `u` flag.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validateSarif = ajv.compile(schema);

/** What in `log` breaks the SARIF 2.1.0 schema, one line a problem; none for a valid log. */
export function sarifProblems(log: unknown): string[] {
  if (validateSarif(log)) return [];
  return (validateSarif.errors ?? [])
    .slice(0, 20)
    .map((e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}
