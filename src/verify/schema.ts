// The contract's schemas as the request generator reads them: the component schemas and parameters
// that generated/contract.js ships (every constraint of generated/openapi.json, without its prose,
// examples and extensions), `$ref`s resolved, each schema object named by its JSON Pointer, and a
// small evaluator of the keywords this contract uses, for the generator's own choices (which branch
// a value took, whether a conditional holds, whether a mutation really breaks a rule). The verdict
// on a payload always comes from the package's validators; this evaluator only steers generation.
import { isDeepStrictEqual } from 'node:util';
import { contract } from '../../generated/contract.js';

/** A JSON Schema object of the contract, with the keywords the generator reads. */
export interface SchemaObject {
  readonly $ref?: string;
  readonly allOf?: readonly Schema[];
  readonly oneOf?: readonly Schema[];
  readonly anyOf?: readonly Schema[];
  readonly not?: Schema;
  readonly if?: Schema;
  readonly then?: Schema;
  readonly else?: Schema;
  readonly type?: string | readonly string[];
  readonly const?: unknown;
  readonly enum?: readonly unknown[];
  readonly pattern?: string;
  readonly format?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly additionalProperties?: Schema;
  readonly unevaluatedProperties?: Schema;
  readonly propertyNames?: Schema;
  readonly items?: Schema;
  readonly [keyword: string]: unknown;
}

/** A schema: an object, or `true`/`false`. */
export type Schema = boolean | SchemaObject;

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
const isSchema = (v: unknown): v is Schema => typeof v === 'boolean' || isJsonObject(v);

/** The component schemas and parameters, parsed once. */
const document = contract();

