// Valid values of the contract's schemas, as fast-check arbitraries: `$ref`, allOf, oneOf/anyOf
// branches, if/then, enum/const, pattern, format, lengths (their bounds drawn often: the shortest
// and the longest a field takes), required and optional members, closed and open objects. Nothing
// here is written per field: a new field or rule of the contract is generated without a change.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import {
  conjuncts,
  counted,
  flatten,
  type JsonObject,
  type Schema,
  type SchemaObject,
  satisfies,
  where,
} from './schema.js';

/** What the schemas that hold at one place say, together. */
export interface Facts {
  types: Set<string> | null;
  /** From const and enum. */
  values: unknown[] | null;
  patterns: string[];
  formats: string[];
  minLength: number;
  maxLength: number;
  properties: Map<string, Schema[]>;
  required: Set<string>;
  closed: boolean;
  /** The schemas every undocumented member must meet. */
  additional: Schema[] | null;
  propertyNames: Schema[];
  items: Schema[];
  /** The schemas holding if/then. */
  conditionals: SchemaObject[];
  impossible: boolean;
}

function addFacts(f: Facts, s: SchemaObject): void {
  if (s.type !== undefined) {
    const t = new Set<string>(([] as string[]).concat(s.type));
    f.types = f.types ? new Set([...f.types].filter((x) => t.has(x) || (x === 'integer' && t.has('number')))) : t;
  }
  if ('const' in s) f.values = (f.values ?? [s.const]).filter((v) => isDeepStrictEqual(v, s.const));
  const listed = s.enum;
  if (Array.isArray(listed))
    f.values = (f.values ?? [...listed]).filter((v) => listed.some((e) => isDeepStrictEqual(e, v)));
  if (typeof s.pattern === 'string') f.patterns.push(s.pattern);
  if (typeof s.format === 'string') f.formats.push(s.format);
  if (typeof s.minLength === 'number') f.minLength = Math.max(f.minLength, s.minLength);
  if (typeof s.maxLength === 'number') f.maxLength = Math.min(f.maxLength, s.maxLength);
  for (const [k, p] of Object.entries(s.properties ?? {})) f.properties.set(k, [...(f.properties.get(k) ?? []), p]);
  for (const k of s.required ?? []) f.required.add(k);
  if (s.additionalProperties === false || s.unevaluatedProperties === false) f.closed = true;
  else if (s.additionalProperties && typeof s.additionalProperties === 'object')
    f.additional = [...(f.additional ?? []), s.additionalProperties];
  if (s.propertyNames !== undefined) f.propertyNames.push(s.propertyNames);
  if (s.items !== undefined) f.items.push(s.items);
  if (s.if !== undefined) f.conditionals.push(s);
}

export function factsOf(list: readonly Schema[]): Facts {
  const f: Facts = {
    types: null,
    values: null,
    patterns: [],
    formats: [],
    minLength: 0,
    maxLength: Number.POSITIVE_INFINITY,
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
    if (s === false) f.impossible = true;
    else if (s !== true) addFacts(f, s);
  }
  return f;
}

/** Every way the branches (oneOf, anyOf) of a set of conjuncts can be chosen, each flattened. */
function alternatives(list: readonly Schema[]): Schema[][] {
  let result: Schema[][] = [[]];
  for (const schema of list) {
    if (typeof schema !== 'object') {
      result = result.map((r) => [...r, schema]);
      continue;
    }
    let options: Schema[][] = [[schema]];
    for (const branches of [schema.oneOf, schema.anyOf]) {
      if (!Array.isArray(branches)) continue;
      const next: Schema[][] = [];
      for (const opt of options)
        for (const branch of branches) for (const alt of alternatives(conjuncts(branch))) next.push([...opt, ...alt]);
      options = next;
    }
    const grown: Schema[][] = [];
    for (const r of result) for (const o of options) grown.push([...r, ...o]);
    result = grown;
  }
  return result;
}

/** Every name any branch or conditional of `list` documents (an open object's extra members avoid them). */
function documentedNames(list: readonly Schema[], out = new Set<string>()): Set<string> {
  for (const s of list) {
    if (typeof s !== 'object') continue;
    for (const k of Object.keys(s.properties ?? {})) out.add(k);
    for (const k of s.required ?? []) out.add(k);
    const parts = [
      ...(s.oneOf ?? []),
      ...(s.anyOf ?? []),
      ...[s.if, s.then, s.else].filter((x): x is Schema => x !== undefined),
    ];
    for (const part of parts) documentedNames(conjuncts(part), out);
  }
  return out;
}

