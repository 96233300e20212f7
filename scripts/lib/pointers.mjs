// JSON Pointers into the bundled contract, and the schemas that describe one field of a payload.
// The change check reports every change at a pointer of the bundle (`generated/openapi.json`), the
// place a reviewer opens, never at a path inside a tool's own merged copy of the schemas.

/** @param {string | number} token */
export function escapeToken(token) {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** @param {string} token */
function unescapeToken(token) {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `['paths', '/a/b', 'post']` -> `/paths/~1a~1b/post` @param {ReadonlyArray<string | number>} segments */
export function pointerOf(segments) {
  return segments.map((s) => `/${escapeToken(s)}`).join('');
}

/** @param {string} pointer @returns {string[]} */
export function segmentsOf(pointer) {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeToken);
}

/** The value at a JSON Pointer, or undefined. @param {unknown} doc @param {string} pointer @returns {any} */
export function valueAt(doc, pointer) {
  /** @type {any} */
  let node = doc;
  for (const key of segmentsOf(pointer)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** `#/components/schemas/Money` -> `/components/schemas/Money`; null for a reference to another document. @param {unknown} ref */
export function refPointer(ref) {
  return typeof ref === 'string' && ref.startsWith('#') ? decodeURIComponent(ref.slice(1)) : null;
}

/** Follows `$ref` from a pointer until a node that is not a reference. @param {unknown} doc @param {string} pointer */
export function derefPointer(doc, pointer) {
  let current = pointer;
  for (let guard = 0; guard < 64; guard += 1) {
    const target = refPointer(valueAt(doc, current)?.$ref);
    if (target === null) return current;
    current = target;
  }
  return current;
}

/**
 * The pointer of a path of keys in the bundle, following `$ref` where the key is not on the
 * reference itself: `/paths/~1x/post/requestBody/content/application~1json/examples/a/value`
 * becomes `/components/examples/A/value`. Stops at the deepest node that exists.
 * @param {unknown} doc @param {string} base @param {ReadonlyArray<string | number>} keys
 */
export function pointerThrough(doc, base, keys) {
  let current = base;
  for (const key of keys) {
    const node = valueAt(doc, current);
    if (node && typeof node === 'object' && Object.hasOwn(node, String(key))) {
      current = `${current}/${escapeToken(key)}`;
      continue;
    }
    const target = refPointer(node?.$ref);
    if (target !== null && valueAt(doc, target) !== undefined) {
      const resolved = derefPointer(doc, target);
      const next = valueAt(doc, resolved);
      if (next && typeof next === 'object' && Object.hasOwn(next, String(key))) {
        current = `${resolved}/${escapeToken(key)}`;
        continue;
      }
    }
    break;
  }
  return current;
}

/**
 * Pointers of every schema that describes the same value as the schema at `pointer`: itself, the
 * target of its `$ref`, its `allOf`/`oneOf`/`anyOf` parts and its `then`/`else` branches.
 * @param {unknown} doc @param {string} pointer @param {Set<string>} [into]
 */
export function schemaClosure(doc, pointer, into = new Set()) {
  if (into.has(pointer)) return into;
  const node = valueAt(doc, pointer);
  if (!node || typeof node !== 'object') return into;
  into.add(pointer);
  const target = refPointer(node.$ref);
  if (target !== null) schemaClosure(doc, target, into);
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    if (Array.isArray(node[key]))
      for (let i = 0; i < node[key].length; i++) schemaClosure(doc, `${pointer}/${key}/${i}`, into);
  }
  for (const key of ['then', 'else'])
    if (node[key] && typeof node[key] === 'object') schemaClosure(doc, `${pointer}/${key}`, into);
  return into;
}

/**
 * Pointers of the schemas that describe one field, reached from a root schema through a chain of
 * property names (`[]` for the items of an array, `*` for the values of a map).
 * @param {unknown} doc @param {string} root @param {ReadonlyArray<string>} chain
 */
export function fieldSchemas(doc, root, chain) {
  let current = [...schemaClosure(doc, root)];
  for (const name of chain) {
    /** @type {Set<string>} */
    const next = new Set();
    for (const pointer of current) {
      const node = valueAt(doc, pointer);
      if (name === '[]') {
        if (node?.items && typeof node.items === 'object') schemaClosure(doc, `${pointer}/items`, next);
      } else if (name === '*') {
        if (node?.additionalProperties && typeof node.additionalProperties === 'object')
          schemaClosure(doc, `${pointer}/additionalProperties`, next);
      } else if (node?.properties && typeof node.properties === 'object' && Object.hasOwn(node.properties, name)) {
        schemaClosure(doc, `${pointer}/properties/${escapeToken(name)}`, next);
      }
    }
    current = [...next];
  }
  return current;
}

/** Structural equality of JSON values. @param {unknown} a @param {unknown} b @returns {boolean} */
export function sameJson(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameJson(/** @type {any} */ (a)[k], /** @type {any} */ (b)[k]));
}