/** The schema at a local `$ref` (`#/components/...`). */
export function resolveRef(ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`Only local $ref is supported: ${ref}`);
  const node = ref
    .slice(2)
    .split('/')
    .reduce<unknown>(
      (n, key) => (isJsonObject(n) ? n[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
      document,
    );
  if (!isSchema(node)) throw new Error(`No schema at ${ref}`);
  return node;
}

/** JSON Pointer of every schema object of the contract, by identity (to name the rule a mutation breaks). */
const locations = new Map<object, string>();
function index(node: unknown, pointer: string): void {
  if (!node || typeof node !== 'object') return;
  if (!Array.isArray(node)) locations.set(node, pointer);
  for (const [key, value] of Object.entries(node))
    index(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
}
index(document.components.schemas, '#/components/schemas');

/** Where a schema object lives in the bundled contract, as a JSON Pointer (`(inline)` when it is not the contract's). */
export const where = (schema: Schema): string =>
  typeof schema === 'object' ? (locations.get(schema) ?? '(inline)') : String(schema);

/** The schemas that hold at one place: `$ref` and `allOf` flattened (branches and conditionals kept). */
export function conjuncts(schema: Schema | undefined, out: Schema[] = []): Schema[] {
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

/** The conjuncts of every schema of `list`, each once (`true` drops out). */
export function flatten(list: readonly Schema[]): Schema[] {
  return [...new Set(list.flatMap((s) => conjuncts(s)))];
}

/** The JSON type of a value, `integer` for whole numbers. */
export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** JSON Schema lengths count code points (a lone surrogate counts one), as the validators do. */
export const counted = (v: string): number => [...v].length;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})[Tt ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;
/** `scheme://host[:port][/path][?query][#fragment]` in characters (or percent escapes) every part of RFC 3986 allows. */
const URI =
  /^[a-z][a-z0-9+.-]*:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?(?:\/(?:[a-z0-9._~!$&'()*+,;=:@-]|%[0-9a-f]{2})*)*(?:\?(?:[a-z0-9._~!$&'()*+,;=:@/?-]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9._~!$&'()*+,;=:@/?-]|%[0-9a-f]{2})*)?$/i;

/** ajv-formats' full expression of an IPv6 address, as the validators judge one. */
const IPV6 =
  /^((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))$/i;

/** Whether `YYYY-MM-DD` is a day of the calendar. */
function isDay(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return month >= 1 && month <= 12 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The formats the generator checks: each accepts only strings the validators accept (email and ipv4
 * and ipv6 are ajv-formats' full expressions; date, date-time and uri narrower forms of theirs), so a
 * value generated as valid is valid, and a value broken for a format is broken for them too.
 */
const FORMAT_CHECKS: Readonly<Record<string, (text: string) => boolean>> = {
  email: (t) =>
    /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i.test(
      t,
    ),
  ipv4: (t) => /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(t),
  ipv6: (t) => IPV6.test(t),
  date: isDay,
  'date-time': (t) => {
    const m = DATE_TIME.exec(t);
    return m?.[1] !== undefined && isDay(m[1]);
  },
  uri: (t) => URI.test(t),
};

/** Whether `text` has the format `name` (see FORMAT_CHECKS). */
export function formatHolds(name: string, text: string): boolean {
  const check = FORMAT_CHECKS[name];
  if (!check) throw new Error(`Unknown format ${name}`);
  return check(text);
}

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
]);

/** Property names a schema evaluates (for unevaluatedProperties), through its applicators. */
function evaluatedNames(schema: Schema | undefined, value: unknown, out = new Set<string>()): Set<string> {
  if (!schema || typeof schema !== 'object') return out;
  if (schema.$ref) evaluatedNames(resolveRef(schema.$ref), value, out);
  for (const k of Object.keys(schema.properties ?? {})) out.add(k);
  for (const part of schema.allOf ?? []) evaluatedNames(part, value, out);
  for (const part of [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])])
    if (satisfies(part, value)) evaluatedNames(part, value, out);
  if (schema.if !== undefined) {
    if (satisfies(schema.if, value)) {
      evaluatedNames(schema.if, value, out);
      evaluatedNames(schema.then, value, out);
    } else evaluatedNames(schema.else, value, out);
  }
  return out;
}

const stringRule = (value: unknown, test: (text: string) => boolean): boolean =>
  typeof value !== 'string' || test(value);

/** Whether one keyword of `schema` holds for `value`. */
function keywordHolds(schema: SchemaObject, key: string, rule: unknown, value: unknown): boolean {
  const object = isJsonObject(value) ? value : undefined;
  const schemas = (): Schema[] => (Array.isArray(rule) ? rule.filter(isSchema) : []);
  switch (key) {
    case '$ref':
      return satisfies(resolveRef(String(rule)), value);
    case 'allOf':
      return schemas().every((s) => satisfies(s, value));
    case 'anyOf':
      return schemas().some((s) => satisfies(s, value));
    case 'oneOf':
      return schemas().filter((s) => satisfies(s, value)).length === 1;
    case 'not':
      return !satisfies(isSchema(rule) ? rule : true, value);
    case 'if':
      return satisfies(satisfies(isSchema(rule) ? rule : true, value) ? schema.then : schema.else, value);
    case 'type': {
      const t = typeOf(value);
      return ([] as unknown[]).concat(rule).some((want) => want === t || (want === 'number' && t === 'integer'));
    }
    case 'const':
      return isDeepStrictEqual(rule, value);
    case 'enum':
      return Array.isArray(rule) && rule.some((v) => isDeepStrictEqual(v, value));
    case 'pattern':
      return stringRule(value, (v) => new RegExp(String(rule), 'u').test(v));
    case 'format':
      return stringRule(value, (v) => formatHolds(String(rule), v));
    case 'minLength':
      return stringRule(value, (v) => counted(v) >= Number(rule));
    case 'maxLength':
      return stringRule(value, (v) => counted(v) <= Number(rule));
    case 'required':
      return !object || (Array.isArray(rule) && rule.every((k) => Object.hasOwn(object, String(k))));
    case 'properties':
      return (
        !object ||
        Object.entries(schema.properties ?? {}).every(([k, s]) => !Object.hasOwn(object, k) || satisfies(s, object[k]))
      );
    case 'additionalProperties':
      return (
        !object ||
        Object.keys(object).every(
          (k) => Object.hasOwn(schema.properties ?? {}, k) || satisfies(schema.additionalProperties, object[k]),
        )
      );
    case 'unevaluatedProperties': {
      if (!object) return true;
      const known = evaluatedNames(schema, value);
      return Object.keys(object).every((k) => known.has(k) || satisfies(schema.unevaluatedProperties, object[k]));
    }
    case 'propertyNames':
      return !object || Object.keys(object).every((k) => satisfies(schema.propertyNames, k));
    case 'items':
      return !Array.isArray(value) || value.every((v) => satisfies(schema.items, v));
    default:
      throw new Error(`The request generator does not know the keyword "${key}" (at ${where(schema)}).`);
  }
}

/** Whether `value` meets `schema`, by the keywords this contract uses. */
export function satisfies(schema: Schema | undefined, value: unknown): boolean {
  if (schema === true || schema === undefined) return true;
  if (schema === false) return false;
  for (const [key, rule] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key) || key.startsWith('x-') || key === 'then' || key === 'else') continue;
    if (!keywordHolds(schema, key, rule, value)) return false;
  }
  return true;
}

/** The contract's component parameter named by a `$ref`, or the parameter itself. */
export function componentParameter(name: string): { name: string; in: string; required: boolean; schema: Schema } {
  const p = document.components.parameters[name];
  if (!isJsonObject(p) || typeof p.name !== 'string' || typeof p.in !== 'string')
    throw new Error(`No parameter ${name} in the contract.`);
  return { name: p.name, in: p.in, required: p.required === true, schema: isSchema(p.schema) ? p.schema : true };
}
