// The contract's `if`/`then`/`else` rules as types (DECISIONS.md, D-83). openapi-typescript drops
// `if`/`then`/`else`; this step rewrites, in the copy of the contract that openapi-typescript
// reads (never in the contract the validators compile), every conditional into the `oneOf` it is
// equivalent to, so that the types carry it exactly:
//   - a guard on a tag's value (`required: [t]`, `properties: {t: {const | enum}}`): one branch per
//     case the guards tell apart (the tag narrowed to the values of that case, the `then`s of the
//     guards it meets and the `else`s of those it does not), and one for the rest (the tag's other
//     values, or no tag when it is optional), with its `else`s;
//   - a guard on a property's presence (`not: {required: [x]}`): `{ x?: undefined }` with the `then`s
//     against `{ x: T }` with the `else`s.
// Guards on one tag (or one property's presence) make one `oneOf` together, so that a union stays
// one level deep and the compiler names the missing field. What a `then` or `else` can hold: a
// `required` list, `properties` that are `true`, `false` (forbidden: `?: undefined`), a `const` or
// `enum` (narrowed), or a `pattern` whose matching values, with the property's own pattern, are a
// short finite list (narrowed to those strings). Anything else, and any other shape of `if`, has
// no exact type: the step fails and names the schema location. Driven by the contract alone, never
// by a schema's name.

import { enumerate } from './patternStrings.mjs';

/**
 * What a branch writes for a property it forbids: `?: undefined` (buildTypes' `transform` hook),
 * the type of a property that is absent. JSON leaves out a property whose value is undefined, and
 * the validators take it for absent; as a unit type it lets the compiler tell the branches apart
 * and name the missing field (D-84).
 */
export const ABSENT = 'x-conditional-absent';

const ANNOTATIONS = new Set(['title', 'description', '$comment', 'examples', 'example', 'deprecated']);
/** At most this many strings in a narrowed pattern (patternStrings.mjs bounds how many it tries). */
const MAX_VALUES = 64;

export class ConditionalTypeError extends Error {}

/**
 * Returns a copy of the bundled contract whose schemas hold no `if`: each conditional is the
 * equivalent `oneOf`. Throws a ConditionalTypeError naming the location of one it cannot type.
 * @param {any} doc
 */
export function withTypedConditionals(doc) {
  const copy = structuredClone(doc);
  walkSchemas(copy, (schema, pointer) => rewrite(copy, schema, pointer));
  return copy;
}