/** Field names for the members an open object may carry beyond its documented fields. */
const extraName = fc.stringMatching(/^[a-z][a-zA-Z]{0,10}[0-9]{0,2}$/);
const anyJson = fc.jsonValue({ maxDepth: 2 });
const DAY_MIN = new Date('0001-01-01T00:00:00.000Z');
const DAY_MAX = new Date('9999-12-31T23:59:59.999Z');
/**
 * The values of each string format, built when a format is first met: fast-check's e-mail and URL
 * arbitraries take most of a second to build, which every command of the CLI would pay at load.
 */
const FORMAT_ARBITRARIES: Readonly<Record<string, () => fc.Arbitrary<string>>> = {
  date: () => fc.date({ min: DAY_MIN, max: DAY_MAX, noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  'date-time': () => fc.date({ min: DAY_MIN, max: DAY_MAX, noInvalidDate: true }).map((d) => d.toISOString()),
  email: () => fc.emailAddress(),
  uri: () => fc.webUrl({ withQueryParameters: true, withFragments: true }),
  ipv4: () => fc.ipV4(),
  ipv6: () => fc.ipV6(),
};
const builtFormats = new Map<string, fc.Arbitrary<string>>();
const formatArbitrary = (format: string): fc.Arbitrary<string> | undefined => {
  const build = FORMAT_ARBITRARIES[format];
  if (build === undefined) return undefined;
  const built = builtFormats.get(format) ?? build();
  builtFormats.set(format, built);
  return built;
};

const cache = new Map<string, fc.Arbitrary<unknown>>();
const ids = new Map<object, number>();
const idOf = (s: Schema): string => {
  if (typeof s !== 'object') return String(s);
  if (!ids.has(s)) ids.set(s, ids.size);
  return String(ids.get(s));
};

const oneOrAny = <T>(arbs: fc.Arbitrary<T>[]): fc.Arbitrary<T> => {
  const [first, ...rest] = arbs;
  if (!first) throw new Error('No arbitrary to choose from.');
  return rest.length === 0 ? first : fc.oneof(first, ...rest);
};

/** Values valid under every schema of `schemas`. */
export function valuesOf(schemas: readonly Schema[]): fc.Arbitrary<unknown> {
  const list = flatten(schemas);
  const key = list.map(idOf).join(',');
  let arb = cache.get(key);
  if (!arb) {
    arb = oneOrAny(alternatives(list).map(single));
    cache.set(key, arb);
  }
  return arb;
}

/** The JSON types a value at this place may take, when the schemas name none. */
function typesOf(f: Facts): string[] {
  if (f.types) return [...f.types];
  if (f.properties.size || f.required.size || f.closed) return ['object'];
  return [f.patterns.length || f.formats.length ? 'string' : 'any'];
}

/** Values valid under `list`, whose branches are already chosen. */
function single(list: Schema[]): fc.Arbitrary<unknown> {
  const f = factsOf(list);
  const all = { allOf: list };
  if (f.impossible) throw new Error(`No value is valid at ${list.map(where).join(' + ')}`);
  if (f.values) {
    const candidates = f.values.filter((v) => satisfies(all, v));
    if (!candidates.length) throw new Error(`No listed value is valid at ${list.map(where).join(' + ')}`);
    return fc.constantFrom(...candidates);
  }
  const arbs = typesOf(f).map((type): fc.Arbitrary<unknown> => {
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
  return oneOrAny(arbs);
}

/** The longest text a pattern's arbitrary is asked for: past a field's maxLength it is filtered out anyway. */
const PATTERN_TEXT_MAX = 64;

/**
 * Strings of a place: its format's, its pattern's, or any text within its lengths; a third of the
 * time a text at a bound (exactly maxLength or minLength characters) where the schema has one.
 */
function stringOf(f: Facts): fc.Arbitrary<string> {
  const [format] = f.formats;
  if (format !== undefined) {
    const arb = formatArbitrary(format);
    if (!arb) throw new Error(`No generator for format ${format}`);
    return arb;
  }
  const max = Number.isFinite(f.maxLength) ? f.maxLength : Math.max(f.minLength, 24);
  const plain = f.patterns.length
    ? oneOrAny(
        f.patterns.map((p) => fc.stringMatching(new RegExp(p, 'u'), { maxLength: Math.min(max, PATTERN_TEXT_MAX) })),
      )
    : fc.string({ unit: 'binary', minLength: f.minLength, maxLength: max });
  const bounds = boundaryStrings(f);
  return bounds ? fc.oneof({ weight: 2, arbitrary: plain }, { weight: 1, arbitrary: bounds }) : plain;
}

/** Texts exactly at a place's length bounds, in characters its patterns take (none when no text of its patterns is one). */
function boundaryStrings(f: Facts): fc.Arbitrary<string> | undefined {
  const lengths = [f.minLength, f.maxLength].filter((n) => Number.isFinite(n) && n > 0 && n <= 4096);
  if (!lengths.length) return undefined;
  const texts = lengths.flatMap((n) => ['9', 'a', 'A', 'x'].map((c) => c.repeat(n)));
  const valid = texts.filter((t) => counted(t) >= f.minLength && f.patterns.every((p) => new RegExp(p, 'u').test(t)));
  return valid.length ? fc.constantFrom(...valid) : undefined;
}

/** An object's documented members and its extra ones, before its conditionals. */
function membersOf(list: readonly Schema[], f: Facts): fc.Arbitrary<JsonObject> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, schemas] of f.properties) {
    if (schemas.includes(false)) continue;
    model[name] = valuesOf(schemas);
  }
  for (const k of f.required) if (!(k in model) && !f.properties.has(k)) model[k] = anyJson;
  const required = [...f.required].filter((k) => k in model);
  const documented = documentedNames(list);
  let extras: fc.Arbitrary<JsonObject> = fc.constant({});
  if (!f.closed) {
    const keyArb = f.propertyNames.length
      ? valuesOf(f.propertyNames)
          .filter((k) => typeof k === 'string' && !documented.has(k))
          .map(String)
      : extraName.filter((k) => !documented.has(k));
    extras = fc.dictionary(keyArb, f.additional ? valuesOf(f.additional) : anyJson, {
      maxKeys: 3,
      noNullPrototype: true,
    });
  }
  return fc
    .tuple(fc.record(model, { requiredKeys: required, noNullPrototype: true }), extras)
    .map(([known, more]) => ({ ...more, ...known }));
}

/**
 * The members a conditional's `then` adds rules to, once `value` meets its `if`: generated again
 * under the added rules (or removed, where forbidden).
 */
function conditionalChanges(f: Facts, value: JsonObject): fc.Arbitrary<JsonObject> {
  const active = f.conditionals.filter((c) => satisfies(c.if, value));
  if (!active.length) return fc.constant(value);
  const thenFacts = active.map((a) => factsOf(conjuncts(a.then)));
  const changes: Record<string, fc.Arbitrary<unknown>> = {};
  const removed = new Set<string>();
  for (const then of thenFacts)
    for (const [name, schemas] of then.properties) if (schemas.includes(false)) removed.add(name);
  for (const then of thenFacts) {
    for (const name of new Set([...then.properties.keys(), ...then.required])) {
      if (removed.has(name)) continue;
      if (!then.required.has(name) && !Object.hasOwn(value, name)) continue;
      changes[name] = valuesOf([
        ...(f.properties.get(name) ?? []),
        ...thenFacts.flatMap((t) => t.properties.get(name) ?? []),
      ]);
    }
  }
  return fc.record(changes, { requiredKeys: Object.keys(changes), noNullPrototype: true }).map((fresh) => {
    const next: JsonObject = { ...value, ...fresh };
    for (const name of removed) delete next[name];
    return next;
  });
}

function objectOf(list: readonly Schema[], f: Facts): fc.Arbitrary<JsonObject> {
  const base = membersOf(list, f);
  if (!f.conditionals.length) return base;
  return base
    .chain((value) => conditionalChanges(f, value))
    .filter((value) => f.conditionals.every((c) => satisfies({ if: c.if ?? true, then: c.then ?? true }, value)));
}
