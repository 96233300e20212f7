// For a valid sample of an operation, every single mutation that breaks exactly one rule of the
// contract (a required field removed, an enum or const value changed, a pattern, format or length
// broken, a type changed, a conditional `then` broken, an unknown member in a closed object, a
// named check broken), each with the field at fault. The rules are read from the contract, never
// listed here.
import fc from 'fast-check';
import { fieldNames } from '../../generated/fieldNames.js';
import { type Direction, type Mutation, namedCheckRules, type OperationView, type Sample } from './operationSamples.js';
import {
  conjuncts,
  flatten,
  formatHolds,
  isJsonObject,
  resolveRef,
  type Schema,
  type SchemaObject,
  satisfies,
  typeOf,
  where,
} from './schema.js';
import { type Facts, factsOf, valuesOf } from './values.js';

const FIELD_NAMES = new Set<string>(fieldNames);
/** A key as a pointer shows it: a field name of the contract, or an array index; any other key is data and hidden. */
export const escapeKey = (k: string): string =>
  /^\d+$/.test(k) || FIELD_NAMES.has(k) ? k.replace(/~/g, '~0').replace(/\//g, '~1') : '<unknown key>';
const UNKNOWN_FIELD = 'unknownField';
const NOT_LISTED = 'NOT_A_LISTED_VALUE';

const objects = (list: readonly Schema[]): SchemaObject[] =>
  list.filter((s): s is SchemaObject => typeof s === 'object');

/** The schemas that hold for `value` at one place: its branches and the conditionals it meets, resolved. */
function effective(list: readonly Schema[], value: unknown): { base: SchemaObject[]; thens: SchemaObject[] } {
  const base: SchemaObject[] = [];
  const thens: SchemaObject[] = [];
  const visit = (items: readonly Schema[], into: SchemaObject[]) => {
    for (const s of objects(items)) {
      into.push(s);
      if (Array.isArray(s.oneOf)) {
        const taken = s.oneOf.filter((b) => satisfies(b, value));
        if (taken.length !== 1 || taken[0] === undefined)
          throw new Error(`A generated value meets ${taken.length} branches of ${where(s)}`);
        visit(conjuncts(taken[0]), into);
      }
      if (Array.isArray(s.anyOf)) {
        const taken = s.anyOf.find((b) => satisfies(b, value));
        if (taken === undefined) throw new Error(`A generated value meets no branch of ${where(s)}`);
        visit(conjuncts(taken), into);
      }
      if (s.if !== undefined && satisfies(s.if, value) && s.then !== undefined) visit(conjuncts(s.then), thens);
    }
  };
  visit(list, base);
  return { base, thens };
}

/** A value of another JSON type than `list` allows. */
export function wrongType(list: readonly Schema[]): unknown {
  return [12345, 'text', true, [], {}, null].find((v) => !satisfies({ allOf: list }, v));
}

function valueSample(list: readonly Schema[], differentFrom: Schema): unknown {
  const found = fc.sample(
    valuesOf(list).filter((v) => !satisfies({ allOf: [differentFrom] }, v)),
    { seed: 7, numRuns: 1 },
  );
  return found[0];
}

/** One value of a sample's payload, with the schemas that hold there. */
export interface Node {
  list: Schema[];
  base: SchemaObject[];
  thens: SchemaObject[];
  f: Facts;
  value: unknown;
  at: string[];
  pointer: string;
}

/** Calls `visit` for every value of a valid sample's payload, with the schemas that hold there. */
export function eachNode(view: OperationView, direction: Direction, sample: Sample, visit: (node: Node) => void): void {
  const walk = (schemas: readonly Schema[], value: unknown, at: string[]) => {
    const list = flatten(schemas);
    const { base, thens } = effective(list, value);
    const f = factsOf([...base, ...thens]);
    visit({ list, base, thens, f, value, at, pointer: at.map((k) => `/${escapeKey(k)}`).join('') });
    if (isJsonObject(value)) {
      for (const [name, child] of Object.entries(value)) {
        const childSchemas = f.properties.get(name) ?? f.additional;
        if (childSchemas) walk(childSchemas, child, [...at, name]);
      }
    }
    if (Array.isArray(value) && f.items.length)
      for (const [i, item] of value.entries()) walk(f.items, item, [...at, String(i)]);
  };
  walk(conjuncts(view.schema(direction)), sample.payload, []);
}

type Push = (m: Omit<Mutation, 'in'>) => void;
type Holder = (test: (s: SchemaObject) => boolean) => string[];

/** A string broken for its pattern, format or lengths. */
function stringMutations(node: Node, value: string, push: Push, holder: Holder): void {
  const { f, at, pointer, list } = node;
  const all = { allOf: list };
  for (const source of f.patterns) {
    const regex = new RegExp(source, 'u');
    const broken = ['!', `${value}!`, `!${value}`, ' ', 'é', ''].find((c) => !regex.test(c) && !satisfies(all, c));
    if (broken !== undefined)
      push({ kind: 'pattern', rules: holder((s) => s.pattern === source), pointer, at, action: 'set', value: broken });
  }
  for (const name of f.formats) {
    const broken = ['not a valid value', '%', ''].find((c) => !formatHolds(name, c) && !satisfies(all, c));
    if (broken !== undefined)
      push({ kind: 'format', rules: holder((s) => s.format === name), pointer, at, action: 'set', value: broken });
  }
  if (Number.isFinite(f.maxLength)) {
    const n = f.maxLength + 1;
    const long = [value + (value.slice(-1) || 'x').repeat(n), '9'.repeat(n), 'x'.repeat(n)];
    const broken = long.find((c) => f.patterns.every((p) => new RegExp(p, 'u').test(c))) ?? long[2];
    push({
      kind: 'maxLength',
      rules: holder((s) => s.maxLength === f.maxLength),
      pointer,
      at,
      action: 'set',
      value: broken,
    });
  }
  if (f.minLength > 0 && value !== '')
    push({
      kind: 'minLength',
      rules: holder((s) => s.minLength === f.minLength),
      pointer,
      at,
      action: 'set',
      value: '',
    });
}

/** An object with a required member removed, a conditional's `then` broken, an unknown member, a key its names refuse. */
function objectMutations(node: Node, value: Record<string, unknown>, push: Push, holder: Holder): void {
  const { base, thens, f, at, pointer } = node;
  const fromThen = new Set(thens.flatMap((t) => t.required ?? []));
  const baseRequired = new Set(base.flatMap((s) => s.required ?? []));
  for (const name of new Set([...baseRequired, ...fromThen])) {
    if (!Object.hasOwn(value, name)) continue;
    const conditional = !baseRequired.has(name);
    const rules = holder((s) => (s.required ?? []).includes(name) && (!conditional || thens.includes(s)));
    push({
      kind: conditional ? 'conditional' : 'required',
      rules,
      pointer: `${pointer}/${escapeKey(name)}`,
      at: [...at, name],
      action: 'delete',
    });
  }
  // A conditional's `then` that forbids a field or narrows its value.
  for (const then of thens) {
    for (const [name, rule] of Object.entries(then.properties ?? {})) {
      const baseSchemas = factsOf(base).properties.get(name) ?? [];
      const place = {
        kind: 'conditional' as const,
        rules: [where(then)],
        pointer: `${pointer}/${escapeKey(name)}`,
        at: [...at, name],
        action: 'set' as const,
      };
      if (rule === false && !Object.hasOwn(value, name)) {
        const allowed = valueSample(baseSchemas, false);
        if (allowed !== undefined) push({ ...place, value: allowed });
      } else if (rule !== false && rule !== true && Object.hasOwn(value, name)) {
        const other = valueSample(baseSchemas, rule);
        if (other !== undefined) push({ ...place, value: other });
      }
    }
  }
  if (f.closed && !Object.hasOwn(value, UNKNOWN_FIELD)) {
    const rules = holder((s) => s.additionalProperties === false || s.unevaluatedProperties === false);
    push({
      kind: 'unknownField',
      rules,
      pointer: `${pointer}/${escapeKey(UNKNOWN_FIELD)}`,
      at: [...at, UNKNOWN_FIELD],
      action: 'set',
      value: 'x',
    });
  }
  if (f.propertyNames.length && !satisfies({ allOf: f.propertyNames }, NOT_LISTED)) {
    const allowed = f.additional ? valueSample(f.additional, false) : 'x';
    push({
      kind: 'propertyNames',
      rules: holder((s) => s.propertyNames !== undefined),
      pointer,
      at: [...at, NOT_LISTED],
      action: 'set',
      value: allowed,
    });
  }
}

/** The mutations of one value of a sample. */
function nodeMutations(node: Node, out: Mutation[]): void {
  const { list, base, thens, f, value, at, pointer } = node;
  const push: Push = (m) => out.push({ in: 'body', ...m });
  const holder: Holder = (test) => [...new Set([...thens, ...base].filter(test).map(where))];
  const bad = wrongType(list);
  if (bad !== undefined)
    push({
      kind: 'type',
      rules: holder((s) => s.type !== undefined || s.$ref !== undefined),
      pointer,
      at,
      action: 'set',
      value: bad,
    });
  if (f.values && typeOf(value) !== 'object' && typeOf(value) !== 'array') {
    const listed = typeof value === 'number' ? 7 : NOT_LISTED;
    if (!satisfies({ allOf: list }, listed))
      push({
        kind: 'enum',
        rules: holder((s) => 'const' in s || Array.isArray(s.enum)),
        pointer,
        at,
        action: 'set',
        value: listed,
      });
  }
  if (typeof value === 'string') stringMutations(node, value, push, holder);
  if (isJsonObject(value)) objectMutations(node, value, push, holder);
}

/** Every single mutation of the valid `sample` that breaks one rule, each with the field at fault. */
export function mutationsOf(view: OperationView, direction: Direction, sample: Sample): Mutation[] {
  const out: Mutation[] = [];
  eachNode(view, direction, sample, (node) => nodeMutations(node, out));
  if (direction === 'request')
    for (const name of view.namedChecks) out.push(...(namedCheckRules[name]?.break(sample) ?? []));
  return out;
}

/** The sample with one mutation applied (a copy). */
export function applyMutation(sample: Sample, m: Mutation): Sample {
  const copy: Sample = structuredClone(sample);
  const [first, ...rest] = m.at;
  const inParameters = first === '$query' || first === '$path';
  const root: Record<string, unknown> = inParameters
    ? ((first === '$query' ? copy.query : copy.path) ?? {})
    : { payload: copy.payload };
  const path = inParameters ? rest : ['payload', ...m.at];
  const last = path.pop();
  if (last === undefined) return copy;
  const parent = path.reduce<unknown>(
    (node, key) => (node !== null && typeof node === 'object' ? Reflect.get(node, key) : undefined),
    root,
  );
  if (parent === null || typeof parent !== 'object') return copy;
  if (m.action === 'delete') Reflect.deleteProperty(parent, last);
  else Object.defineProperty(parent, last, { value: m.value, enumerable: true, writable: true, configurable: true });
  if (!inParameters) copy.payload = root.payload;
  return copy;
}

/** Every place of a schema, reachable from `root`, that holds a rule of the given kind. */
export function ruleLocations(root: Schema): Map<Mutation['kind'], Set<string>> {
  const found = new Map<Mutation['kind'], Set<string>>();
  const add = (kind: Mutation['kind'], s: SchemaObject) => {
    const set = found.get(kind) ?? new Set<string>();
    set.add(where(s));
    found.set(kind, set);
  };
  const seen = new Set<SchemaObject>();
  const visit = (s: Schema | undefined, inThen: boolean) => {
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
    for (const b of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) visit(b, inThen);
    if (s.then) visit(s.then, true);
    for (const k of [s.items, s.additionalProperties]) if (typeof k === 'object') visit(k, false);
  };
  visit(root, false);
  return found;
}

/** Where, among the schemas reachable from `root`, `wanted` holds. */
export function locationsWhere(root: Schema, wanted: (schema: SchemaObject) => boolean): Set<string> {
  const found = new Set<string>();
  const seen = new Set<SchemaObject>();
  const visit = (s: Schema | undefined) => {
    if (!s || typeof s !== 'object' || seen.has(s)) return;
    seen.add(s);
    if (wanted(s)) found.add(where(s));
    if (s.$ref) visit(resolveRef(s.$ref));
    for (const p of Object.values(s.properties ?? {})) visit(p);
    for (const b of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) visit(b);
    for (const k of [s.then, s.items, s.additionalProperties]) visit(k);
  };
  visit(root);
  return found;
}
