// Two of AJV's keywords written as faster code with the same verdicts and the same errors
// (docs/decisions.md, D-63). Only the generator and the runtime compilation of tests use this; the
// generated validators carry the code it writes.
//
// Kept for a benchmark target (D-72): a valid request is validated in at most 0.5x JSON.parse of
// its text (bench/validation.mjs); with AJV's own code for these keywords, initiatePayment,
// preAuthorize and tokenizeCard miss it. It reaches into AJV's internals (its code generator and
// keyword helpers), so an upgrade of AJV is checked against this file: test/validation/formats.test.ts holds
// its verdicts and errors equal to AJV's own code, the plain form.
//
// `additionalProperties`: AJV's own code (ajv 8.20, MIT), unchanged but for one line. For a schema
// of more than eight properties AJV calls `hasOwnProperty` on the schema's property map for each
// key of the data, which costs about twice the comparisons it writes for smaller schemas
// (`key === "mid" || key === "orderId" || ...`); here every size gets the comparisons. A key is
// listed either way exactly when it is one of the schema's property names (`__proto__` is never
// one, under both).
//
// `$ref`: AJV's own code (ajv 8.20, MIT), unchanged but for one line. Where a referenced schema is
// a function of its own (it holds references itself), AJV adds the function's errors to the
// caller's with `vErrors.concat(...)`, a copy of every error so far at each call: a payload whose
// 16 000 array items each break a rule of such a schema took 2.4 s, eight times the time of 8 000
// items (test/validation/hostile.process.test.ts). Here they are pushed, in the same order: linear.
// (Kept for that bound, not for speed: a validator that lists every problem must stay linear.)
//
// `minLength` and `maxLength` count characters (code points) with a loop over the whole string,
// whatever its length: 350 iterations for an `encryptedCardData` that must not be empty. A string
// of n UTF-16 units holds between n/2 and n code points, so its length alone decides unless it lies
// between the limit and twice the limit; only then are the characters counted.
import { _, Name, nil, not, or, stringify } from 'ajv/dist/compile/codegen/index.js';
import compileModule from 'ajv/dist/compile/index.js';
import namesModule from 'ajv/dist/compile/names.js';
import refErrorModule from 'ajv/dist/compile/ref_error.js';
import { alwaysValidSchema, mergeEvaluated, Type, useFunc } from 'ajv/dist/compile/util.js';
import { allSchemaProperties, callValidateCode, usePattern } from 'ajv/dist/vocabularies/code.js';

const names = /** @type {any} */ (namesModule).default ?? namesModule;
const { resolveRef, SchemaEnv } = /** @type {any} */ (compileModule);
const MissingRefError = /** @type {any} */ (refErrorModule).default ?? refErrorModule;

/**
 * The code of `additionalProperties` (AJV's, with comparisons for any number of properties).
 * @param {any} cxt AJV's keyword context
 */
function additionalPropertiesCode(cxt) {
  const { gen, schema, parentSchema, data, errsCount, it } = cxt;
  if (!errsCount) throw new Error('ajv implementation error');
  const { allErrors, opts } = it;
  it.props = true;
  if (opts.removeAdditional !== 'all' && alwaysValidSchema(it, schema)) return;
  const props = allSchemaProperties(parentSchema.properties);
  const patProps = allSchemaProperties(parentSchema.patternProperties);
  gen.forIn('key', data, (/** @type {any} */ key) => {
    if (!props.length && !patProps.length) additionalPropertyCode(key);
    else gen.if(isAdditional(key), () => additionalPropertyCode(key));
  });
  cxt.ok(_`${errsCount} === ${names.errors}`);

  /** @param {any} key */
  function isAdditional(key) {
    // The one change: AJV writes `hasOwnProperty.call(schema.properties, key)` past 8 properties.
    let definedProp = props.length ? or(...props.map((p) => _`${key} === ${p}`)) : nil;
    if (patProps.length) definedProp = or(definedProp, ...patProps.map((p) => _`${usePattern(cxt, p)}.test(${key})`));
    return not(definedProp);
  }

  /** @param {any} key */
  function deleteAdditional(key) {
    gen.code(_`delete ${data}[${key}]`);
  }

  /** @param {any} key */
  function additionalPropertyCode(key) {
    if (opts.removeAdditional === 'all' || (opts.removeAdditional && schema === false)) {
      deleteAdditional(key);
      return;
    }
    if (schema === false) {
      cxt.setParams({ additionalProperty: key });
      cxt.error();
      if (!allErrors) gen.break();
      return;
    }
    if (typeof schema === 'object' && !alwaysValidSchema(it, schema)) {
      const valid = gen.name('valid');
      if (opts.removeAdditional === 'failing') {
        applyAdditionalSchema(key, valid, false);
        gen.if(not(valid), () => {
          cxt.reset();
          deleteAdditional(key);
        });
      } else {
        applyAdditionalSchema(key, valid);
        if (!allErrors) gen.if(not(valid), () => gen.break());
      }
    }
  }

  /** @param {any} key @param {any} valid @param {boolean} [errors] */
  function applyAdditionalSchema(key, valid, errors) {
    /** @type {Record<string, unknown>} */
    const subschema = { keyword: 'additionalProperties', dataProp: key, dataPropType: Type.Str };
    if (errors === false) Object.assign(subschema, { compositeRule: true, createErrors: false, allErrors: false });
    cxt.subschema(subschema, valid);
  }
}

/**
 * The code of `minLength` and `maxLength` with a constant limit: the string's length first, its
 * characters counted only when the length cannot decide. Other forms (`$data`) keep AJV's code.
 * @param {(cxt: any) => void} original AJV's code of the keyword
 * @param {((s: string) => number) & { code: string }} count the counting function and the code that loads it
 */
