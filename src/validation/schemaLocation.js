// Maps an AJV error back to the absolute place of the rule in the bundled contract
// (`#/components/schemas/CardInfo/oneOf/1/required`). AJV reports `schemaPath` relative to the
// referenced schema it compiled separately, so we find which schema that was by walking the
// contract along the payload's path. Runs only for invalid payloads, never on the valid path.

const COMPOSITION = ['allOf', 'oneOf', 'anyOf'];

/** @param {any} doc @param {string} ref */
function resolveRef(doc, ref) {
  return ref.slice(2).split('/').reduce((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

/**
 * Every named schema (`#/components/schemas/X`) that applies at each depth of `segments`,
 * starting from `rootRef`.
 * @param {any} doc @param {string} rootRef @param {string[]} segments
 * @returns {{ ref: string, depth: number }[]}
 */
function applicableRefs(doc, rootRef, segments) {
  /** @type {{ ref: string, depth: number }[]} */
  const found = [];
  /** @type {Set<string>} */
  const seen = new Set();
  /** @param {any} schema @param {number} depth @param {string | null} ref */
  const visit = (schema, depth, ref) => {
    if (!schema || typeof schema !== 'object') return;
    if (typeof schema.$ref === 'string') {
      const key = `${schema.$ref}@${depth}`;
      if (seen.has(key)) return;
      seen.add(key);
      found.push({ ref: schema.$ref, depth });
      visit(resolveRef(doc, schema.$ref), depth, schema.$ref);
      return;
    }
    for (const k of COMPOSITION) for (const s of schema[k] ?? []) visit(s, depth, ref);
    for (const k of ['if', 'then', 'else', 'not']) if (schema[k]) visit(schema[k], depth, ref);
    if (depth >= segments.length) return;
    const seg = segments[depth];
    if (schema.properties && seg in schema.properties) visit(schema.properties[seg], depth + 1, ref);
    else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') visit(schema.additionalProperties, depth + 1, ref);
    if (schema.items && /^\d+$/.test(seg)) visit(schema.items, depth + 1, ref);
  };
  visit({ $ref: rootRef }, 0, null);
  return found;
}

/** Counts the payload segments a relative schema path walks down through. @param {string[]} parts */
function consumedSegments(parts) {
  let n = 0;
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === 'properties' || parts[i] === 'patternProperties') { n++; i++; } else if (parts[i] === 'items' || parts[i] === 'additionalProperties') n++;
  }
  return n;
}

/**
 * @param {any} doc the bundled contract
 * @param {string} rootRef e.g. `#/components/schemas/PaymentRequest`
 * @param {{ instancePath: string, schemaPath: string }} error
 * @returns {string} the absolute schema path, or the relative one when it cannot be placed
 */
export function locateRule(doc, rootRef, error) {
  const { schemaPath } = error;
  if (schemaPath.startsWith('#/components/')) return schemaPath;
  const rel = schemaPath.replace(/^#\/?/, '');
  const parts = rel === '' ? [] : rel.split('/');
  const segments = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  // The keyword itself is the last part; the schema holding it must exist in the candidate.
  const holder = parts.slice(0, -1);
  const consumed = consumedSegments(holder);
  const candidates = [{ ref: rootRef, depth: 0 }, ...applicableRefs(doc, rootRef, segments)].filter((c) => c.depth + consumed === segments.length);
  const keyword = parts.at(-1);
  for (const candidate of candidates.reverse()) {
    const base = resolveRef(doc, candidate.ref);
    const node = holder.reduce((n, key) => n?.[key], base);
    if (node === undefined) continue;
    // The candidate must hold the keyword itself: a schema pulled in with allOf sits at the same
    // place in the payload but holds other keywords.
    const holds = keyword === undefined || (keyword === 'false schema' ? node === false
      : keyword === 'discriminator' ? Array.isArray(node?.oneOf)
        : node !== null && typeof node === 'object' && keyword in node);
    if (!holds) continue;
    // AJV's discriminator is added to the oneOf by the validator build; the rule is the oneOf.
    const path = keyword === 'discriminator' ? [...holder, 'oneOf'].join('/') : rel;
    return `${candidate.ref}${path ? `/${path}` : ''}`;
  }
  return schemaPath;
}

/**
 * The title of the nearest conditional (oneOf/anyOf branch, allOf rule, if/then) that holds the
 * rule at `absolutePath`, for messages such as "required by: Network token (CARD_TOKEN)".
 * @param {any} doc @param {string} absolutePath
 */
export function conditionTitle(doc, absolutePath) {
  if (!absolutePath.startsWith('#/')) return undefined;
  const parts = absolutePath.slice(2).split('/');
  let title;
  let node = doc;
  for (let i = 0; i < parts.length; i++) {
    node = node?.[parts[i]];
    const parent = parts[i - 1];
    if (node && typeof node === 'object' && typeof node.title === 'string' && (parent === 'oneOf' || parent === 'anyOf' || parent === 'allOf' || parts[i] === 'then')) title = node.title;
  }
  return title;
}

/** The schema object that holds the keyword at `absolutePath`. @param {any} doc @param {string} absolutePath */
export function schemaAt(doc, absolutePath) {
  if (!absolutePath.startsWith('#/')) return undefined;
  return absolutePath.slice(2).split('/').slice(0, -1).reduce((n, key) => n?.[key], doc);
}
