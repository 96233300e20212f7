// Payloads derived from the contract itself: fast-check arbitraries built from the JSON Schema of
// each operation and direction ($ref, allOf, oneOf/anyOf branches, if/then, enum/const, pattern,
// format, lengths, required and optional fields, closed and open objects), the named checks
// respected; and, for a valid payload, every single mutation that breaks exactly one rule, with the
// place validate() must report. Nothing here is written per operation: a new operation, field or
// rule of the contract is covered without touching this file. Every value is synthetic.

import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import formatsModule from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';
import { fieldNames } from '../../generated/fieldNames.js';
import { operations } from '../../src/index.js';

/** The bundled contract that validate() was generated from. */
export const contract: any = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));

/**
 * fast-check parameters: a constant seed and a modest number of runs, so that CI is repeatable and
 * quick. `FC_SEED` and `FC_NUM_RUNS` in the environment explore further (see test/README.md).
 */
export function fcParameters(defaultRuns: number): { seed: number; numRuns: number; endOnFailure: boolean } {
  const seed = process.env.FC_SEED === undefined ? 0x5eed7 : Number(process.env.FC_SEED);
  const numRuns = process.env.FC_NUM_RUNS === undefined ? defaultRuns : Number(process.env.FC_NUM_RUNS);
  if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(numRuns) || numRuns < 1) throw new TypeError('FC_SEED and FC_NUM_RUNS must be whole numbers');
  return { seed, numRuns, endOnFailure: true };
}

/** A test timeout that grows with FC_NUM_RUNS (the default runs fit in vitest's 30 s). */
export function fcTimeout(defaultRuns: number): number {
  return Math.max(30_000, Math.ceil((fcParameters(defaultRuns).numRuns / defaultRuns) * 30_000));
}

/** `text` broken by up to three edits (a character deleted, inserted or replaced, within `reach` of its start), the characters drawn from `char`. */
export function edited(text: fc.Arbitrary<string>, char: fc.Arbitrary<string>, reach: number): fc.Arbitrary<string> {
  return fc.tuple(text, fc.array(fc.tuple(fc.nat(reach), fc.nat(2), char), { maxLength: 3 })).map(([t, edits]) => {
    const a = [...t];
    for (const [at, kind, c] of edits) {
      const i = at % (a.length + 1);
      if (kind === 0) a.splice(i, 1);
      else if (kind === 1) a.splice(i, 0, c);
      else a[i] = c;
    }
    return a.join('');
  });
}

export type Direction = 'request' | 'response';
/** One payload with the query and path parameters of its request. */
export interface Sample {
  payload: any;
  query?: Record<string, string>;
  path?: Record<string, string>;
}

/** A single change that breaks one rule, and where validate() must report it. */
export interface Mutation {
  /** the kind of rule broken */
  kind:
    | 'type'
    | 'required'
    | 'pattern'
    | 'format'
    | 'maxLength'
    | 'minLength'
    | 'enum'
    | 'unknownField'
    | 'propertyNames'
    | 'conditional'
    | 'namedCheck'
    | 'parameter';
  /** where the broken rule lives in the contract (JSON Pointers into the bundled document; several when
   * schemas that apply together state the same rule), or the named check */
  rules: string[];
  /** the part of the request the change is in */
  in: 'body' | 'query' | 'path';
  /** JSON Pointer of the field validate() must name */
  pointer: string;
  /** the change: `set` a value at `at`, or `delete` the member at `at` */
  at: string[];
  action: 'set' | 'delete';
  value?: unknown;
}

// ---------------------------------------------------------------------------------------------
// Reading the contract

const formats: Record<string, any> = (formatsModule as any).fullFormats ?? (formatsModule as any).default?.fullFormats;
/** Keywords that say nothing about valid values. */
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
  'discriminator',
  'externalDocs',
  'xml',
]);