function limitLengthCode(original, count) {
  return (/** @type {any} */ cxt) => {
    const { keyword, data, schema, $data, it } = cxt;
    if ($data || typeof schema !== 'number' || !Number.isSafeInteger(schema) || it.opts.unicode === false) {
      original(cxt);
      return;
    }
    const counted = _`${useFunc(cxt.gen, count)}(${data})`;
    // n units hold at least ceil(n/2) code points and at most n.
    if (keyword === 'minLength')
      cxt.fail(_`${data}.length < ${schema} || (${data}.length < ${2 * schema} && ${counted} < ${schema})`);
    else cxt.fail(_`${data}.length > ${schema} && (${data}.length > ${2 * schema} || ${counted} > ${schema})`);
  };
}

/**
 * The code of `$ref` (AJV's, with the callee's errors pushed instead of concatenated). Synchronous
 * schemas only: the contract has no `$async`.
 * @param {any} cxt AJV's keyword context
 */
function refCode(cxt) {
  const { gen, schema: $ref, it } = cxt;
  const { baseId, schemaEnv: env, validateName, opts, self } = it;
  const { root } = env;
  if (($ref === '#' || $ref === '#/') && baseId === root.baseId) {
    if (env === root) return callRef(cxt, validateName, env);
    const rootName = gen.scopeValue('root', { ref: root });
    return callRef(cxt, _`${rootName}.validate`, root);
  }
  const schOrEnv = resolveRef.call(self, root, baseId, $ref);
  if (schOrEnv === undefined) throw new MissingRefError(it.opts.uriResolver, baseId, $ref);
  if (schOrEnv instanceof SchemaEnv) {
    const v = schOrEnv.validate
      ? gen.scopeValue('validate', { ref: schOrEnv.validate })
      : _`${gen.scopeValue('wrapper', { ref: schOrEnv })}.validate`;
    return callRef(cxt, v, schOrEnv);
  }
  const schName = gen.scopeValue(
    'schema',
    opts.code.source === true ? { ref: schOrEnv, code: stringify(schOrEnv) } : { ref: schOrEnv },
  );
  const valid = gen.name('valid');
  const schCxt = cxt.subschema(
    { schema: schOrEnv, dataTypes: [], schemaPath: nil, topSchemaRef: schName, errSchemaPath: $ref },
    valid,
  );
  cxt.mergeEvaluated(schCxt);
  cxt.ok(valid);
}

/** @param {any} cxt @param {any} v the callee @param {any} sch its schema */
function callRef(cxt, v, sch) {
  const { gen, it } = cxt;
  if (sch.$async) throw new Error('asynchronous schemas are not supported');
  const passCxt = it.opts.passContext ? names.this : nil;
  cxt.result(
    callValidateCode(cxt, v, passCxt),
    () => addEvaluatedFrom(v),
    () => addErrorsFrom(v),
  );

  /** @param {any} source */
  function addErrorsFrom(source) {
    const errs = _`${source}.errors`;
    // The one change: AJV writes `vErrors === null ? errs : vErrors.concat(errs)`.
    gen.if(
      _`${names.vErrors} === null`,
      () => gen.assign(names.vErrors, errs),
      () => gen.code(_`for (const err of ${errs}) ${names.vErrors}.push(err)`),
    );
    gen.assign(names.errors, _`${names.vErrors}.length`);
  }

  /** @param {any} source */
  function addEvaluatedFrom(source) {
    if (!it.opts.unevaluated) return;
    const schEvaluated = sch?.validate?.evaluated;
    if (it.props !== true) {
      if (schEvaluated && !schEvaluated.dynamicProps) {
        if (schEvaluated.props !== undefined) it.props = mergeEvaluated.props(gen, schEvaluated.props, it.props);
      } else {
        const props = gen.var('props', _`${source}.evaluated.props`);
        it.props = mergeEvaluated.props(gen, props, it.props, Name);
      }
    }
    if (it.items !== true) {
      if (schEvaluated && !schEvaluated.dynamicItems) {
        if (schEvaluated.items !== undefined) it.items = mergeEvaluated.items(gen, schEvaluated.items, it.items);
      } else {
        const items = gen.var('items', _`${source}.evaluated.items`);
        it.items = mergeEvaluated.items(gen, items, it.items, Name);
      }
    }
  }
}

/**
 * Makes an AJV instance write `additionalProperties`, `minLength` and `maxLength` as above. Each
 * keyword keeps its place among the others (the order of checks and errors).
 * @param {any} ajv
 * @param {(s: string) => number} characterCount counts code points, as AJV's ucs2length
 * @param {string} runtimeModule how generated code requires the module that exports `characterCount`
 */
export function fasterKeywordCode(ajv, characterCount, runtimeModule) {
  const count = Object.assign((/** @type {string} */ s) => characterCount(s), {
    code: `require(${JSON.stringify(runtimeModule)}).characterCount`,
  });
  const rules = ajv.RULES.all;
  for (const keyword of ['additionalProperties', 'minLength', 'maxLength', '$ref']) {
    if (!rules[keyword]?.definition?.code) throw new Error(`AJV has no ${keyword} keyword to adjust`);
  }
  rules.additionalProperties.definition.code = additionalPropertiesCode;
  rules.$ref.definition.code = refCode;
  rules.minLength.definition.code = limitLengthCode(rules.minLength.definition.code, count);
  rules.maxLength.definition.code = limitLengthCode(rules.maxLength.definition.code, count);
}
