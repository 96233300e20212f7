// The Schema Objects of a request body, a response or a parameter: where a library diff points
// (the field, the keyword, the item), the place in the bundle it is reported at, and its class by
// who sends the payload (the table of `schemaRules.mjs`). What the result-code tables hold is left to
// `resultCodeDiff.mjs`.

import { senderOf } from '../contractOperations.mjs';
import { derefPointer, escapeToken, sameJson, valueAt } from '../pointers.mjs';
import { ANNOTATION_KEYWORDS, classifySchemaChange, levelOfLibraryType } from '../schemaRules.mjs';
import { actionWord } from './context.mjs';

/** @typedef {import('./context.mjs').Context} Context */
/** @typedef {import('../resultCodeDiff.mjs').Change} Change */
/** @typedef {import('../schemaRules.mjs').Level} Level */
/** @typedef {import('api-smart-diff').Diff} Diff */
/** @typedef {ReturnType<typeof parseSchemaPath>} SchemaPath */
/**
 * A payload schema a diff is in: the operation and side, where the schema is in each contract, and
 * the diff's path below it.
 * @typedef {{ operation: string, kind: 'operation' | 'webhook', direction: 'request' | 'response', side: string, rootBefore: string, rootAfter: string, schemaPath: ReadonlyArray<string | number> }} SchemaSite
 */

const COMBINERS = new Set(['oneOf', 'anyOf', 'allOf']);
const LIST_KEYWORDS = new Set(['enum', 'required', 'type', 'examples']);
const TABLE_KEYWORDS = new Set(['const', 'enum', 'examples', 'example', 'properties', 'required']);

/** `['body', 'goodsInfo', '[]', 'price']` -> `body.goodsInfo[].price` (`*`: any other property of a map) @param {ReadonlyArray<string>} chain */
export function fieldLabel(chain) {
  return chain.reduce((text, name) => (name === '[]' ? `${text}[]` : text ? `${text}.${name}` : name), '');
}

/**
 * Where a schema path of the library's compared copy points: the chain of fields, the keyword
 * that changed and, for a list keyword, the item. Combiners and `then`/`else` are crossed (they
 * describe the same value); their positions are kept to recognise the result-code tables.
 * @param {ReadonlyArray<string | number>} path
 */
export function parseSchemaPath(path) {
  /** @type {string[]} */
  const chain = [];
  /** @type {Array<{ at: number, keyword: string }>} */
  const crossed = [];
  let conditional = false;
  for (let i = 0; i < path.length; i += 1) {
    const seg = String(path[i]);
    const last = i === path.length - 1;
    if (seg === 'properties' && !last) {
      if (i + 2 === path.length)
        return {
          chain,
          crossed,
          conditional,
          keyword: 'properties',
          item: String(path[i + 1]),
          nested: false,
          rest: [String(path[i + 1])],
        };
      chain.push(String(path[i + 1]));
      i += 1;
    } else if (seg === 'items' && !last && typeof path[i + 1] !== 'number') {
      chain.push('[]');
    } else if (seg === 'additionalProperties' && !last) {
      chain.push('*');
    } else if (COMBINERS.has(seg) && !last) {
      if (i + 2 === path.length)
        return {
          chain,
          crossed,
          conditional,
          keyword: seg,
          item: String(path[i + 1]),
          nested: false,
          rest: [String(path[i + 1])],
        };
      crossed.push({ at: chain.length, keyword: seg });
      i += 1;
    } else if ((seg === 'then' || seg === 'else') && !last) {
      conditional = true;
    } else {
      const rest = path.slice(i + 1).map(String);
      // One more segment is an item of a list keyword (an enum value, a required name, a type);
      // anything else below the keyword is inside the keyword's own value or subschema.
      const nested = rest.length > (LIST_KEYWORDS.has(seg) ? 1 : 0);
      return { chain, crossed, conditional, keyword: seg, item: nested ? undefined : rest[0], nested, rest };
    }
  }
  return { chain, crossed, conditional, keyword: '', item: undefined, nested: false, rest: [] };
}

/** The first title found in a variant as the library holds it (possibly wrapped in allOf). @param {any} node @returns {string | undefined} */
function variantTitle(node) {
  if (!node || typeof node !== 'object') return undefined;
  if (typeof node.title === 'string') return node.title;
  for (const part of Array.isArray(node.allOf) ? node.allOf : []) {
    const title = variantTitle(part);
    if (title) return title;
  }
  return undefined;
}

/**
 * Whether the result-code table rules read this diff: inside a table, the code, status and
 * messages of each code (other keywords of those fields, a length, a type, are reported here).
 * @param {Context} ctx @param {SchemaSite} at @param {SchemaPath} parsed
 */
