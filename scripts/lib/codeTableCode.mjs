// A result-code table written as one lookup instead of one branch of code per code (docs/decisions.md,
// D-142). Only the generator and the runtime compilation of tests use this; the generated validators
// carry the code it writes.
//
// Kept for benchmark targets (bench/bundle.mjs): the root entry bundled and minified at most 600 KB,
// one operation's entry (`/validators/<operationId>`) at most 150 KB. The contract gives each
// response's result codes as a `oneOf` of one branch per code (`{ resultCode: { const },
// resultStatus: { const }, resultMsg: { type: string } }`), which the generator gives a
// `discriminator` on the code (ajvBuild.mjs). AJV writes the checks of every branch: five tables of
// 13 to 56 codes were 280 KB of the 625 KB of validators, minified. Here a table is a Map from the
// code to its branch's index and status, and the branch's three checks are written once. The
// verdicts and the errors are AJV's own, error for error (the instance path, the schema path into the
// branch, the keyword and its params): test/validation/codeTables.test.ts holds them equal to AJV's
// code, the plain form, on generated objects. It reaches into AJV's internals (its code generator
// and the names of its generated code), so an upgrade of AJV is checked against that test.
//
// Only the validators that list every problem take this code; the one stopping at the first problem
// (generated/validators.js) keeps AJV's.
import { _, getProperty, str, strConcat, stringify } from 'ajv/dist/compile/codegen/index.js';
import namesModule from 'ajv/dist/compile/names.js';
import typesModule from 'ajv/dist/vocabularies/discriminator/types.js';

const names = /** @type {any} */ (namesModule).default ?? namesModule;
const { DiscrError } = /** @type {any} */ (typesModule);

/** Keys that annotate a schema without constraining it (the contract's titles, descriptions, examples). */
const annotation = (/** @type {string} */ key) =>
  key === 'title' || key === 'description' || key === 'examples' || key === '$comment' || key.startsWith('x-');

/** The keys of a schema that constrain, sorted. @param {object} schema */
const constraintKeys = (schema) =>
  Object.keys(schema)
    .filter((k) => !annotation(k))
    .sort()
    .join(',');

/** A field name written in a path as it is (no escaping needed). */
const PLAIN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The table of a `oneOf` whose every branch is `{ type: object, required: [tag, status],
 * properties: { tag: { const }, status: { const }, message?: { type: string } } }` with the same
 * names: the tag, status and message names and, per code, its branch's index and status; or null.
 * @param {unknown} oneOf @param {string} tag the discriminator's property
 * @returns {{ tag: string, status: string, message: string | undefined, rows: [string, [number, string]][] } | null}
 */
export function codeTableOf(oneOf, tag) {
  if (!Array.isArray(oneOf) || oneOf.length < 2 || !PLAIN.test(tag)) return null;
  /** @type {string | undefined} */
  let status;
  /** @type {string | undefined} */
  let message;
  /** @type {[string, [number, string]][]} */
  const rows = [];
  for (const [index, branch] of oneOf.entries()) {
    if (!branch || typeof branch !== 'object') return null;
    const { type, required, properties } = /** @type {any} */ (branch);
    if (
      constraintKeys(branch) !== 'properties,required,type' ||
      type !== 'object' ||
      !properties ||
      typeof properties !== 'object'
    )
      return null;
    if (!Array.isArray(required) || required.length !== 2 || required[0] !== tag) return null;
    status ??= required[1];
    if (required[1] !== status || typeof status !== 'string' || !PLAIN.test(status)) return null;
    const others = Object.keys(properties).filter((k) => k !== tag && k !== status);
    if (others.length > 1) return null;
    message ??= others[0];
    if (others[0] !== message || (message !== undefined && !PLAIN.test(message))) return null;
    const isConst = (/** @type {any} */ s) => s && constraintKeys(s) === 'const' && typeof s.const === 'string';
    if (!isConst(properties[tag]) || !isConst(properties[status])) return null;
    const text = properties[message ?? ''];
    if (message !== undefined && !(text && constraintKeys(text) === 'type' && text.type === 'string')) return null;
    // The properties in the order AJV checks them: the tag, the status, the message.
    if (Object.keys(properties).join(',') !== [tag, status, ...(message ? [message] : [])].join(',')) return null;
    rows.push([properties[tag].const, [index, properties[status].const]]);
  }
  if (new Set(rows.map(([code]) => code)).size !== rows.length) return null;
  return { tag, status: /** @type {string} */ (status), message, rows };
}

