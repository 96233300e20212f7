// The structural diff of two bundled contracts, by api-smart-diff (OpenAPI 3 rules, references
// resolved, each change found at every operation that uses the changed schema). Three things are
// adapted here, and nothing else:
// - Webhooks: the library has no rules for them. Each webhook is compared as an operation whose
//   request is the merchant's reply and whose response is the service's notification, so the
//   library's request and response rules read in the merchant's direction.
// - Variants: the library pairs `oneOf`/`anyOf`/`allOf` items by the fewest differences, which
//   pairs the wrong variants when one changes (a one-word change produced dozens of false
//   "breaking" value changes). Items are paired by the tag they pin with `const` (the contract's
//   convention for variants and result codes), else by title, else by position.
// - Scope: operations, and parts of operations, whose schemas did not change are left out, and
//   `components` is not compared on its own (every change is reported where an operation uses it).
// The library changes the documents it is given: it gets copies.
import {
  combinaryCompareResolver,
  compare,
  compareOpenApi,
  createChildContext,
  diffFactory,
  openapi3Rules,
  transformComapreRules,
} from 'api-smart-diff';
import { refPointer, valueAt } from './pointers.mjs';

/** @typedef {import('api-smart-diff').Diff} Diff */
/** @typedef {import('api-smart-diff').ComapreContext} CompareContext */
/** @typedef {import('api-smart-diff').CompareResult} CompareResult */
/** @typedef {import('api-smart-diff').CompareRules} CompareRules */

/** Path key under which a webhook is compared as an operation. */
export const WEBHOOK_PREFIX = '/__webhook__/';
export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** @param {unknown} node @param {unknown} root @returns {any} */
function resolved(node, root) {
  let current = /** @type {any} */ (node);
  for (let guard = 0; guard < 64 && current && typeof current === 'object'; guard += 1) {
    const target = refPointer(current.$ref);
    if (target === null) break;
    current = valueAt(root, target);
  }
  return current;
}

/** The properties an item pins with `const`, through `$ref` and `allOf`. @param {unknown} item @param {unknown} root */
function pinnedValues(item, root, seen = new Set()) {
  /** @type {Map<string, string>} */
  const out = new Map();
  const node = resolved(item, root);
  if (!node || typeof node !== 'object' || seen.has(node)) return out;
  seen.add(node);
  for (const [name, sub] of Object.entries(node.properties ?? {})) {
    const schema = resolved(sub, root);
    if (schema && typeof schema === 'object' && Object.hasOwn(schema, 'const'))
      out.set(name, JSON.stringify(schema.const));
  }
  for (const part of Array.isArray(node.allOf) ? node.allOf : []) {
    for (const [name, value] of pinnedValues(part, root, seen)) if (!out.has(name)) out.set(name, value);
  }
  return out;
}

/** @param {unknown} item @param {unknown} root @returns {string | undefined} */
function titleOf(item, root) {
  const node = resolved(item, root);
  if (!node || typeof node !== 'object') return undefined;
  if (typeof node.title === 'string') return node.title;
  for (const part of Array.isArray(node.allOf) ? node.allOf : []) {
    const title = resolved(part, root)?.title;
    if (typeof title === 'string') return title;
  }
  return undefined;
}

/**
 * A key per item: the value of the one property every item pins with a distinct `const`, else the
 * title when all titles are distinct. Null when neither identifies the items.
 * @param {unknown[]} items @param {unknown} root @returns {{ by: string, keys: string[] } | null}
 */
function itemKeys(items, root) {
  if (items.length === 0) return { by: 'none', keys: [] };
  const pinned = items.map((item) => pinnedValues(item, root));
  for (const name of pinned[0].keys()) {
    const values = pinned.map((p) => p.get(name));
    if (values.every((v) => v !== undefined) && new Set(values).size === items.length)
      return { by: `const:${name}`, keys: /** @type {string[]} */ (values) };
  }
  const titles = items.map((item) => titleOf(item, root));
  if (titles.every((t) => t !== undefined) && new Set(titles).size === items.length)
    return { by: 'title', keys: /** @type {string[]} */ (titles) };
  return null;
}

/**
 * The rules of a child node, as the library derives them (json-crawl's rule lookup).
 * @param {any} rules @param {string} key @param {unknown[]} path @param {unknown} value @returns {any}
 */
function childRules(rules, key, path, value) {
  const at = { key, path, value };
  const deep = typeof rules['/**'] === 'function' ? rules['/**'](at) : rules['/**'];
  const any = typeof rules['/*'] === 'function' ? rules['/*'](at) : rules['/*'];
  /** @type {any} */
  let own = {};
  if (`/${key}` in rules) own = rules[`/${key}`];
  else if (!deep && !any) return undefined;
  own = typeof own === 'function' ? own(at) : own;
  if (any) own = { ...any, ...own };
  return deep ? { '/**': rules['/**'], ...deep, ...own } : own;
}

/**
 * Pairs the items of `oneOf`/`anyOf`/`allOf` by their pinned tag or title (or by position when
 * both lists have the same length), compares each pair with the library, and reports the others
 * as added or removed. Lists it cannot key go to the library's own pairing.
 * @param {CompareContext} ctx @returns {CompareResult}
 */
