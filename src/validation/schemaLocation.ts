// Maps an AJV error back to the absolute place of the rule in the bundled contract
// (`#/components/schemas/CardInfo/oneOf/1/required`). AJV reports `schemaPath` relative to the
// referenced schema it compiled separately, so we find which schema that was by walking the
// contract along the payload's path. Runs only for invalid payloads, never on the valid path.

/** A node of the bundled contract, read without assumptions about its shape. */
type Node = unknown;

const COMPOSITION = ['allOf', 'oneOf', 'anyOf'] as const;

/** The child `key` of a node, when the node is an object. */
function child(node: Node, key: string): Node {
  return node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
}

function resolveRef(doc: Node, ref: string): Node {
  return ref
    .slice(2)
    .split('/')
    .reduce((node, key) => child(node, key.replace(/~1/g, '/').replace(/~0/g, '~')), doc);
}

function schemas(list: Node): Node[] {
  return Array.isArray(list) ? list : [];
}

/** Every named schema (`#/components/schemas/X`) that applies at each depth of `segments`, starting from `rootRef`. */
function applicableRefs(doc: Node, rootRef: string, segments: string[]): { ref: string; depth: number }[] {
  const found: { ref: string; depth: number }[] = [];
  const seen = new Set<string>();
  const visit = (schema: Node, depth: number): void => {
    if (!schema || typeof schema !== 'object') return;
    const ref = child(schema, '$ref');
    if (typeof ref === 'string') {
      const key = `${ref}@${depth}`;
      if (seen.has(key)) return;
      seen.add(key);
      found.push({ ref, depth });
      visit(resolveRef(doc, ref), depth);
      return;
    }
    for (const k of COMPOSITION) for (const s of schemas(child(schema, k))) visit(s, depth);
    for (const k of ['if', 'then', 'else', 'not']) {
      const sub = child(schema, k);
      if (sub) visit(sub, depth);
    }
    const seg = segments[depth];
    if (seg === undefined) return;
    const properties = child(schema, 'properties');
    const additional = child(schema, 'additionalProperties');
    if (properties && typeof properties === 'object' && seg in properties) visit(child(properties, seg), depth + 1);
    else if (additional && typeof additional === 'object') visit(additional, depth + 1);
    const items = child(schema, 'items');
    if (items && /^\d+$/.test(seg)) visit(items, depth + 1);
  };
  visit({ $ref: rootRef }, 0);
  return found;
}

/** Counts the payload segments a relative schema path walks down through. */
function consumedSegments(parts: string[]): number {
  let n = 0;
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === 'properties' || parts[i] === 'patternProperties') {
      n++;
      i++;
    } else if (parts[i] === 'items' || parts[i] === 'additionalProperties') n++;
  }
  return n;
}

/**
 * The absolute schema path of an error's rule (`rootRef` is the schema the payload was validated
 * against, e.g. `#/components/schemas/InitiatePaymentRequest`), or the relative one when it cannot be placed.
 */
export function locateRule(doc: Node, rootRef: string, error: { instancePath: string; schemaPath: string }): string {
  const { schemaPath } = error;
  if (schemaPath.startsWith('#/components/')) return schemaPath;
  const rel = schemaPath.replace(/^#\/?/, '');
  const parts = rel === '' ? [] : rel.split('/');
  const segments =
    error.instancePath === ''
      ? []
      : error.instancePath
          .slice(1)
          .split('/')
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  // The keyword itself is the last part; the schema holding it must exist in the candidate.
  const holder = parts.slice(0, -1);
  const consumed = consumedSegments(holder);
  const candidates = [{ ref: rootRef, depth: 0 }, ...applicableRefs(doc, rootRef, segments)].filter(
    (c) => c.depth + consumed === segments.length,
  );
  const keyword = parts.at(-1);
  for (const candidate of candidates.reverse()) {
    const base = resolveRef(doc, candidate.ref);
    const node = holder.reduce((n, key) => child(n, key), base);
    if (node === undefined) continue;
    // The candidate must hold the keyword itself: a schema pulled in with allOf sits at the same
    // place in the payload but holds other keywords.
    const holds =
      keyword === undefined ||
      (keyword === 'false schema'
        ? node === false
        : keyword === 'discriminator'
          ? Array.isArray(child(node, 'oneOf'))
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
 */
export function conditionTitle(doc: Node, absolutePath: string): string | undefined {
  if (!absolutePath.startsWith('#/')) return undefined;
  const parts = absolutePath.slice(2).split('/');
  let title: string | undefined;
  let node = doc;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    node = child(node, part);
    const parent = parts[i - 1];
    const nodeTitle = child(node, 'title');
    if (
      typeof nodeTitle === 'string' &&
      (parent === 'oneOf' || parent === 'anyOf' || parent === 'allOf' || part === 'then')
    )
      title = nodeTitle;
  }
  return title;
}

/** The schema object that holds the keyword at `absolutePath`. */
export function schemaAt(doc: Node, absolutePath: string): Node {
  if (!absolutePath.startsWith('#/')) return undefined;
  return absolutePath
    .slice(2)
    .split('/')
    .slice(0, -1)
    .reduce((n, key) => child(n, key), doc);
}
