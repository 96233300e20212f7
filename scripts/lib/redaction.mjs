// Which values of an exchange may be written in clear: per operation and direction, the places
// (JSON Pointers, `*` for any array item or any member of an open map) whose scalar values the contract marks public
// (`x-public: true`), the places it marks secret (`x-sensitive: true`), and the query and path
// parameters marked public. Every other value is masked by whoever writes an exchange down
// (docs/decisions.md, D-102). A place that can hold a scalar and carries neither marking stops the
// generation: a new field is masked until someone says what it is.
import { operationRefs } from './contractOperations.mjs';
import { refPointer, valueAt } from './pointers.mjs';

/** Nesting followed into a payload's schema; the contract nests a dozen levels. */
const MAX_DEPTH = 32;
/** Applicators whose branches declare the shape of the same place (`if` and `not` only test it). */
const BRANCHES = ['allOf', 'oneOf', 'anyOf', 'then', 'else'];
const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/** @param {any} doc @param {any} schema @returns {any} the schema a `$ref` chain ends at */
function resolve(doc, schema) {
  let node = schema;
  for (let guard = 0; guard < 32 && node && typeof node === 'object' && typeof node.$ref === 'string'; guard++) {
    const pointer = refPointer(node.$ref);
    if (pointer === null) return undefined;
    node = valueAt(doc, pointer);
  }
  return node;
}

/**
 * The marking of one declaration: its own `x-sensitive` / `x-public`, else that of the schema its
 * `$ref` (or a lone `allOf` entry) leads to. `secret`, `public`, `masked` or null (none).
 * @param {any} doc @param {any} schema @returns {'secret' | 'public' | 'masked' | null}
 */
export function markingOf(doc, schema) {
  let node = schema;
  for (let guard = 0; guard < 32 && node && typeof node === 'object'; guard++) {
    if (node['x-sensitive'] === true) return 'secret';
    if (node['x-public'] === true) return 'public';
    if (node['x-public'] === false) return 'masked';
    if (typeof node.$ref === 'string') node = resolve(doc, { $ref: node.$ref });
    else if (Array.isArray(node.allOf) && node.allOf.length === 1) node = node.allOf[0];
    else if (Array.isArray(node.anyOf) || Array.isArray(node.oneOf))
      return markingOfBranches(doc, node.anyOf ?? node.oneOf);
    else return null;
  }
  return null;
}

/**
 * The marking of a choice of schemas: secret when one branch is, public when all are, masked when all
 * are marked, none otherwise. @param {any} doc @param {any[]} branches @returns {'secret' | 'public' | 'masked' | null}
 */
function markingOfBranches(doc, branches) {
  const marks = branches.map((b) => markingOf(doc, b));
  if (marks.includes('secret')) return 'secret';
  if (marks.length > 0 && marks.every((m) => m === 'public')) return 'public';
  return marks.length > 0 && marks.every((m) => m !== null) ? 'masked' : null;
}

/** Whether a schema (resolved) admits a scalar value. @param {any} doc @param {any} schema @returns {boolean} */
function admitsScalar(doc, schema) {
  const node = resolve(doc, schema);
  if (!node || typeof node !== 'object') return true;
  if (
    Array.isArray(node.allOf) &&
    node.allOf.length === 1 &&
    Object.keys(node).every((k) => k === 'allOf' || !k.match(/^(type|properties|items)$/))
  )
    return admitsScalar(doc, node.allOf[0]);
  if (node.type === undefined) {
    if ('const' in node) return node.const === null || typeof node.const !== 'object';
    if (Array.isArray(node.enum))
      return node.enum.some((/** @type {unknown} */ v) => v === null || typeof v !== 'object');
    const choice = node.anyOf ?? node.oneOf;
    if (Array.isArray(choice)) return choice.some((/** @type {any} */ b) => admitsScalar(doc, b));
    return !(node.properties || node.items || node.allOf || node.additionalProperties);
  }
  return (Array.isArray(node.type) ? node.type : [node.type]).some((/** @type {string} */ t) => SCALAR_TYPES.has(t));
}

/**
 * What a payload's schema says of each place: for every pointer, the declarations found there.
 * @param {any} doc @param {any} schema @returns {Map<string, any[]>}
 */
function placesOf(doc, schema) {
  /** @type {Map<string, any[]>} */
  const places = new Map();
  /** @param {any} node @param {string} pointer @param {number} depth */
  const visit = (node, pointer, depth) => {
    if (depth > MAX_DEPTH) throw new Error(`a schema nests deeper than ${MAX_DEPTH} levels at ${pointer}`);
    const target = resolve(doc, node);
    if (!target || typeof target !== 'object') return;
    for (const key of BRANCHES) {
      const branch = target[key];
      if (Array.isArray(branch)) for (const b of branch) visit(b, pointer, depth + 1);
      else if (branch && typeof branch === 'object') visit(branch, pointer, depth + 1);
    }
    if (target.properties && typeof target.properties === 'object') {
      for (const [name, declaration] of Object.entries(target.properties)) {
        const at = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        const list = places.get(at) ?? [];
        list.push(declaration);
        places.set(at, list);
        visit(declaration, at, depth + 1);
      }
    }
    // Array items and the values of an open map: any item, any member (`*`).
    for (const any of [target.items, target.additionalProperties]) {
      if (!any || typeof any !== 'object') continue;
      const at = `${pointer}/*`;
      const list = places.get(at) ?? [];
      list.push(any);
      places.set(at, list);
      visit(any, at, depth + 1);
    }
  };
  visit(schema, '', 0);
  return places;
}