function readByCodeTable(ctx, at, parsed) {
  const table = at.direction === 'response' ? ctx.tables.get(at.operation) : undefined;
  if (!table?.chain.every((name, i) => parsed.chain[i] === name)) return false;
  const fields = table.entry.fields;
  const depth = table.chain.length;
  const inBranch = parsed.crossed.some((c) => c.at === depth && c.keyword === 'oneOf');
  const isBranch = parsed.chain.length === depth && parsed.keyword === 'oneOf' && parsed.item !== undefined;
  const rel = parsed.chain.slice(depth);
  const relField = rel[0] ?? (parsed.keyword === 'properties' ? parsed.item : undefined);
  const tableKeyword = TABLE_KEYWORDS.has(parsed.keyword);
  return (
    isBranch ||
    (inBranch &&
      (relField === undefined ||
        ([fields.code, fields.status, fields.message].includes(relField) && rel.length <= 1 && tableKeyword)))
  );
}

/**
 * Whether this is the first time a change is met: the library reports one change at every place a
 * shared schema is used, once is enough. @param {Context} ctx @param {string} key
 */
function firstReport(ctx, key) {
  if (ctx.seen.has(key)) return false;
  ctx.seen.add(key);
  return true;
}

/** @param {unknown} v */
function shortJson(v) {
  return v !== null && typeof v === 'object' ? JSON.stringify(v).slice(0, 200) : JSON.stringify(v);
}

/**
 * The pointer of a change in the bundle: the first schema of the field whose keyword differs
 * between the two contracts; for a variant, the variant itself.
 * @param {Context} ctx @param {Diff} diff @param {string[]} candidatesBefore @param {string[]} candidatesAfter
 * @param {string} target @param {string} keyword @param {string} fallback
 */
function locate(ctx, diff, candidatesBefore, candidatesAfter, target, keyword, fallback) {
  const { before, after } = ctx;
  const ordered =
    diff.action === 'add' ? [...candidatesAfter, ...candidatesBefore] : [...candidatesBefore, ...candidatesAfter];
  const candidates = [...new Set(ordered)];
  const aliases = [
    target,
    ...(keyword === 'enum' ? ['const'] : keyword === 'const' ? ['enum'] : keyword === 'examples' ? ['example'] : []),
  ];
  for (const name of aliases) {
    for (const pointer of candidates) {
      const path = `${pointer}/${name}`;
      if (sameJson(valueAt(before, path), valueAt(after, path))) continue;
      if (COMBINERS.has(keyword) && diff.action !== 'replace') {
        const title = variantTitle(diff.action === 'add' ? diff.after : diff.before);
        const doc = diff.action === 'add' ? after : before;
        const list = valueAt(doc, path);
        const index = Array.isArray(list)
          ? list.findIndex((_, i) => variantTitle(valueAt(doc, derefPointer(doc, `${path}/${i}`))) === title)
          : -1;
        return index >= 0 ? `${path}/${index}` : path;
      }
      return path;
    }
  }
  return candidates.find((p) => !sameJson(valueAt(before, p), valueAt(after, p))) ?? candidates[0] ?? fallback;
}

/**
 * A list of values where the schema had none (or none where it had one) is one change of the
 * field, the whole list added or removed: the library reports each value of the list on its own,
 * as if the field had been an enum with fewer values. A `const` already limited the field.
 * Returns the values to classify (the item's, or the whole lists'), or null when the whole list
 * was already reported.
 * @param {Context} ctx @param {Diff} diff @param {SchemaSite} at @param {SchemaPath} parsed @param {string} location
 * @returns {{ isItem: boolean, valueBefore: unknown, valueAfter: unknown } | null}
 */
function valuesToClassify(ctx, diff, at, parsed, location) {
  const { before, after } = ctx;
  const isItem = parsed.item !== undefined && !parsed.nested;
  if (
    !(
      parsed.keyword === 'enum' &&
      isItem &&
      (diff.action === 'add' || diff.action === 'remove') &&
      location.endsWith('/enum')
    )
  )
    return { isItem, valueBefore: diff.before, valueAfter: diff.after };
  const holder = location.slice(0, -'/enum'.length);
  const other = valueAt(diff.action === 'add' ? before : after, holder);
  if (!(other && typeof other === 'object' && !Object.hasOwn(other, 'enum') && !Object.hasOwn(other, 'const')))
    return { isItem, valueBefore: diff.before, valueAfter: diff.after };
  if (!firstReport(ctx, `whole enum|${at.operation}|${at.direction}|${location}|${diff.action}`)) return null;
  return { isItem: false, valueBefore: valueAt(before, location), valueAfter: valueAt(after, location) };
}