/**
 * The code of `discriminator`: for a code table, one lookup and the branch's checks written once;
 * for any other `oneOf` (or a validator stopping at the first problem), AJV's code.
 * @param {(cxt: any) => void} original AJV's code of the keyword
 */
export function codeTableDiscriminatorCode(original) {
  return (/** @type {any} */ cxt) => {
    const { gen, data, schema, parentSchema, it } = cxt;
    const table = it.allErrors ? codeTableOf(parentSchema.oneOf, schema.propertyName) : null;
    if (!table) {
      original(cxt);
      return;
    }
    const tagName = table.tag;
    const valid = gen.let('valid', false);
    const tag = gen.const('tag', _`${data}${getProperty(tagName)}`);
    const map = gen.scopeValue('obj', {
      ref: new Map(table.rows),
      code: _`new Map(${stringify(table.rows)})`,
    });
    gen.if(
      _`typeof ${tag} == "string"`,
      () => {
        const row = gen.const('row', _`${map}.get(${tag})`);
        gen.if(
          _`${row} === undefined`,
          () => cxt.error(false, { discrError: DiscrError.Mapping, tag, tagName }),
          () => branchChecks(cxt, table, row, valid),
        );
      },
      () => cxt.error(false, { discrError: DiscrError.Tag, tag, tagName }),
    );
    cxt.ok(valid);
  };
}

/**
 * The checks of the branch the code selects, as AJV writes them for it: `required` (the status),
 * then `properties` (the status's `const`, the message's `type`); the tag's own checks hold.
 * @param {any} cxt @param {NonNullable<ReturnType<typeof codeTableOf>>} table @param {any} row @param {any} valid
 */
function branchChecks(cxt, table, row, valid) {
  const { gen, data, it } = cxt;
  const before = gen.const('_errs', names.errors);
  const branch = (/** @type {string} */ rest) => _`${it.errSchemaPath + '/oneOf/'} + ${row}[0] + ${rest}`;
  const at = (/** @type {string} */ field) => strConcat(names.instancePath, str`${it.errorPath}/${field}`);
  const status = gen.const('status', _`${data}${getProperty(table.status)}`);
  gen.if(_`${status} === undefined`, () =>
    addError(cxt, {
      instancePath: strConcat(names.instancePath, it.errorPath),
      schemaPath: branch('/required'),
      keyword: 'required',
      params: _`{missingProperty: ${table.status}}`,
    }),
  );
  gen.if(_`${status} !== undefined && ${row}[1] !== ${status}`, () =>
    addError(cxt, {
      instancePath: at(table.status),
      schemaPath: branch(`/properties/${table.status}/const`),
      keyword: 'const',
      params: _`{allowedValue: ${row}[1]}`,
    }),
  );
  if (table.message !== undefined) {
    const message = gen.const('message', _`${data}${getProperty(table.message)}`);
    gen.if(_`${message} !== undefined && typeof ${message} !== "string"`, () =>
      addError(cxt, {
        instancePath: at(/** @type {string} */ (table.message)),
        schemaPath: branch(`/properties/${table.message}/type`),
        keyword: 'type',
        params: _`{type: "string"}`,
      }),
    );
  }
  gen.assign(valid, _`${before} === ${names.errors}`);
}

/**
 * Appends one error as AJV's generated code does (`vErrors`, `errors`), with the given keyword and
 * paths: `cxt.error()` would name the discriminator as the keyword.
 * @param {any} cxt @param {{ instancePath: any, schemaPath: any, keyword: string, params: any }} error
 */
function addError(cxt, error) {
  const { gen } = cxt;
  const err = gen.const(
    'err',
    _`{instancePath: ${error.instancePath}, schemaPath: ${error.schemaPath}, keyword: ${error.keyword}, params: ${error.params}}`,
  );
  gen.if(
    _`${names.vErrors} === null`,
    () => gen.assign(names.vErrors, _`[${err}]`),
    () => gen.code(_`${names.vErrors}.push(${err})`),
  );
  gen.code(_`${names.errors}++`);
}