function resolveRef(ref: string): any {
  if (!ref.startsWith('#/')) throw new Error(`only local $ref is supported: ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .reduce((node: any, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], contract);
}

/** JSON Pointer of every schema object of the contract, by identity (to name the rule a mutation breaks). */
const locations = new Map<object, string>();
(function index(node: any, pointer: string) {
  if (!node || typeof node !== 'object') return;
  if (!Array.isArray(node)) locations.set(node, pointer);
  for (const [key, value] of Object.entries(node)) index(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
})(contract.components.schemas, '#/components/schemas');
const where = (schema: object) => locations.get(schema) ?? '(inline)';

/** The schemas that hold at one place: `$ref` and `allOf` flattened (branches and conditionals kept). */
function conjuncts(schema: any, out: any[] = []): any[] {
  if (schema === true || schema === undefined) return out;
  if (schema === false) {
    out.push(false);
    return out;
  }
  if (typeof schema.$ref === 'string') conjuncts(resolveRef(schema.$ref), out);
  out.push(schema);
  for (const part of schema.allOf ?? []) conjuncts(part, out);
  return out;
}

const COUNTED = (v: string) => [...v].length; // JSON Schema lengths count code points, as AJV does

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function formatHolds(name: string, text: string): boolean {
  const f = formats[name];
  if (!f) throw new Error(`unknown format ${name}`);
  if (f instanceof RegExp) return f.test(text);
  if (typeof f === 'function') return f(text);
  return f.validate instanceof RegExp ? f.validate.test(text) : f.validate(text);
}

/** Property names a schema evaluates (for unevaluatedProperties), through its applicators. */
function evaluatedNames(schema: any, value: any, out = new Set<string>()): Set<string> {
  if (!schema || typeof schema !== 'object') return out;
  if (schema.$ref) evaluatedNames(resolveRef(schema.$ref), value, out);
  for (const k of Object.keys(schema.properties ?? {})) out.add(k);
  for (const part of schema.allOf ?? []) evaluatedNames(part, value, out);
  for (const part of [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) if (satisfies(part, value)) evaluatedNames(part, value, out);
  if (schema.if !== undefined) {
    if (satisfies(schema.if, value)) {
      evaluatedNames(schema.if, value, out);
      evaluatedNames(schema.then, value, out);
    } else evaluatedNames(schema.else, value, out);
  }
  return out;
}

/**
 * Whether `value` meets `schema`: a small evaluator of the keywords this contract uses, for the
 * generator's own choices (which branch a value took, whether a conditional holds, whether a
 * mutation really breaks a rule). The verdict under test always comes from validate().
 */
export function satisfies(schema: any, value: any): boolean {
  if (schema === true || schema === undefined) return true;
  if (schema === false) return false;
  for (const [key, rule] of Object.entries<any>(schema)) {
    if (ANNOTATIONS.has(key) || key.startsWith('x-') || key === 'then' || key === 'else') continue;
    const isObject = typeOf(value) === 'object';
    switch (key) {
      case '$ref':
        if (!satisfies(resolveRef(rule), value)) return false;
        break;
      case 'allOf':
        if (!rule.every((s: any) => satisfies(s, value))) return false;
        break;
      case 'anyOf':
        if (!rule.some((s: any) => satisfies(s, value))) return false;
        break;
      case 'oneOf':
        if (rule.filter((s: any) => satisfies(s, value)).length !== 1) return false;
        break;
      case 'not':
        if (satisfies(rule, value)) return false;
        break;
      case 'if':
        if (!satisfies(satisfies(rule, value) ? schema.then : schema.else, value)) return false;
        break;
      case 'type': {
        const t = typeOf(value);
        if (![].concat(rule).some((want: string) => want === t || (want === 'number' && t === 'integer'))) return false;
        break;
      }
      case 'const':
        if (!isDeepStrictEqual(rule, value)) return false;
        break;
      case 'enum':
        if (!rule.some((v: unknown) => isDeepStrictEqual(v, value))) return false;
        break;
      case 'pattern':
        if (typeof value === 'string' && !new RegExp(rule, 'u').test(value)) return false;
        break;
      case 'format':
        if (typeof value === 'string' && !formatHolds(rule, value)) return false;
        break;
      case 'minLength':
        if (typeof value === 'string' && COUNTED(value) < rule) return false;
        break;
      case 'maxLength':
        if (typeof value === 'string' && COUNTED(value) > rule) return false;
        break;
      case 'required':
        if (isObject && !rule.every((k: string) => Object.hasOwn(value, k))) return false;
        break;
      case 'properties':
        if (isObject) for (const [k, s] of Object.entries(rule)) if (Object.hasOwn(value, k) && !satisfies(s, value[k])) return false;
        break;
      case 'additionalProperties':
        if (isObject) for (const k of Object.keys(value)) if (!Object.hasOwn(schema.properties ?? {}, k) && !satisfies(rule, value[k])) return false;
        break;
      case 'unevaluatedProperties': {
        if (!isObject) break;
        const known = evaluatedNames(schema, value);
        for (const k of Object.keys(value)) if (!known.has(k) && !satisfies(rule, value[k])) return false;
        break;
      }
      case 'propertyNames':
        if (isObject && !Object.keys(value).every((k) => satisfies(rule, k))) return false;
        break;
      case 'items':
        if (Array.isArray(value) && !value.every((v) => satisfies(rule, v))) return false;
        break;
      default:
        throw new Error(`the generator does not know the keyword "${key}" (at ${where(schema)}): teach test/helpers/arbitraries.ts`);
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Generating valid values

/** Field names for the members an open object may carry beyond its documented fields. */
const extraName = fc.stringMatching(/^[a-z][a-zA-Z]{0,10}[0-9]{0,2}$/);
const anyJson = fc.jsonValue({ maxDepth: 2 });
const DAY_MIN = new Date('0001-01-01T00:00:00.000Z');
const DAY_MAX = new Date('9999-12-31T23:59:59.999Z');
const FORMAT_ARBITRARIES: Record<string, fc.Arbitrary<string>> = {
  date: fc.date({ min: DAY_MIN, max: DAY_MAX, noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  'date-time': fc.date({ min: DAY_MIN, max: DAY_MAX, noInvalidDate: true }).map((d) => d.toISOString()),
  email: fc.emailAddress(),
  uri: fc.webUrl({ withQueryParameters: true, withFragments: true }),
  ipv4: fc.ipV4(),
  ipv6: fc.ipV6(),
};

/** Every way the branches (oneOf, anyOf) of a set of conjuncts can be chosen, each flattened. */
function alternatives(list: any[]): any[][] {
  let result: any[][] = [[]];
  for (const schema of list) {
    if (schema === false) {
      result = result.map((r) => [...r, false]);
      continue;
    }
    let options: any[][] = [[schema]];
    for (const key of ['oneOf', 'anyOf']) {
      if (!Array.isArray(schema[key])) continue;
      const next: any[][] = [];
      for (const opt of options) for (const branch of schema[key]) for (const alt of alternatives(conjuncts(branch))) next.push([...opt, ...alt]);
      options = next;
    }
    const grown: any[][] = [];
    for (const r of result) for (const o of options) grown.push([...r, ...o]);
    result = grown;
  }
  return result;
}

interface Facts {
  types: Set<string> | null;
  values: unknown[] | null; // from const and enum
  patterns: string[];
  formats: string[];
  minLength: number;
  maxLength: number;
  properties: Map<string, any[]>;
  required: Set<string>;
  closed: boolean;
  additional: any[] | null; // schemas every undocumented member must meet
  propertyNames: any[];
  items: any[];
  conditionals: any[]; // schemas holding if/then
  impossible: boolean;
}

function factsOf(list: any[]): Facts {
  const f: Facts = {
    types: null,
    values: null,
    patterns: [],
    formats: [],
    minLength: 0,
    maxLength: Infinity,
    properties: new Map(),
    required: new Set(),
    closed: false,
    additional: null,
    propertyNames: [],
    items: [],
    conditionals: [],
    impossible: false,
  };
  for (const s of list) {
    if (s === false) {
      f.impossible = true;
      continue;
    }
    if (s.type !== undefined) {
      const t = new Set<string>([].concat(s.type));
      f.types = f.types ? new Set([...f.types].filter((x) => t.has(x) || (x === 'integer' && t.has('number')))) : t;
    }
    if ('const' in s) f.values = (f.values ?? [s.const]).filter((v) => isDeepStrictEqual(v, s.const));
    if (Array.isArray(s.enum)) f.values = (f.values ?? s.enum).filter((v: unknown) => s.enum.some((e: unknown) => isDeepStrictEqual(e, v)));
    if (typeof s.pattern === 'string') f.patterns.push(s.pattern);
    if (typeof s.format === 'string') f.formats.push(s.format);
    if (typeof s.minLength === 'number') f.minLength = Math.max(f.minLength, s.minLength);
    if (typeof s.maxLength === 'number') f.maxLength = Math.min(f.maxLength, s.maxLength);
    for (const [k, p] of Object.entries(s.properties ?? {})) f.properties.set(k, [...(f.properties.get(k) ?? []), p]);
    for (const k of s.required ?? []) f.required.add(k);
    if (s.additionalProperties === false || s.unevaluatedProperties === false) f.closed = true;
    else if (s.additionalProperties && typeof s.additionalProperties === 'object') f.additional = [...(f.additional ?? []), s.additionalProperties];
    if (s.propertyNames !== undefined) f.propertyNames.push(s.propertyNames);
    if (s.items !== undefined) f.items.push(s.items);
    if (s.if !== undefined) f.conditionals.push(s);
  }
  return f;
}

/** Every name any branch or conditional of `list` documents (an open object's extra members avoid them). */
function documentedNames(list: any[], out = new Set<string>()): Set<string> {
  for (const s of list) {
    if (!s || typeof s !== 'object') continue;
    for (const k of Object.keys(s.properties ?? {})) out.add(k);
    for (const k of s.required ?? []) out.add(k);
    for (const part of [...(s.oneOf ?? []), ...(s.anyOf ?? []), ...[s.if, s.then, s.else].filter(Boolean)]) documentedNames(conjuncts(part), out);
  }
  return out;
}

const cache = new Map<string, fc.Arbitrary<unknown>>();
const ids = new Map<object, number>();
const idOf = (s: any) => {
  if (typeof s !== 'object' || !s) return String(s);
  if (!ids.has(s)) ids.set(s, ids.size);
  return ids.get(s) as number;
};

/** The conjuncts of every schema of `list`, each once (`true` drops out). */
function flatten(list: any[]): any[] {
  return [...new Set(list.flatMap((s) => conjuncts(s)))];
}

/** Values valid under every schema of `list`. */
function valuesOf(schemas: any[]): fc.Arbitrary<unknown> {
  const list = flatten(schemas);
  const key = list.map(idOf).join(',');
  let arb = cache.get(key);
  if (!arb) {
    const options = alternatives(list).map(single);
    arb = options.length === 1 ? options[0] : fc.oneof(...options);
    cache.set(key, arb);
  }
  return arb;
}

/** Values valid under `list`, whose branches are already chosen. */
function single(list: any[]): fc.Arbitrary<unknown> {
  const f = factsOf(list);
  const all = { allOf: list };
  if (f.impossible) throw new Error(`no value is valid at ${list.map(where).join(' + ')}`);
  if (f.values) {
    const candidates = f.values.filter((v) => satisfies(all, v));
    if (!candidates.length) throw new Error(`no listed value is valid at ${list.map(where).join(' + ')}`);
    return fc.constantFrom(...candidates);
  }
  const types = f.types
    ? [...f.types]
    : [f.properties.size || f.required.size || f.closed ? 'object' : f.patterns.length || f.formats.length ? 'string' : 'any'];
  const arbs = types.map((type) => {
    switch (type) {
      case 'string':
        return stringOf(f).filter((v) => satisfies(all, v));
      case 'object':
        return objectOf(list, f);
      case 'array':
        return fc.array(valuesOf(f.items), { maxLength: 3 });
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer().filter((v) => satisfies(all, v));
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true }).filter((v) => satisfies(all, v));
      case 'null':
        return fc.constant(null);
      default:
        return anyJson;
    }
  });
  return arbs.length === 1 ? arbs[0] : fc.oneof(...arbs);
}

function stringOf(f: Facts): fc.Arbitrary<string> {
  if (f.formats.length) {
    const arb = FORMAT_ARBITRARIES[f.formats[0]];
    if (!arb) throw new Error(`no generator for format ${f.formats[0]}`);
    return arb;
  }
  if (f.patterns.length) return fc.oneof(...f.patterns.map((p) => fc.stringMatching(new RegExp(p, 'u'))));
  return fc.string({ unit: 'binary', minLength: f.minLength, maxLength: Number.isFinite(f.maxLength) ? f.maxLength : Math.max(f.minLength, 24) });
}

function objectOf(list: any[], f: Facts): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, schemas] of f.properties) {
    if (schemas.includes(false)) continue;
    model[name] = valuesOf(schemas);
  }
  for (const k of f.required) if (!(k in model) && !f.properties.has(k)) model[k] = anyJson;
  const required = [...f.required].filter((k) => k in model);
  const documented = documentedNames(list);
  let extras: fc.Arbitrary<Record<string, unknown>> = fc.constant({});
  if (!f.closed) {
    const keyArb = f.propertyNames.length
      ? (valuesOf(f.propertyNames).filter((k) => typeof k === 'string' && !documented.has(k)) as fc.Arbitrary<string>)
      : extraName.filter((k) => !documented.has(k));
    extras = fc.dictionary(keyArb, f.additional ? valuesOf(f.additional) : anyJson, { maxKeys: 3, noNullPrototype: true });
  }
  const base = fc.tuple(fc.record(model, { requiredKeys: required, noNullPrototype: true }), extras).map(([known, more]) => ({ ...more, ...known }));
  if (!f.conditionals.length) return base;
  // A conditional's `then` adds rules to the fields it names once the generated object meets its
  // `if`: those fields are generated again under the added rules (or removed, where forbidden).
  return base
    .chain((value) => {
      const active = f.conditionals.filter((c) => satisfies(c.if, value));
      if (!active.length) return fc.constant(value);
      const changes: Record<string, fc.Arbitrary<unknown>> = {};
      const forced: string[] = [];
      const removed = new Set<string>();
      for (const c of active) {
        const then = factsOf(conjuncts(c.then));
        for (const [name, schemas] of then.properties) {
          if (schemas.includes(false)) removed.add(name);
        }
        for (const name of new Set([...then.properties.keys(), ...then.required])) {
          if (removed.has(name)) continue;
          const must = then.required.has(name);
          if (!must && !Object.hasOwn(value, name)) continue;
          const schemas = [...(f.properties.get(name) ?? []), ...active.flatMap((a) => factsOf(conjuncts(a.then)).properties.get(name) ?? [])];
          changes[name] = valuesOf(schemas);
          if (must) forced.push(name);
        }
      }
      return fc.record(changes, { requiredKeys: Object.keys(changes), noNullPrototype: true }).map((fresh) => {
        const next: Record<string, unknown> = { ...value, ...fresh };
        for (const name of removed) delete next[name];
        return next;
      });
    })
    .filter((value) => f.conditionals.every((c) => satisfies({ if: c.if, then: c.then ?? true }, value)));
}

// ---------------------------------------------------------------------------------------------
// Operations, parameters and named checks

export interface OperationView {
  operationId: string;
  schema: (direction: Direction) => any;
  parameters: { name: string; in: 'query' | 'path'; required: boolean; schema: any }[];
  namedChecks: string[];
}

function operationItem(operationId: string): any {
  for (const item of [...Object.values<any>(contract.paths), ...Object.values<any>(contract.webhooks ?? {})])
    if (item.post?.operationId === operationId) return item.post;
  throw new Error(`no operation ${operationId}`);
}

export const operationViews: OperationView[] = operations.map((op: any) => {
  const item = operationItem(op.operationId);
  return {
    operationId: op.operationId,
    schema: (direction: Direction) => ({ $ref: `#/components/schemas/${op[direction].schema}` }),
    parameters: (item.parameters ?? [])
      .map((p: any) => (p.$ref ? resolveRef(p.$ref) : p))
      .map((p: any) => ({ name: p.name, in: p.in, required: p.required === true, schema: p.schema ?? true })),
    namedChecks: [...op.namedChecks],
  };
});