/** The library's own words and class, for a change the table leaves to it. @param {Diff} diff @param {string} keyword */
function libraryWords(diff, keyword) {
  const description = String(diff.description ?? '')
    .replace(/^\[[^\]]*\]\s*/, '')
    .replace(/ in (Request Body|Response \d+) content.*$/, '');
  const unread = diff.type === 'unclassified' ? '; not classified, read as breaking' : '';
  return `${keyword} ${actionWord(diff.action)}${description ? ` (${description.slice(0, 120)})` : ''}${unread}`;
}

/**
 * A change inside a payload schema: located in the bundle, classified by who sends the payload.
 * @param {Context} ctx @param {Diff} diff @param {SchemaSite} at @returns {Change | null}
 */
export function schemaChange(ctx, diff, at) {
  const { before, after } = ctx;
  const parsed = parseSchemaPath(at.schemaPath);
  if (readByCodeTable(ctx, at, parsed)) return null;

  // A name added to or removed from `required` is a change of that field.
  const isField = parsed.keyword === 'properties' && parsed.item !== undefined;
  const requiredName =
    parsed.keyword === 'required' && !parsed.nested
      ? [diff.after, diff.before].find((v) => typeof v === 'string')
      : undefined;
  const chain = isField
    ? [...parsed.chain, /** @type {string} */ (parsed.item)]
    : requiredName
      ? [...parsed.chain, requiredName]
      : parsed.chain;
  // Inside a keyword's own subschema (propertyNames, additionalProperties, ...), an annotation is still an annotation.
  const annotation = parsed.nested
    ? parsed.rest.find((k) => ANNOTATION_KEYWORDS.has(k) || k.startsWith('x-'))
    : undefined;
  const keyword = annotation ?? parsed.keyword;
  const field = fieldLabel(chain);
  const key = [
    at.operation,
    at.direction,
    at.rootBefore,
    at.rootAfter,
    field,
    keyword,
    parsed.nested,
    parsed.conditional,
    diff.action,
    shortJson(diff.before),
    shortJson(diff.after),
  ];
  if (!firstReport(ctx, key.join('|'))) return null;

  const candidatesBefore = ctx.fields(before, at.rootBefore, parsed.chain);
  const candidatesAfter = ctx.fields(after, at.rootAfter, parsed.chain);
  const target = isField
    ? `properties/${escapeToken(/** @type {string} */ (parsed.item))}`
    : escapeToken(parsed.keyword);
  const location = locate(ctx, diff, candidatesBefore, candidatesAfter, target, parsed.keyword, at.rootAfter);
  const fieldNodes = [...ctx.fields(before, at.rootBefore, chain), ...ctx.fields(after, at.rootAfter, chain)];
  const secret = fieldNodes.some(
    (p) => valueAt(before, p)?.['x-sensitive'] === true || valueAt(after, p)?.['x-sensitive'] === true,
  );
  const subject = `${at.side}${field ? ` ${field}` : ''}`;
  const make = (/** @type {string} */ kind, /** @type {Level} */ level, /** @type {string} */ text) =>
    /** @type {Change} */ ({
      operation: at.operation,
      direction: at.direction,
      location,
      kind,
      level,
      message: `${subject}: ${text}${parsed.conditional && level !== 'patch' ? ' (where a rule between fields applies)' : ''}`,
      field,
    });

  if (parsed.keyword === '')
    return make('schema-changed', levelOfLibraryType(diff.type), `schema ${actionWord(diff.action)}`);
  if (annotation)
    return make(
      annotation.startsWith('x-') ? 'extension' : 'annotation',
      'patch',
      `${parsed.keyword}: ${annotation} changed`,
    );

  const values = valuesToClassify(ctx, diff, at, parsed, location);
  if (values === null) return null;
  const verdict = classifySchemaChange({
    sender: senderOf(at.kind, at.direction),
    keyword: parsed.keyword,
    action: diff.action,
    before: values.valueBefore,
    after: values.valueAfter,
    item: values.isItem,
    nested: parsed.nested,
    wasClosed:
      isField &&
      diff.action === 'add' &&
      candidatesBefore.some(
        (p) =>
          valueAt(before, p)?.additionalProperties === false || valueAt(before, p)?.unevaluatedProperties === false,
      ),
    required:
      isField &&
      diff.action === 'add' &&
      candidatesAfter.some((p) => (valueAt(after, p)?.required ?? []).includes(parsed.item)),
    secret,
    variant: COMBINERS.has(parsed.keyword) ? variantTitle(diff.action === 'add' ? diff.after : diff.before) : undefined,
  });
  if (verdict) return make(verdict.kind, verdict.level, verdict.text);
  return make(`${parsed.keyword}-changed`, levelOfLibraryType(diff.type), libraryWords(diff, parsed.keyword));
}