/** Calls `visit` on every schema object of the document, deepest first. @param {any} doc @param {(schema: any, pointer: string) => void} visit */
function walkSchemas(doc, visit) {
  // An allOf member holding an if is the conditional of the schema around it: rewritten with it.
  /** @param {any} node @param {string} pointer @param {boolean} isSchema @param {boolean} [inAllOf] */
  const walk = (node, pointer, isSchema, inAllOf = false) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${pointer}/${i}`, isSchema, inAllOf);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (
        key.startsWith('x-') ||
        key === 'example' ||
        key === 'examples' ||
        key === 'enum' ||
        key === 'const' ||
        key === 'default'
      )
        continue;
      const at = `${pointer}/${escapeToken(key)}`;
      if (
        isSchema &&
        (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'dependentSchemas')
      ) {
        for (const [name, sub] of Object.entries(value ?? {})) walk(sub, `${at}/${escapeToken(name)}`, true);
      } else if (isSchema && (key === 'allOf' || key === 'oneOf' || key === 'anyOf' || key === 'prefixItems')) {
        walk(value, at, true, key === 'allOf');
      } else if (
        isSchema &&
        [
          'items',
          'not',
          'if',
          'then',
          'else',
          'additionalProperties',
          'unevaluatedProperties',
          'contains',
          'propertyNames',
        ].includes(key)
      ) {
        walk(value, at, true);
      } else if (!isSchema && (key === 'schema' || (key === 'schemas' && pointer === '#/components'))) {
        if (key === 'schema') walk(value, at, true);
        else for (const [name, sub] of Object.entries(value ?? {})) walk(sub, `${at}/${escapeToken(name)}`, true);
      } else if (!isSchema) {
        walk(value, at, false);
      }
    }
    if (isSchema && !(inAllOf && 'if' in node)) visit(node, pointer);
  };
  walk(doc, '#', false);
}

/** @param {string} key */
function escapeToken(key) {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** @param {any} doc @param {string} ref */
function deref(doc, ref) {
  if (!ref.startsWith('#/')) throw new ConditionalTypeError(`cannot follow the reference ${ref}`);
  let node = doc;
  for (const part of ref.slice(2).split('/')) node = node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  return node;
}

/** Follows `$ref`s to the schema they name. @param {any} doc @param {any} schema */
function resolved(doc, schema) {
  let node = schema;
  for (let i = 0; i < 32 && node && typeof node === 'object' && typeof node.$ref === 'string'; i++)
    node = deref(doc, node.$ref);
  return node;
}

/**
 * @typedef {{ at: string, kind: 'tag' | 'presence', key: string, values?: unknown[], then?: any, else?: any }} Conditional
 */

/** @param {any} doc @param {any} schema @param {string} pointer */
function rewrite(doc, schema, pointer) {
  /** @type {Conditional[]} */
  const conditionals = [];
  if ('if' in schema) {
    conditionals.push(parse(schema, pointer));
    delete schema.if;
    delete schema.then;
    delete schema.else;
  } else if ('then' in schema || 'else' in schema) {
    throw new ConditionalTypeError(`${pointer}: a then or else without an if`);
  }
  if (Array.isArray(schema.allOf)) {
    const kept = [];
    for (const [i, member] of schema.allOf.entries()) {
      if (member && typeof member === 'object' && 'if' in member) {
        const at = `${pointer}/allOf/${i}`;
        const extra = Object.keys(member).filter(
          (k) => !['if', 'then', 'else', 'type'].includes(k) && !ANNOTATIONS.has(k),
        );
        if (extra.length > 0 || (member.type !== undefined && member.type !== 'object'))
          throw new ConditionalTypeError(
            `${at}: an if beside other keywords (${extra.join(', ') || 'type'}) has no exact type; write the conditional as an allOf member of its own`,
          );
        conditionals.push(parse(member, at));
      } else kept.push(member);
    }
    schema.allOf = kept;
  }
  if (conditionals.length === 0) return;
  /** @type {Map<string, Conditional[]>} */
  const groups = new Map();
  for (const c of conditionals) {
    const id = `${c.kind}:${c.key}`;
    groups.set(id, [...(groups.get(id) ?? []), c]);
  }
  const unions = [...groups.values()].map((group) => ({ oneOf: branches(doc, schema, group) }));
  schema.allOf = [...(schema.allOf ?? []), ...unions];
}

/** Reads an `if` of one of the two typed shapes. @param {any} holder @param {string} at @returns {Conditional} */
function parse(holder, at) {
  const guard = holder.if;
  const where = `${at}/if`;
  if (!guard || typeof guard !== 'object')
    throw new ConditionalTypeError(`${where}: an if that is not a schema object has no exact type`);
  if (holder.then === undefined && holder.else === undefined)
    throw new ConditionalTypeError(`${at}: an if with neither then nor else`);
  const keys = Object.keys(guard).filter((k) => !ANNOTATIONS.has(k) && !(k === 'type' && guard.type === 'object'));
  // A guard on a property's presence: `not: {required: [x]}` (with `properties: {x: true}` at most).
  if (keys.length === 1 && keys[0] === 'not') {
    const not = guard.not;
    const notKeys = Object.keys(not ?? {}).filter(
      (k) => !ANNOTATIONS.has(k) && !(k === 'type' && not.type === 'object'),
    );
    const [key] = Array.isArray(not?.required) ? not.required : [];
    const propertiesOk =
      not?.properties === undefined ||
      (Object.keys(not.properties).length === 1 && key in not.properties && isTrivial(not.properties[key]));
    if (not?.required?.length === 1 && propertiesOk && notKeys.every((k) => k === 'required' || k === 'properties'))
      return { at, kind: 'presence', key, then: holder.then, else: holder.else };
    throw new ConditionalTypeError(`${where}: only "not: {required: [one property]}" is typed as a guard on presence`);
  }
  // A guard on a tag's value: `required: [t]`, `properties: {t: {const} | {enum}}`.
  if (keys.length === 2 && keys.includes('required') && keys.includes('properties')) {
    const names = Object.keys(guard.properties ?? {});
    const [tag] = names;
    const test = guard.properties?.[tag];
    const testKeys = Object.keys(test ?? {}).filter((k) => !ANNOTATIONS.has(k));
    if (
      names.length === 1 &&
      Array.isArray(guard.required) &&
      guard.required.length === 1 &&
      guard.required[0] === tag &&
      testKeys.length === 1 &&
      (testKeys[0] === 'const' || (testKeys[0] === 'enum' && Array.isArray(test.enum)))
    )
      return {
        at,
        kind: 'tag',
        key: tag,
        values: 'const' in test ? [test.const] : test.enum,
        then: holder.then,
        else: holder.else,
      };
  }
  throw new ConditionalTypeError(
    `${where}: only a guard on one required property's value (required: [t], properties: {t: {const or enum}}) or on a property's absence (not: {required: [x]}) has an exact type`,
  );
}

/** @param {any} schema */
function isTrivial(schema) {
  return (
    schema === true || (schema && typeof schema === 'object' && Object.keys(schema).every((k) => ANNOTATIONS.has(k)))
  );
}

/** @param {unknown[]} values */
function valueSet(values) {
  return new Map(values.map((v) => [JSON.stringify(v), v]));
}

/**
 * The `oneOf` branches of a group of conditionals on one tag or one presence.
 * @param {any} doc @param {any} schema @param {Conditional[]} group
 */
function branches(doc, schema, group) {
  const { kind, key } = group[0];
  const at = group[0].at;
  const base = schema.properties ?? {};
  if (!(key in base))
    throw new ConditionalTypeError(`${at}/if: "${key}" is not a property of the schema, so its type is unknown`);
  const tagRequired = Array.isArray(schema.required) && schema.required.includes(key);
  /** @type {{ title: string, tag: any, tagRequired: boolean, applied: { part: any, at: string }[] }[]} */
  const cases = [];
  if (kind === 'presence') {
    // The case without the property last: when neither case matches, the compiler names the fields
    // of the last one it tried, and a merchant who left the property out wants to read what else
    // its absence asks for (D-84).
    cases.push({
      title: `with ${key}`,
      tag: typeSchema(base[key]),
      tagRequired: true,
      applied: group.flatMap((c) => part(c, 'else')),
    });
    cases.push({
      title: `without ${key}`,
      tag: { [ABSENT]: true },
      tagRequired: false,
      applied: group.flatMap((c) => part(c, 'then')),
    });
  } else {
    const domain = domainOf(doc, schema, key);
    if (!domain)
      throw new ConditionalTypeError(
        `${at}/if: the values of "${key}" are not a finite list (no const or enum, in the property or in every branch of a oneOf beside it), so the cases the if leaves out have no exact type`,
      );
    // Values with the same guards met make one case; the values no guard names are the rest.
    /** @type {Map<string, unknown[]>} */
    const cells = new Map();
    for (const [id, value] of domain) {
      const signature = group.map((c) => (valueSet(c.values ?? []).has(id) ? '1' : '0')).join('');
      cells.set(signature, [...(cells.get(signature) ?? []), value]);
    }
    const none = '0'.repeat(group.length);
    for (const [signature, values] of cells) {
      if (signature === none) continue;
      const applied = group.flatMap((c, i) => part(c, signature[i] === '1' ? 'then' : 'else'));
      cases.push({
        title: `${key} ${values.map((v) => JSON.stringify(v)).join(', ')}`,
        tag: narrowed(values),
        tagRequired: true,
        applied,
      });
    }
    const rest = cells.get(none) ?? [];
    if (rest.length > 0 || !tagRequired) {
      cases.push({
        title:
          rest.length > 0
            ? `${key} ${rest.map((v) => JSON.stringify(v)).join(', ')}${tagRequired ? '' : ' or absent'}`
            : `without ${key}`,
        tag: rest.length > 0 ? narrowed(rest) : { [ABSENT]: true },
        tagRequired: tagRequired,
        applied: group.flatMap((c) => part(c, 'else')),
      });
    }
  }
  return cases.map((c) => branch(doc, schema, key, c));
}

/** @param {Conditional} c @param {'then' | 'else'} which */
function part(c, which) {
  return c[which] === undefined ? [] : [{ part: c[which], at: `${c.at}/${which}` }];
}

/** The schema of exactly these values. @param {unknown[]} values */
function narrowed(values) {
  if (values.length === 1 && values[0] !== null) return { const: values[0] };
  const types = [...new Set(values.map((v) => (v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v)))];
  return { type: types.length === 1 ? types[0] : types, enum: values };
}

/** A property's schema without its annotations (its type is all a branch needs). @param {any} property */
function typeSchema(property) {
  if (property === true || property === false || property === null || typeof property !== 'object') return property;
  return Object.fromEntries(Object.entries(property).filter(([k]) => !ANNOTATIONS.has(k) && !k.startsWith('x-')));
}

/**
 * The finite list of values a property can take, from its own `const`/`enum`, or from every branch
 * of a `oneOf` beside it (directly, or in an `allOf` member) pinning it; undefined when there is none.
 * @param {any} doc @param {any} schema @param {string} key @returns {Map<string, unknown> | undefined}
 */
function domainOf(doc, schema, key) {
  const own = pinned(resolved(doc, schema.properties?.[key]));
  if (own) return valueSet(own);
  for (const holder of [schema, ...(schema.allOf ?? []).map((/** @type {any} */ m) => resolved(doc, m))]) {
    if (!Array.isArray(holder?.oneOf)) continue;
    const lists = holder.oneOf.map((/** @type {any} */ b) => {
      const branch = resolved(doc, b);
      return branch?.required?.includes(key) ? pinned(resolved(doc, branch.properties?.[key])) : undefined;
    });
    if (lists.every(Boolean)) return valueSet(lists.flat());
  }
  return undefined;
}

/** @param {any} property @returns {unknown[] | undefined} */
function pinned(property) {
  if (!property || typeof property !== 'object') return undefined;
  if ('const' in property) return [property.const];
  if (Array.isArray(property.enum)) return property.enum;
  return undefined;
}

/**
 * One branch: the tag (or the presence) of its case, and what the `then`s and `else`s it takes say.
 * @param {any} doc @param {any} schema @param {string} key
 * @param {{ title: string, tag: any, tagRequired: boolean, applied: { part: any, at: string }[] }} c
 */
function branch(doc, schema, key, c) {
  /** @type {Map<string, { forbidden?: boolean, values?: Map<string, unknown>, required?: boolean }>} */
  const rules = new Map();
  const rule = (/** @type {string} */ name) => {
    if (!rules.has(name)) rules.set(name, {});
    return /** @type {{ forbidden?: boolean, values?: Map<string, unknown>, required?: boolean }} */ (rules.get(name));
  };
  for (const { part: p, at } of c.applied) {
    if (p === true) continue;
    if (!p || typeof p !== 'object')
      throw new ConditionalTypeError(`${at}: a then or else that is not a schema object has no exact type`);
    for (const k of Object.keys(p)) {
      if (ANNOTATIONS.has(k) || k === 'required' || k === 'properties' || (k === 'type' && p.type === 'object'))
        continue;
      throw new ConditionalTypeError(
        `${at}: "${k}" in a then or else has no exact type (typed: required, and properties that are true, false, const, enum or a pattern with few values)`,
      );
    }
    for (const name of p.required ?? []) {
      if (!(name in (schema.properties ?? {})))
        throw new ConditionalTypeError(
          `${at}/required: "${name}" is not a property of the schema, so its type is unknown`,
        );
      rule(name).required = true;
    }
    for (const [name, sub] of Object.entries(p.properties ?? {})) {
      const where = `${at}/properties/${escapeToken(name)}`;
      if (!(name in (schema.properties ?? {})))
        throw new ConditionalTypeError(`${where}: "${name}" is not a property of the schema, so its type is unknown`);
      if (isTrivial(sub)) continue;
      if (sub === false) {
        rule(name).forbidden = true;
        continue;
      }
      const values = allowedValues(doc, schema.properties[name], sub, where);
      const r = rule(name);
      r.values = r.values ? new Map([...r.values].filter(([id]) => values.has(id))) : values;
    }
  }
  /** @type {Record<string, any>} */
  const properties = { [key]: c.tag };
  const required = c.tagRequired ? [key] : [];
  for (const [name, r] of [...rules].sort(([a], [b]) => a.localeCompare(b))) {
    if (name === key)
      throw new ConditionalTypeError(
        `${c.applied[0]?.at}: a then or else that constrains its own guard's property has no exact type here`,
      );
    if (r.forbidden && r.required)
      throw new ConditionalTypeError(
        `${c.applied[0]?.at}: "${name}" is both required and forbidden in the case ${c.title}`,
      );
    if (r.values?.size === 0)
      throw new ConditionalTypeError(`${c.applied[0]?.at}: no value of "${name}" is left in the case ${c.title}`);
    properties[name] = r.forbidden
      ? { [ABSENT]: true }
      : r.values
        ? narrowed([...r.values.values()])
        : typeSchema(schema.properties[name]);
    if (r.required) required.push(name);
  }
  return { title: c.title, type: 'object', required, properties };
}