const AMOUNT = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,2})?$/;
const hundredths = (a: unknown) => (typeof a === 'string' && AMOUNT.test(a) ? Math.round(Number(a) * 100) : null);

/**
 * How a generated request is made to respect each named check of src/validation/checks.js
 * (`fix`, returning false when it cannot), and how one is made to break it (`break`). A named
 * check missing here fails the tests, so a new check cannot go unexercised.
 */
export const namedCheckRules: Record<string, { fix: (s: Sample) => boolean; break: (s: Sample) => Mutation[] }> = {
  requiredParameters: {
    fix: () => true, // the parameters are generated from their schemas
    break: (s) =>
      (['query', 'path'] as const).flatMap((part) =>
        Object.keys(s[part] ?? {}).map(
          (name): Mutation => ({ kind: 'parameter', rules: ['requiredParameters'], in: part, pointer: `/${name}`, at: [`$${part}`, name], action: 'delete' }),
        ),
      ),
  },
  queryMatchesBody: {
    fix: (s) => {
      for (const name of ['mid', 'orderId']) if (s.query && typeof s.payload?.body?.[name] === 'string') s.query[name] = s.payload.body[name];
      return true;
    },
    break: (s) =>
      ['mid', 'orderId']
        .filter((n) => typeof s.payload?.body?.[n] === 'string' && s.query?.[n] !== undefined)
        .map(
          (name): Mutation => ({
            kind: 'namedCheck',
            rules: ['queryMatchesBody'],
            in: 'body',
            pointer: `/body/${name}`,
            at: ['$query', name],
            action: 'set',
            value: `${s.payload.body[name]}-other`,
          }),
        ),
  },
  tokenizeMidMatchesPath: {
    fix: (s) => {
      if (s.path && typeof s.payload?.body?.mid === 'string') s.path.mid = s.payload.body.mid;
      return true;
    },
    break: (s) =>
      typeof s.payload?.body?.mid === 'string' && s.path
        ? [
            {
              kind: 'namedCheck',
              rules: ['tokenizeMidMatchesPath'],
              in: 'body',
              pointer: '/body/mid',
              at: ['$path', 'mid'],
              action: 'set',
              value: `${s.payload.body.mid}-other`,
            },
          ]
        : [],
  },
  firstPaymentWithinRenewalAmount: {
    fix: (s) => {
      const body = s.payload?.body;
      if (!['UPI', 'BANK_MANDATE'].includes(body?.subscriptionPaymentMode) || body.renewalAmount === undefined) return true;
      const first = hundredths(body.txnAmount?.value);
      const renewal = hundredths(body.renewalAmount);
      if (first !== null && renewal !== null && first > renewal) [body.txnAmount.value, body.renewalAmount] = [body.renewalAmount, body.txnAmount.value];
      return true;
    },
    break: (s) => {
      const body = s.payload?.body;
      if (!['UPI', 'BANK_MANDATE'].includes(body?.subscriptionPaymentMode) || body.renewalAmount === undefined || !body.txnAmount) return [];
      return [
        {
          kind: 'namedCheck',
          rules: ['firstPaymentWithinRenewalAmount'],
          in: 'body',
          pointer: '/body/txnAmount/value',
          at: ['body', 'txnAmount', 'value'],
          action: 'set',
          value: `${(hundredths(body.renewalAmount) ?? 0) / 100 + 1}`,
        },
      ];
    },
  },
  expiryAfterStart: {
    fix: (s) => {
      const body = s.payload?.body;
      if (typeof body?.subscriptionStartDate !== 'string' || typeof body.subscriptionExpiryDate !== 'string') return true;
      if (body.subscriptionExpiryDate === body.subscriptionStartDate) return false;
      if (body.subscriptionExpiryDate < body.subscriptionStartDate)
        [body.subscriptionStartDate, body.subscriptionExpiryDate] = [body.subscriptionExpiryDate, body.subscriptionStartDate];
      return true;
    },
    break: (s) =>
      typeof s.payload?.body?.subscriptionStartDate === 'string'
        ? [
            {
              kind: 'namedCheck',
              rules: ['expiryAfterStart'],
              in: 'body',
              pointer: '/body/subscriptionExpiryDate',
              at: ['body', 'subscriptionExpiryDate'],
              action: 'set',
              value: s.payload.body.subscriptionStartDate,
            },
          ]
        : [],
  },
};