function pairedCombinerCompare(ctx) {
  const { before, after, options } = ctx;
  if (!Array.isArray(before.value) || !Array.isArray(after.value))
    return /** @type {CompareResult} */ (combinaryCompareResolver(ctx));
  const b = itemKeys(before.value, before.root);
  const a = itemKeys(after.value, after.root);
  /** @type {Array<[number, number]>} */
  const pairs = [];
  if (b && a && (b.by === a.by || b.by === 'none' || a.by === 'none')) {
    b.keys.forEach((key, i) => {
      const j = a.keys.indexOf(key);
      if (j >= 0) pairs.push([i, j]);
    });
    // Keyed by title, but a title changed: pair by position when nothing else moved.
    if (
      b.by === 'title' &&
      pairs.length < b.keys.length &&
      before.value.length === after.value.length &&
      pairs.every(([i, j]) => i === j)
    ) {
      pairs.length = 0;
      for (let i = 0; i < before.value.length; i++) pairs.push([i, i]);
    }
  } else if (before.value.length === after.value.length) {
    for (let i = 0; i < before.value.length; i++) pairs.push([i, i]);
  } else {
    return /** @type {CompareResult} */ (combinaryCompareResolver(ctx));
  }
  const rules = childRules(ctx.rules, '*', before.path, before.value);
  /** @type {Diff[]} */
  const diffs = [];
  /** @type {unknown[]} */
  const merged = [];
  for (const [i, j] of pairs) {
    const result = compare(
      before.value[i],
      after.value[j],
      { ...options, rules },
      {
        before: { jsonPath: [...before.path, i], source: before.root },
        after: { jsonPath: [...after.path, j], source: after.root },
      },
    );
    diffs.push(...result.diffs);
    merged[j] = result.merged;
  }
  const pairedBefore = new Set(pairs.map(([i]) => i));
  const pairedAfter = new Set(pairs.map(([, j]) => j));
  before.value.forEach((item, i) => {
    if (!pairedBefore.has(i))
      diffs.push(diffFactory.removed([...before.path, i], item, createChildContext(ctx, i, '')));
  });
  after.value.forEach((item, j) => {
    if (pairedAfter.has(j)) return;
    merged[j] = item;
    diffs.push(diffFactory.added([...after.path, j], item, createChildContext(ctx, '', j)));
  });
  return { diffs, merged };
}

/** The library's OpenAPI rules, with our pairing of variants and without comparing components on their own. */
function contractRules() {
  // Built for each comparison: the rules hold the library's cache of compared references.
  const base = /** @type {CompareRules} */ ({ ...openapi3Rules(), '/components': { skip: true } });
  return transformComapreRules(base, (rule) =>
    rule.compare === combinaryCompareResolver ? { ...rule, compare: pairedCombinerCompare } : rule,
  );
}

/** Every local `$ref` reachable from a node, transitively. @param {unknown} doc @param {unknown} node */
function reachableRefs(doc, node, into = new Set()) {
  const stack = [node];
  while (stack.length) {
    const current = /** @type {any} */ (stack.pop());
    if (!current || typeof current !== 'object') continue;
    if (typeof current.$ref === 'string' && !into.has(current.$ref)) {
      into.add(current.$ref);
      const target = refPointer(current.$ref);
      if (target !== null) stack.push(valueAt(doc, target));
    }
    for (const value of Object.values(current)) if (value && typeof value === 'object') stack.push(value);
  }
  return into;
}

/** The path item and everything it references, as one string. @param {unknown} doc @param {unknown} item */
function fingerprint(doc, item) {
  const refs = [...reachableRefs(doc, item)].sort();
  return JSON.stringify([item, refs.map((ref) => [ref, valueAt(doc, refPointer(ref) ?? '')])]);
}

/**
 * A copy of the bundle the library can compare: webhooks as operations (request and response
 * swapped, see above).
 * @param {any} doc
 */
function comparable(doc) {
  const copy = structuredClone(doc);
  copy.paths = copy.paths ?? {};
  for (const key of Object.keys(copy.paths)) {
    if (key.startsWith(WEBHOOK_PREFIX))
      throw new Error(`the path ${key} clashes with the prefix used to compare webhooks`);
  }
  for (const [name, item] of Object.entries(copy.webhooks ?? {})) {
    /** @type {Record<string, any>} */
    const swapped = {};
    for (const [method, op] of Object.entries(/** @type {Record<string, any>} */ (item))) {
      if (!METHODS.includes(method) || !op || typeof op !== 'object') {
        swapped[method] = op;
        continue;
      }
      const { requestBody, responses, ...rest } = op;
      const reply = responses?.['200'];
      swapped[method] = {
        ...rest,
        ...(reply ? { requestBody: { required: true, content: reply.content ?? {} } } : {}),
        responses: requestBody ? { 200: { description: 'notification', content: requestBody.content ?? {} } } : {},
      };
    }
    copy.paths[`${WEBHOOK_PREFIX}${name}`] = swapped;
  }
  delete copy.webhooks;
  return copy;
}

/**
 * The library's diffs between two bundled contracts, paths as in its compared copies (webhooks
 * under `WEBHOOK_PREFIX`). Only operations that changed are compared.
 * @param {any} before @param {any} after @returns {Diff[]}
 */
export function smartDiff(before, after) {
  const b = comparable(before);
  const a = comparable(after);
  for (const key of Object.keys(b.paths)) {
    if (!(key in a.paths)) continue;
    if (fingerprint(b, b.paths[key]) === fingerprint(a, a.paths[key])) {
      delete b.paths[key];
      delete a.paths[key];
      continue;
    }
    // Within an operation that changed, its parts that did not change (request body, responses,
    // parameters) are left out too: the large result-code tables are compared only when they may
    // have changed.
    for (const method of METHODS) {
      const opB = b.paths[key]?.[method];
      const opA = a.paths[key]?.[method];
      if (!opB || !opA || typeof opB !== 'object' || typeof opA !== 'object') continue;
      for (const part of ['requestBody', 'responses', 'parameters']) {
        if (part in opB && part in opA && fingerprint(b, opB[part]) === fingerprint(a, opA[part])) {
          delete opB[part];
          delete opA[part];
        }
      }
    }
  }
  return compareOpenApi(b, a, { rules: contractRules() }).diffs;
}