/**
 * The values a `then` lets a property take: its `const` or `enum` (within the property's own), or
 * the few strings that match both its `pattern` and the property's own.
 * @param {any} doc @param {any} baseProperty @param {any} sub @param {string} where @returns {Map<string, unknown>}
 */
function allowedValues(doc, baseProperty, sub, where) {
  const keys = Object.keys(sub).filter((k) => !ANNOTATIONS.has(k));
  const own = resolved(doc, baseProperty);
  const ownValues = pinned(own);
  const within = (/** @type {unknown[]} */ values) => {
    const set = valueSet(values);
    return ownValues ? new Map([...set].filter(([id]) => valueSet(ownValues).has(id))) : set;
  };
  if (keys.length === 1 && keys[0] === 'const') return within([sub.const]);
  if (keys.length === 1 && keys[0] === 'enum' && Array.isArray(sub.enum)) return within(sub.enum);
  const patternOnly = keys.every((k) => k === 'pattern' || (k === 'type' && sub.type === 'string'));
  if (patternOnly && typeof sub.pattern === 'string') {
    const ownKeys = Object.keys(own ?? {}).filter((k) => !ANNOTATIONS.has(k) && !k.startsWith('x-'));
    if (own?.type !== 'string' || !ownKeys.every((k) => k === 'type' || k === 'pattern'))
      throw new ConditionalTypeError(
        `${where}: a pattern narrows only a string property with no constraint but its own pattern`,
      );
    const patterns = [sub.pattern, ...(own.pattern ? [own.pattern] : [])];
    const candidates = patterns.map(enumerate).find(Boolean);
    if (candidates) {
      const matching = candidates.filter((s) => patterns.every((p) => new RegExp(p, 'u').test(s)));
      if (matching.length > 0 && matching.length <= MAX_VALUES) return valueSet(matching);
    }
    throw new ConditionalTypeError(
      `${where}: the strings matching ${JSON.stringify(sub.pattern)}${own.pattern ? ` and ${JSON.stringify(own.pattern)}` : ''} are not a list of at most ${MAX_VALUES}, so the pattern has no exact type`,
    );
  }
  throw new ConditionalTypeError(
    `${where}: ${keys.map((k) => `"${k}"`).join(', ')} has no exact type (typed: true, false, const, enum, or a pattern with few values)`,
  );
}