/** Valid samples of one operation and direction: the payload, and for requests its parameters. */
export function sampleArbitrary(view: OperationView, direction: Direction): fc.Arbitrary<Sample> {
  const payload = valuesOf(conjuncts(view.schema(direction)));
  if (direction === 'response') return payload.map((p) => ({ payload: structuredClone(p) }));
  const params: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of view.parameters) params[`${p.in}:${p.name}`] = valuesOf(conjuncts(p.schema));
  for (const name of view.namedChecks) if (!namedCheckRules[name]) throw new Error(`no generator rule for the named check ${name}: add it to namedCheckRules`);
  return fc
    .tuple(payload, fc.record(params, { requiredKeys: Object.keys(params) }))
    .map(([p, values]) => {
      const sample: Sample = { payload: structuredClone(p) };
      for (const param of view.parameters) {
        sample[param.in] ??= {};
        const part = sample[param.in] as Record<string, string>;
        part[param.name] = String(values[`${param.in}:${param.name}`]);
      }
      return sample;
    })
    .filter((sample) => view.namedChecks.every((name) => namedCheckRules[name].fix(sample)));
}

// ---------------------------------------------------------------------------------------------
// Single mutations

const FIELD_NAMES = new Set(fieldNames);
/** A key as errors show it: a field name of the contract, or an array index; any other key is data and hidden. */
const escapeKey = (k: string) => (/^\d+$/.test(k) || FIELD_NAMES.has(k) ? k.replace(/~/g, '~0').replace(/\//g, '~1') : '<unknown key>');
const UNKNOWN_FIELD = 'unknownField';
const NOT_LISTED = 'NOT_A_LISTED_VALUE';

/** The schemas that hold for `value` at one place: its branches and the conditionals it meets, resolved. */
function effective(list: any[], value: unknown): { base: any[]; thens: any[] } {
  const base: any[] = [];
  const thens: any[] = [];
  const visit = (items: any[], into: any[]) => {
    for (const s of items) {
      if (s === false) continue;
      into.push(s);
      if (Array.isArray(s.oneOf)) {
        const taken = s.oneOf.filter((b: any) => satisfies(b, value));
        if (taken.length !== 1) throw new Error(`a generated value meets ${taken.length} branches of ${where(s)}`);
        visit(conjuncts(taken[0]), into);
      }
      if (Array.isArray(s.anyOf)) {
        const taken = s.anyOf.find((b: any) => satisfies(b, value));
        if (taken === undefined) throw new Error(`a generated value meets no branch of ${where(s)}`);
        visit(conjuncts(taken), into);
      }
      if (s.if !== undefined && satisfies(s.if, value) && s.then !== undefined) visit(conjuncts(s.then), thens);
    }
  };
  visit(list, base);
  return { base, thens };
}

/** A value of another JSON type than `list` allows. */
function wrongType(list: any[]): unknown {
  return [12345, 'text', true, [], {}, null].find((v) => !satisfies({ allOf: list }, v));
}

function valueSample(list: any[], differentFrom: any): unknown | undefined {
  const found = fc.sample(
    valuesOf(list).filter((v) => !satisfies({ allOf: [differentFrom] }, v)),
    { seed: 7, numRuns: 1 },
  );
  return found[0];
}

interface Node {
  list: any[];
  base: any[];
  thens: any[];
  f: Facts;
  value: any;
  at: string[];
  pointer: string;
}

/** Calls `visit` for every value of a valid sample's payload, with the schemas that hold there. */
function eachNode(view: OperationView, direction: Direction, sample: Sample, visit: (node: Node) => void) {
  const walk = (schemas: any[], value: any, at: string[]) => {
    const list = flatten(schemas);
    const { base, thens } = effective(list, value);
    const f = factsOf([...base, ...thens]);
    visit({ list, base, thens, f, value, at, pointer: at.map((k) => `/${escapeKey(k)}`).join('') });
    if (typeOf(value) === 'object') {
      for (const [name, child] of Object.entries(value)) {
        const schemas = f.properties.get(name) ?? f.additional;
        if (schemas) walk(schemas, child, [...at, name]);
      }
    }
    if (Array.isArray(value) && f.items.length) for (const [i, item] of value.entries()) walk(f.items, item, [...at, String(i)]);
  };
  walk(conjuncts(view.schema(direction)), sample.payload, []);
}

/**
 * Every single mutation of the valid `sample` that breaks one rule, each with the field
 * validate() must name. The rules are read from the contract, never listed here.
 */
export function mutationsOf(view: OperationView, direction: Direction, sample: Sample): Mutation[] {
  const out: Mutation[] = [];
  eachNode(view, direction, sample, ({ list, base, thens, f, value, at, pointer }) => {
    const all = { allOf: list };
    const push = (m: Omit<Mutation, 'in'>) => out.push({ in: 'body', ...m });
    const holder = (test: (s: any) => boolean) => [...new Set([...thens, ...base].filter(test).map(where))];
    const bad = wrongType(list);
    if (bad !== undefined) push({ kind: 'type', rules: holder((s) => s.type !== undefined || s.$ref !== undefined), pointer, at, action: 'set', value: bad });
    if (f.values && typeOf(value) !== 'object' && typeOf(value) !== 'array') {
      const listed = typeof value === 'number' ? 7 : NOT_LISTED;
      if (!satisfies(all, listed))
        push({ kind: 'enum', rules: holder((s) => 'const' in s || Array.isArray(s.enum)), pointer, at, action: 'set', value: listed });
    }
    if (typeof value === 'string') {
      for (const source of f.patterns) {
        const regex = new RegExp(source, 'u');
        const broken = ['!', `${value}!`, `!${value}`, ' ', 'é', ''].find((c) => !regex.test(c) && !satisfies(all, c));
        if (broken !== undefined) push({ kind: 'pattern', rules: holder((s) => s.pattern === source), pointer, at, action: 'set', value: broken });
      }
      for (const name of f.formats) {
        const broken = ['not a valid value', '%', ''].find((c) => !formatHolds(name, c) && !satisfies(all, c));
        if (broken !== undefined) push({ kind: 'format', rules: holder((s) => s.format === name), pointer, at, action: 'set', value: broken });
      }
      if (Number.isFinite(f.maxLength)) {
        const n = f.maxLength + 1;
        const long = [value + (value.slice(-1) || 'x').repeat(n), '9'.repeat(n), 'x'.repeat(n)];
        const broken = long.find((c) => f.patterns.every((p) => new RegExp(p, 'u').test(c))) ?? long[2];
        push({ kind: 'maxLength', rules: holder((s) => s.maxLength === f.maxLength), pointer, at, action: 'set', value: broken });
      }
      if (f.minLength > 0 && value !== '')
        push({ kind: 'minLength', rules: holder((s) => s.minLength === f.minLength), pointer, at, action: 'set', value: '' });
    }
    if (typeOf(value) === 'object') {
      const fromThen = new Set(thens.flatMap((t) => t.required ?? []));
      const baseRequired = new Set(base.flatMap((s) => s.required ?? []));
      for (const name of new Set([...baseRequired, ...fromThen])) {
        if (!Object.hasOwn(value, name)) continue;
        const conditional = !baseRequired.has(name);
        push({
          kind: conditional ? 'conditional' : 'required',
          rules: holder((s) => (s.required ?? []).includes(name) && (!conditional || thens.includes(s))),
          pointer: `${pointer}/${escapeKey(name)}`,
          at: [...at, name],
          action: 'delete',
        });
      }
      // A conditional's `then` that forbids a field or narrows its value.
      for (const then of thens) {
        for (const [name, rule] of Object.entries<any>(then.properties ?? {})) {
          const baseSchemas = factsOf(base).properties.get(name) ?? [];
          if (rule === false && !Object.hasOwn(value, name)) {
            const allowed = valueSample(baseSchemas, false);
            if (allowed !== undefined)
              push({ kind: 'conditional', rules: [where(then)], pointer: `${pointer}/${escapeKey(name)}`, at: [...at, name], action: 'set', value: allowed });
          } else if (rule !== false && rule !== true && Object.hasOwn(value, name)) {
            const other = valueSample(baseSchemas, rule);
            if (other !== undefined)
              push({ kind: 'conditional', rules: [where(then)], pointer: `${pointer}/${escapeKey(name)}`, at: [...at, name], action: 'set', value: other });
          }
        }
      }
      if (f.closed && !Object.hasOwn(value, UNKNOWN_FIELD)) {
        push({
          kind: 'unknownField',
          rules: holder((s) => s.additionalProperties === false || s.unevaluatedProperties === false),
          pointer: `${pointer}/${escapeKey(UNKNOWN_FIELD)}`,
          at: [...at, UNKNOWN_FIELD],
          action: 'set',
          value: 'x',
        });
      }
      if (f.propertyNames.length && !satisfies({ allOf: f.propertyNames }, NOT_LISTED)) {
        const allowed = f.additional ? valueSample(f.additional, false) : 'x';
        push({ kind: 'propertyNames', rules: holder((s) => s.propertyNames !== undefined), pointer, at: [...at, NOT_LISTED], action: 'set', value: allowed });
      }
    }
  });
  if (direction === 'request') for (const name of view.namedChecks) out.push(...namedCheckRules[name].break(sample));
  return out;
}

/** The sample with one mutation applied (a copy). */
export function applyMutation(sample: Sample, m: Mutation): Sample {
  const copy: Sample = structuredClone(sample);
  const [first, ...rest] = m.at;
  let holderObject: any;
  let path: string[];
  if (first === '$query' || first === '$path') {
    holderObject = copy[first === '$query' ? 'query' : 'path'];
    path = rest;
  } else {
    holderObject = copy;
    path = ['payload', ...m.at];
  }
  const last = path.pop();
  const parent = path.reduce((node, key) => node[key], holderObject);
  if (last === undefined) {
    copy.payload = m.value;
    return copy;
  }
  if (m.action === 'delete') delete parent[last];
  else Object.defineProperty(parent, last, { value: m.value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** Every place of a schema, reachable from `root`, that holds a rule of the given kind. */
export function ruleLocations(root: any): Map<Mutation['kind'], Set<string>> {
  const found = new Map<Mutation['kind'], Set<string>>();
  const add = (kind: Mutation['kind'], s: any) => {
    if (!found.has(kind)) found.set(kind, new Set());
    found.get(kind)!.add(where(s));
  };
  const seen = new Set<any>();
  const visit = (s: any, inThen: boolean) => {
    if (!s || typeof s !== 'object' || seen.has(s)) return;
    seen.add(s);
    if (s.$ref) visit(resolveRef(s.$ref), inThen);
    if (typeof s.pattern === 'string') add('pattern', s);
    if (typeof s.format === 'string') add('format', s);
    if (typeof s.maxLength === 'number') add('maxLength', s);
    if (typeof s.minLength === 'number' && s.minLength > 0) add('minLength', s);
    if (s.additionalProperties === false || s.unevaluatedProperties === false) add('unknownField', s);
    if (s.propertyNames) add('propertyNames', s);
    if (Array.isArray(s.required) && s.required.length) add(inThen ? 'conditional' : 'required', s);
    if (s.then && typeof s.then === 'object') add('conditional', s.then);
    for (const p of Object.values(s.properties ?? {})) visit(p, false);
    for (const k of ['allOf', 'oneOf', 'anyOf']) for (const b of s[k] ?? []) visit(b, inThen);
    if (s.then) visit(s.then, true);
    for (const k of ['items', 'additionalProperties']) if (typeof s[k] === 'object') visit(s[k], false);
  };
  visit(root, false);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Sensitive fields

/** A field of a sample that holds a secret (its schema carries `x-sensitive: true`). */
export interface SensitiveSite {
  name: string;
  pointer: string;
  at: string[];
  schemas: any[];
  location: string;
}

const isSensitive = (s: any) => s && typeof s === 'object' && s['x-sensitive'] === true;

/** The sensitive fields present in a valid sample. */
export function sensitiveSitesOf(view: OperationView, direction: Direction, sample: Sample): SensitiveSite[] {
  const sites: SensitiveSite[] = [];
  eachNode(view, direction, sample, ({ list, at, pointer }) => {
    const marked = list.find(isSensitive);
    if (marked) sites.push({ name: at[at.length - 1], pointer, at, schemas: list, location: where(marked) });
  });
  return sites;
}

/** Where, among the schemas reachable from `root`, `wanted` holds. */
function locationsWhere(root: any, wanted: (schema: any) => boolean): Set<string> {
  const found = new Set<string>();
  const seen = new Set<any>();
  const visit = (s: any) => {
    if (!s || typeof s !== 'object' || seen.has(s)) return;
    seen.add(s);
    if (wanted(s)) found.add(where(s));
    if (s.$ref) visit(resolveRef(s.$ref));
    for (const p of Object.values(s.properties ?? {})) visit(p);
    for (const k of ['allOf', 'oneOf', 'anyOf']) for (const b of s[k] ?? []) visit(b);
    for (const k of ['then', 'items', 'additionalProperties']) visit(s[k]);
  };
  visit(root);
  return found;
}

/** Where the contract marks a field sensitive, for every field reachable from `root`. */
export function sensitiveLocations(root: any): Set<string> {
  return locationsWhere(root, isSensitive);
}

/** A copy of the sample with `value` at `at` (a payload path). */
export function plant(sample: Sample, at: string[], value: unknown): Sample {
  return applyMutation(sample, { kind: 'type', rules: [], in: 'body', pointer: '', at, action: 'set', value });
}

// ---------------------------------------------------------------------------------------------
// Open maps: objects whose keys are data (extendInfo, txnRoutingParams, FormDetail.headers, ...)

const isOpenMap = (s: any) =>
  s && typeof s === 'object' && ((s.additionalProperties && typeof s.additionalProperties === 'object') || s.propertyNames !== undefined);

/** An object of a sample whose keys are data, with a value its members must not take. */
export interface OpenMapSite {
  at: string[];
  location: string;
  /** A member value the map's schemas refuse (null when any value is accepted). */
  bad: unknown;
}

/** The open maps present in a valid sample. */
export function openMapSitesOf(view: OperationView, direction: Direction, sample: Sample): OpenMapSite[] {
  const sites: OpenMapSite[] = [];
  eachNode(view, direction, sample, ({ list, at, f, value }) => {
    const map = list.find(isOpenMap);
    if (map && typeOf(value) === 'object') sites.push({ at, location: where(map), bad: f.additional ? wrongType(f.additional) : null });
  });
  return sites;
}

/** Where the contract has an open map, for every map reachable from `root`. */
export function openMapLocations(root: any): Set<string> {
  return locationsWhere(root, isOpenMap);
}