/**
 * The classification of every place of a payload that can hold a scalar: public when a declaration
 * there is marked public and none secret, secret when one is marked secret, masked otherwise;
 * `unmarked` lists the places no declaration marks.
 * @param {any} doc @param {any} schema
 */
export function classifyPayload(doc, schema) {
  /** @type {string[]} */ const publicPlaces = [];
  /** @type {string[]} */ const secretPlaces = [];
  /** @type {string[]} */ const unmarked = [];
  for (const [pointer, declarations] of placesOf(doc, schema)) {
    if (!declarations.some((d) => admitsScalar(doc, d))) continue;
    const marks = declarations.map((d) => markingOf(doc, d));
    if (marks.includes('secret')) secretPlaces.push(pointer);
    else if (marks.includes('public') && !marks.includes('masked')) publicPlaces.push(pointer);
    else if (marks.every((m) => m === null)) unmarked.push(pointer);
  }
  return { public: publicPlaces.sort(), secret: secretPlaces.sort(), unmarked: unmarked.sort() };
}

/** @param {any} doc @param {any} op @param {'request' | 'response'} direction */
function payloadSchema(doc, op, direction) {
  const body = direction === 'request' ? resolve(doc, op.requestBody) : resolve(doc, op.responses?.['200']);
  return body?.content?.['application/json']?.schema;
}

/**
 * Per operation and direction, what may be written in clear. Throws, naming every place, when a
 * place that can hold a scalar, or a parameter, carries no marking.
 * @param {any} doc
 */
export function redactionOf(doc) {
  /** @type {Record<string, any>} */
  const out = {};
  /** @type {string[]} */
  const unmarked = [];
  for (const { operationId, op } of operationRefs(doc)) {
    /** @type {Record<string, any>} */
    const entry = {};
    for (const direction of /** @type {const} */ (['request', 'response'])) {
      const schema = payloadSchema(doc, op, direction);
      const payload = schema ? classifyPayload(doc, schema) : { public: [], secret: [], unmarked: [] };
      for (const place of payload.unmarked) unmarked.push(`${operationId} ${direction} ${place || '(the payload)'}`);
      entry[direction] = { public: payload.public, secret: payload.secret };
    }
    /** @type {{ query: string[], path: string[] }} */
    const parameters = { query: [], path: [] };
    for (const reference of op.parameters ?? []) {
      const parameter = resolve(doc, reference);
      if (parameter?.in !== 'query' && parameter?.in !== 'path') continue;
      const mark = markingOf(doc, parameter) ?? markingOf(doc, parameter.schema);
      if (mark === null) unmarked.push(`${operationId} ${parameter.in} parameter ${parameter.name}`);
      if (mark === 'public') parameters[/** @type {'query' | 'path'} */ (parameter.in)].push(parameter.name);
    }
    entry.request.query = parameters.query.sort();
    entry.request.path = parameters.path.sort();
    out[operationId] = entry;
  }
  if (unmarked.length > 0)
    throw new Error(
      `${unmarked.length} place(s) of a payload carry neither x-sensitive: true nor x-public (true or false): ${unmarked.join(', ')}. Mark each field in openapi/ (docs/decisions.md, D-102).`,
    );
  return out;
}

/**
 * The keys of open maps that the contract names itself (`propertyNames.enum`, such as the sub-wallets
 * of `subwalletAmount`): words of the contract, written in clear like field names.
 * @param {any} doc @returns {string[]}
 */
export function publicKeysOf(doc) {
  const keys = new Set();
  /** @param {unknown} node */
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const names = /** @type {any} */ (node).propertyNames;
    if (names && Array.isArray(names.enum)) for (const key of names.enum) if (typeof key === 'string') keys.add(key);
    for (const value of Object.values(node)) visit(value);
  };
  visit(doc.components?.schemas);
  return [...keys].sort();
}

/** @param {any} doc @param {string} header */
export function buildRedaction(doc, header) {
  const json = JSON.stringify(redactionOf(doc), null, 2);
  const keys = JSON.stringify(publicKeysOf(doc), null, 2);
  const keysWhat =
    '/** The keys of open maps the contract names itself (`propertyNames.enum`): written in clear like field names. */';
  const what =
    '/** Per operation and direction, the places whose values are written in clear (`x-public: true`; `*`: any array item), the places of secrets (`x-sensitive: true`), and the public query and path parameters. Everything else is masked (docs/decisions.md, D-102). */';
  const type = `{ readonly [operationId: string]: { readonly request: RedactionPlaces & { readonly query: readonly string[]; readonly path: readonly string[] }; readonly response: RedactionPlaces } }`;
  return {
    'redaction.js': `// ${header}\n${what}\nexport const redaction = Object.freeze(${json});\n${keysWhat}\nexport const publicKeys = Object.freeze(${keys});\n`,
    'redaction.d.ts': `// ${header}\nexport interface RedactionPlaces {\n  readonly public: readonly string[];\n  readonly secret: readonly string[];\n}\n${what}\nexport declare const redaction: ${type};\n${keysWhat}\nexport declare const publicKeys: readonly string[];\n`,
  };
}
