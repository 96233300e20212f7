// The changes between two bundled contracts, each classified by what it does to a merchant
// (DECISIONS.md, D-44 to D-47): breaking (needs a major version), notable (a minor one) or patch
// (documentation only), with the operation, the side, a JSON Pointer into the bundle and one line
// of text. api-smart-diff finds the structural changes (`smartDiff.mjs`); our direction rules
// (`schemaRules.mjs`), the result-code tables (`resultCodeDiff.mjs`), the named checks and the
// component names (with renames that keep the old name as an alias, D-79) are added here.

import { operationRefs, senderOf, sideLabel } from './contractOperations.mjs';
import { derefPointer, escapeToken, fieldSchemas, pointerOf, pointerThrough, refPointer, sameJson, segmentsOf, valueAt } from './pointers.mjs';
import { codeTables, resultCodeChanges, uncomparedTables } from './resultCodeDiff.mjs';
import { ANNOTATION_KEYWORDS, classifySchemaChange, LEVELS, levelOfLibraryType, shown } from './schemaRules.mjs';
import { METHODS, smartDiff, WEBHOOK_PREFIX } from './smartDiff.mjs';

/** @typedef {import('./resultCodeDiff.mjs').Change} Change */
/** @typedef {import('./schemaRules.mjs').Level} Level */
/** @typedef {import('./contractOperations.mjs').OperationRef} OperationRef */
/** @typedef {import('api-smart-diff').Diff} Diff */

export { LEVELS };

const COMBINERS = new Set(['oneOf', 'anyOf', 'allOf']);
const LIST_KEYWORDS = new Set(['enum', 'required', 'type', 'examples']);

/**
 * @typedef {object} Context
 * @property {any} before
 * @property {any} after
 * @property {Map<string, OperationRef>} byPointer operations of both contracts (the new one first)
 * @property {Map<string, { entry: any, chain: string[], union: string }>} tables result-code tables of the new contract
 * @property {Set<string>} seen library diffs already turned into a change
 * @property {(doc: any, root: string, chain: ReadonlyArray<string>) => string[]} fields `fieldSchemas`, remembered
 */

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
        return { chain, crossed, conditional, keyword: 'properties', item: String(path[i + 1]), nested: false, rest: [String(path[i + 1])] };
      chain.push(String(path[i + 1]));
      i += 1;
    } else if (seg === 'items' && !last && typeof path[i + 1] !== 'number') {
      chain.push('[]');
    } else if (seg === 'additionalProperties' && !last) {
      chain.push('*');
    } else if (COMBINERS.has(seg) && !last) {
      if (i + 2 === path.length) return { chain, crossed, conditional, keyword: seg, item: String(path[i + 1]), nested: false, rest: [String(path[i + 1])] };
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

/** The operation a path of the compared copy belongs to, and the rest of the path. @param {Context} ctx @param {ReadonlyArray<string | number>} path */
function operationOf(ctx, path) {
  const key = String(path[1]);
  const webhook = key.startsWith(WEBHOOK_PREFIX);
  const name = webhook ? key.slice(WEBHOOK_PREFIX.length) : key;
  const group = webhook ? 'webhooks' : 'paths';
  if (path.length > 2 && METHODS.includes(String(path[2]))) {
    const pointer = pointerOf([group, name, String(path[2])]);
    return { op: ctx.byPointer.get(pointer), pointer, itemPointer: pointerOf([group, name]), rest: path.slice(3), webhook };
  }
  // A change of the path item itself: the first operation under it.
  const itemPointer = pointerOf([group, name]);
  const op = [...ctx.byPointer.values()].find((o) => o.pointer.startsWith(`${itemPointer}/`));
  return { op, pointer: op?.pointer ?? itemPointer, itemPointer, rest: path.slice(2), webhook };
}

/**
 * One change from one diff of the library, or null when it is not reported (the result-code
 * tables and named checks have rules of their own; `info.version` is the version check's).
 * @param {Context} ctx @param {Diff} diff @returns {Change | null}
 */
function fromLibrary(ctx, diff) {
  const { before, after } = ctx;
  const doc = diff.action === 'add' ? after : before;
  const level = levelOfLibraryType(diff.type);
  if (diff.path[0] !== 'paths') return contractLevel(ctx, diff);

  const { op, pointer, itemPointer, rest, webhook } = operationOf(ctx, diff.path);
  const operation = op?.operationId ?? pointer;
  const kind = op?.kind ?? (webhook ? 'webhook' : 'operation');
  /** @type {(direction: Change['direction'], location: string, changeKind: string, changeLevel: Level, message: string, field?: string) => Change} */
  const make = (direction, location, changeKind, changeLevel, message, field) => ({
    operation,
    direction,
    location,
    kind: changeKind,
    level: changeLevel,
    message,
    ...(field === undefined ? {} : { field }),
  });
  const what = kind === 'webhook' ? 'webhook' : 'operation';

  if (rest.length === 0) {
    if (diff.action === 'add') return make('operation', pointer, 'operation-added', 'notable', `new ${what}`);
    if (diff.action === 'remove') return make('operation', pointer, 'operation-removed', 'breaking', `${what} removed`);
    return make('operation', pointer, 'operation-changed', level, `${what} changed`);
  }

  const head = String(rest[0]);
  // The request body and the responses (a webhook's were swapped for the comparison).
  if (head === 'requestBody' || (head === 'responses' && rest.length > 1)) {
    const isRequest = head === 'requestBody';
    const direction = /** @type {'request' | 'response'} */ (isRequest !== webhook ? 'request' : 'response');
    const inner = rest.slice(isRequest ? 1 : 2);
    const base = direction === 'request' ? `${pointer}/requestBody` : `${pointer}/responses/${escapeToken(webhook ? '200' : String(rest[1]))}`;
    const side = sideLabel(kind, direction);
    if (inner[0] === 'content' && inner.length > 2 && inner[2] === 'schema') {
      const root = `${base}/content/${escapeToken(String(inner[1]))}/schema`;
      return schemaChange(ctx, diff, { operation, kind, direction, side, rootBefore: root, rootAfter: root, schemaPath: inner.slice(3) });
    }
    const location = pointerThrough(doc, base, inner);
    if (inner[0] === 'content' && (inner[2] === 'examples' || inner[2] === 'example'))
      return make(direction, location, 'example', 'patch', `${side}: examples changed`);
    if (inner.length > 0 && ANNOTATION_KEYWORDS.has(String(inner.at(-1))))
      return make(direction, location, 'annotation', 'patch', `${side}: ${inner.at(-1)} changed`);
    if (inner.length === 0 && !isRequest)
      return make(
        direction,
        location,
        diff.action === 'add' ? 'response-added' : 'response-removed',
        level,
        `${side}: HTTP ${rest[1]} ${diff.action === 'add' ? 'added' : diff.action === 'remove' ? 'removed' : 'changed'}`,
      );
    return make(direction, location, 'body-changed', level, `${side}: ${inner.map(String).join('.') || 'body'} ${actionWord(diff.action)}`);
  }

  if (head === 'parameters' && rest.length > 1) {
    const paramAt = (/** @type {any} */ d) => derefPointer(d, `${pointer}/parameters/${escapeToken(String(rest[1]))}`);
    const param = valueAt(doc, paramAt(doc));
    const side = param ? `${param.in} parameter ${param.name}` : 'parameter';
    const inner = rest.slice(2);
    if (inner[0] === 'schema') {
      return schemaChange(ctx, diff, {
        operation,
        kind,
        direction: 'request',
        side,
        rootBefore: `${paramAt(before)}/schema`,
        rootAfter: `${paramAt(after)}/schema`,
        schemaPath: inner.slice(1),
      });
    }
    const location = pointerThrough(doc, paramAt(doc), inner);
    if (inner.length === 0)
      return make(
        'request',
        location,
        diff.action === 'add' ? 'parameter-added' : diff.action === 'remove' ? 'parameter-removed' : 'parameter-changed',
        level,
        `${side} ${actionWord(diff.action)}${diff.action === 'add' && level === 'breaking' ? ' (required)' : ''}`,
      );
    const key = String(inner[0]);
    if (ANNOTATION_KEYWORDS.has(key)) return make('request', location, 'annotation', 'patch', `${side}: ${key} changed`);
    return make('request', location, `parameter-${key}-changed`, level, `${side}: ${key} ${actionWord(diff.action)}`);
  }

  const opLocation = (/** @type {ReadonlyArray<string | number>} */ keys) => {
    const found = pointerThrough(doc, pointer, keys);
    return found === pointer && keys.length > 0 && valueAt(doc, itemPointer)?.[String(keys[0])] !== undefined ? pointerThrough(doc, itemPointer, keys) : found;
  };
  const location = opLocation(rest);
  if (head === 'x-named-checks') return null;
  if (head === 'operationId')
    return make(
      'operation',
      location,
      'operation-renamed',
      'breaking',
      `operationId ${shown(diff.before)} -> ${shown(diff.after)}: generated clients name their methods by it`,
    );
  // Whether a call is idempotent decides what clients repeat on their own (DECISIONS.md, D-54):
  // saying it is documentation, changing what was said is a change merchants see.
  if (head === 'x-idempotent' && rest.length === 1 && diff.action === 'replace')
    return make(
      'operation',
      location,
      'idempotence-changed',
      'notable',
      `x-idempotent ${shown(diff.before)} -> ${shown(diff.after)}: what clients repeat on their own changes`,
    );
  if (head.startsWith('x-')) return make('operation', location, 'extension', 'patch', `${head} changed`);
  if (head === 'deprecated')
    return make('operation', location, 'deprecated', 'notable', diff.after === true ? `${what} deprecated` : `${what} no longer deprecated`);
  if (ANNOTATION_KEYWORDS.has(head) || head === 'tags') return make('operation', location, 'annotation', 'patch', `${head} changed`);
  if (head === 'servers') {
    const moves = rest.length <= 2 || String(rest.at(-1)) === 'url' || (rest[2] === 'variables' && rest.length === 4);
    return moves
      ? make('operation', location, 'server-changed', 'breaking', `server ${actionWord(diff.action)}: the ${what} moves to another address`)
      : make('operation', location, 'annotation', 'patch', `server ${rest.slice(2).map(String).join('.')} changed`);
  }
  return make('operation', location, `${head}-changed`, level, `${rest.map(String).join('.')} ${actionWord(diff.action)}`);
}

/** @param {string} action */
function actionWord(action) {
  return action === 'add' ? 'added' : action === 'remove' ? 'removed' : action === 'rename' ? 'renamed' : 'changed';
}

/** A change outside the operations: info, tags, servers, the dialect. @param {Context} ctx @param {Diff} diff @returns {Change | null} */
function contractLevel(ctx, diff) {
  const keys = diff.path.map(String);
  if (keys[0] === 'info' && keys[1] === 'version') return null;
  const doc = diff.action === 'add' ? ctx.after : ctx.before;
  const location = pointerThrough(doc, '', keys);
  const name = keys.join('.');
  const make = (/** @type {string} */ kind, /** @type {Level} */ level, /** @type {string} */ text) =>
    /** @type {Change} */ ({ operation: '', direction: 'contract', location, kind, level, message: text });
  if (['info', 'tags', 'externalDocs', 'servers'].includes(keys[0])) return make('annotation', 'patch', `${name} changed`);
  // The actions of next steps are values merchants switch on (DECISIONS.md, D-52): the list
  // added or an action added is notable, an action removed breaking, its words documentation.
  if (keys[0] === 'x-next-step-actions') {
    if (keys.length === 1)
      return diff.action === 'add'
        ? make('next-steps-added', 'notable', 'next steps added: every result code says what the merchant does next (x-next-step-actions)')
        : make('next-steps-removed', 'breaking', 'next steps removed (x-next-step-actions)');
    if (keys.length === 2 && diff.action === 'add') return make('next-step-action-added', 'notable', `next-step action ${shown(keys[1])} added`);
    if (keys.length === 2 && diff.action === 'remove') return make('next-step-action-removed', 'breaking', `next-step action ${shown(keys[1])} removed`);
    return make('annotation', 'patch', `${name} changed`);
  }
  if (keys[0]?.startsWith('x-')) return make('extension', 'patch', `${name} changed`);
  if (keys[0] === 'openapi' || keys[0] === 'jsonSchemaDialect')
    return make('dialect-changed', 'notable', `${name} ${shownValue(diff.before)} -> ${shownValue(diff.after)}`);
  return make(`${keys[0]}-changed`, levelOfLibraryType(diff.type), `${name} ${actionWord(diff.action)}`);
}

/** @param {unknown} value */
function shownValue(value) {
  return value === undefined ? 'none' : shown(value);
}

/**
 * A change inside a payload schema: located in the bundle, classified by who sends the payload.
 * @param {Context} ctx @param {Diff} diff
 * @param {{ operation: string, kind: 'operation' | 'webhook', direction: 'request' | 'response', side: string, rootBefore: string, rootAfter: string, schemaPath: ReadonlyArray<string | number> }} at
 * @returns {Change | null}
 */
function schemaChange(ctx, diff, at) {
  const { before, after } = ctx;
  const parsed = parseSchemaPath(at.schemaPath);
  const sender = senderOf(at.kind, at.direction);

  // Inside a result-code table, the code, status and messages of each code are read by the code
  // table rules; other keywords of those fields (a length, a type) are reported here.
  const table = at.direction === 'response' ? ctx.tables.get(at.operation) : undefined;
  if (table?.chain.every((name, i) => parsed.chain[i] === name)) {
    const fields = table.entry.fields;
    const depth = table.chain.length;
    const inBranch = parsed.crossed.some((c) => c.at === depth && c.keyword === 'oneOf');
    const isBranch = parsed.chain.length === depth && parsed.keyword === 'oneOf' && parsed.item !== undefined;
    const rel = parsed.chain.slice(depth);
    const relField = rel[0] ?? (parsed.keyword === 'properties' ? parsed.item : undefined);
    const tableKeyword = ['const', 'enum', 'examples', 'example', 'properties', 'required'].includes(parsed.keyword);
    if (
      isBranch ||
      (inBranch && (relField === undefined || ([fields.code, fields.status, fields.message].includes(relField) && rel.length <= 1 && tableKeyword)))
    )
      return null;
  }

  // A name added to or removed from `required` is a change of that field.
  const isField = parsed.keyword === 'properties' && parsed.item !== undefined;
  const requiredName = parsed.keyword === 'required' && !parsed.nested ? [diff.after, diff.before].find((v) => typeof v === 'string') : undefined;
  const chain = isField ? [...parsed.chain, /** @type {string} */ (parsed.item)] : requiredName ? [...parsed.chain, requiredName] : parsed.chain;
  // Inside a keyword's own subschema (propertyNames, additionalProperties, ...), an annotation is still an annotation.
  const annotation = parsed.nested ? parsed.rest.find((k) => ANNOTATION_KEYWORDS.has(k) || k.startsWith('x-')) : undefined;
  const keyword = annotation ?? parsed.keyword;

  // The library reports one change at every place a shared schema is used: once is enough.
  const short = (/** @type {unknown} */ v) => (v !== null && typeof v === 'object' ? JSON.stringify(v).slice(0, 200) : JSON.stringify(v));
  const key = [
    at.operation,
    at.direction,
    at.rootBefore,
    at.rootAfter,
    fieldLabel(chain),
    keyword,
    parsed.nested,
    parsed.conditional,
    diff.action,
    short(diff.before),
    short(diff.after),
  ].join('|');
  if (ctx.seen.has(key)) return null;
  ctx.seen.add(key);

  const field = fieldLabel(chain);
  const candidatesBefore = ctx.fields(before, at.rootBefore, parsed.chain);
  const candidatesAfter = ctx.fields(after, at.rootAfter, parsed.chain);
  const target = isField ? `properties/${escapeToken(/** @type {string} */ (parsed.item))}` : escapeToken(parsed.keyword);
  const location = locate(ctx, diff, candidatesBefore, candidatesAfter, target, parsed.keyword, at.rootAfter);
  const fieldNodes = [...ctx.fields(before, at.rootBefore, chain), ...ctx.fields(after, at.rootAfter, chain)];
  const secret = fieldNodes.some((p) => valueAt(before, p)?.['x-sensitive'] === true || valueAt(after, p)?.['x-sensitive'] === true);
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

  if (parsed.keyword === '') return make('schema-changed', levelOfLibraryType(diff.type), `schema ${actionWord(diff.action)}`);
  if (annotation) return make(annotation.startsWith('x-') ? 'extension' : 'annotation', 'patch', `${parsed.keyword}: ${annotation} changed`);

  let isItem = parsed.item !== undefined && !parsed.nested;
  let [valueBefore, valueAfter] = [diff.before, diff.after];
  // A list of values where the schema had none (or none where it had one) is one change of the
  // field, the whole list added or removed: the library reports each value of the list on its own,
  // as if the field had been an enum with fewer values. A `const` already limited the field.
  if (parsed.keyword === 'enum' && isItem && (diff.action === 'add' || diff.action === 'remove') && location.endsWith('/enum')) {
    const holder = location.slice(0, -'/enum'.length);
    const other = valueAt(diff.action === 'add' ? before : after, holder);
    if (other && typeof other === 'object' && !Object.hasOwn(other, 'enum') && !Object.hasOwn(other, 'const')) {
      const whole = `whole enum|${at.operation}|${at.direction}|${location}|${diff.action}`;
      if (ctx.seen.has(whole)) return null;
      ctx.seen.add(whole);
      isItem = false;
      [valueBefore, valueAfter] = [valueAt(before, location), valueAt(after, location)];
    }
  }
  const verdict = classifySchemaChange({
    sender,
    keyword: parsed.keyword,
    action: diff.action,
    before: valueBefore,
    after: valueAfter,
    item: isItem,
    nested: parsed.nested,
    wasClosed:
      isField &&
      diff.action === 'add' &&
      candidatesBefore.some((p) => valueAt(before, p)?.additionalProperties === false || valueAt(before, p)?.unevaluatedProperties === false),
    required: isField && diff.action === 'add' && candidatesAfter.some((p) => (valueAt(after, p)?.required ?? []).includes(parsed.item)),
    secret,
    variant: COMBINERS.has(parsed.keyword) ? variantTitle(diff.action === 'add' ? diff.after : diff.before) : undefined,
  });
  if (verdict) return make(verdict.kind, verdict.level, verdict.text);
  const description = String(diff.description ?? '')
    .replace(/^\[[^\]]*\]\s*/, '')
    .replace(/ in (Request Body|Response \d+) content.*$/, '');
  const unread = diff.type === 'unclassified' ? '; not classified, read as breaking' : '';
  return make(
    `${parsed.keyword}-changed`,
    levelOfLibraryType(diff.type),
    `${parsed.keyword} ${actionWord(diff.action)}${description ? ` (${description.slice(0, 120)})` : ''}${unread}`,
  );
}

/**
 * The pointer of a change in the bundle: the first schema of the field whose keyword differs
 * between the two contracts; for a variant, the variant itself.
 * @param {Context} ctx @param {Diff} diff @param {string[]} candidatesBefore @param {string[]} candidatesAfter
 * @param {string} target @param {string} keyword @param {string} fallback
 */
function locate(ctx, diff, candidatesBefore, candidatesAfter, target, keyword, fallback) {
  const { before, after } = ctx;
  const ordered = diff.action === 'add' ? [...candidatesAfter, ...candidatesBefore] : [...candidatesBefore, ...candidatesAfter];
  const candidates = [...new Set(ordered)];
  const aliases = [target, ...(keyword === 'enum' ? ['const'] : keyword === 'const' ? ['enum'] : keyword === 'examples' ? ['example'] : [])];
  for (const name of aliases) {
    for (const pointer of candidates) {
      const path = `${pointer}/${name}`;
      if (sameJson(valueAt(before, path), valueAt(after, path))) continue;
      if (COMBINERS.has(keyword) && diff.action !== 'replace') {
        const title = variantTitle(diff.action === 'add' ? diff.after : diff.before);
        const doc = diff.action === 'add' ? after : before;
        const list = valueAt(doc, path);
        const index = Array.isArray(list) ? list.findIndex((_, i) => variantTitle(valueAt(doc, derefPointer(doc, `${path}/${i}`))) === title) : -1;
        return index >= 0 ? `${path}/${index}` : path;
      }
      return path;
    }
  }
  return candidates.find((p) => !sameJson(valueAt(before, p), valueAt(after, p))) ?? candidates[0] ?? fallback;
}

/** Named checks added to or removed from an operation (D-46). @param {Map<string, OperationRef>} opsBefore @param {Map<string, OperationRef>} opsAfter @returns {Change[]} */
function namedCheckChanges(opsBefore, opsAfter) {
  /** @type {Change[]} */
  const changes = [];
  for (const [operationId, now] of opsAfter) {
    const old = opsBefore.get(operationId);
    if (!old) continue;
    const was = Array.isArray(old.op['x-named-checks']) ? old.op['x-named-checks'].map(String) : [];
    const is = Array.isArray(now.op['x-named-checks']) ? now.op['x-named-checks'].map(String) : [];
    const side = sideLabel(now.kind, 'request');
    const merchantSends = senderOf(now.kind, 'request') === 'merchant';
    const location = `${now.pointer}/x-named-checks`;
    for (const name of is.filter((n) => !was.includes(n))) {
      changes.push(
        merchantSends
          ? {
              operation: operationId,
              direction: 'request',
              location,
              kind: 'named-check-added',
              level: 'breaking',
              message: `${side}: new named check ${name}: requests it refuses were accepted before`,
            }
          : {
              operation: operationId,
              direction: 'request',
              location,
              kind: 'named-check-added',
              level: 'notable',
              message: `${side}: new named check ${name}: notifications are held to it`,
            },
      );
    }
    for (const name of was.filter((n) => !is.includes(n))) {
      changes.push(
        merchantSends
          ? {
              operation: operationId,
              direction: 'request',
              location: `${old.pointer}/x-named-checks`,
              kind: 'named-check-removed',
              level: 'notable',
              message: `${side}: named check ${name} removed: requests it refused are accepted`,
            }
          : {
              operation: operationId,
              direction: 'request',
              location: `${old.pointer}/x-named-checks`,
              kind: 'named-check-removed',
              level: 'breaking',
              message: `${side}: named check ${name} removed: notifications are no longer held to it`,
            },
      );
    }
  }
  return changes;
}

/** The component schema a `$ref` names (`#/components/schemas/X` -> `X`), or undefined. @param {unknown} ref */
function componentNamed(ref) {
  const pointer = refPointer(ref);
  const keys = pointer === null ? [] : segmentsOf(pointer);
  return keys.length === 3 && keys[0] === 'components' && keys[1] === 'schemas' ? keys[2] : undefined;
}

/**
 * The component a schema is an alias of: a `$ref` to another component schema with nothing beside
 * it but annotations (title, description, `deprecated`, extensions), or undefined (D-79).
 * @param {unknown} schema
 */
function aliasOf(schema) {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return undefined;
  const keys = Object.keys(schema);
  if (!keys.every((k) => k === '$ref' || k === 'deprecated' || ANNOTATION_KEYWORDS.has(k) || k.startsWith('x-'))) return undefined;
  return componentNamed(/** @type {any} */ (schema).$ref);
}

/** Where each component schema is referenced: its name -> the pointers of the `$ref`s to it. @param {unknown} doc */
function schemaReferences(doc) {
  /** @type {Map<string, Set<string>>} */
  const found = new Map();
  /** @param {unknown} node @param {string} pointer */
  const visit = (node, pointer) => {
    if (!node || typeof node !== 'object') return;
    const name = componentNamed(/** @type {any} */ (node).$ref);
    if (name !== undefined) {
      const at = found.get(name) ?? new Set();
      at.add(pointer);
      found.set(name, at);
    }
    for (const [key, value] of Object.entries(node)) visit(value, `${pointer}/${escapeToken(key)}`);
  };
  visit(doc, '');
  return found;
}

/**
 * Component schemas removed (merchants' code names the generated types) or added (D-45), and
 * renamed with the old name kept as an alias (D-79): a component that becomes a `$ref` to another
 * one, the same schema (equal to what the old name held, or a new component every `$ref` to the old
 * name moved to). Both generated types still compile, so the rename is notable (the old name is
 * deprecated); changes of the schema itself are reported where the operations use it. A name made
 * an alias of a different schema gives code that names it another type: breaking.
 * @param {any} before @param {any} after @returns {Change[]}
 */
function componentChanges(before, after) {
  const schemasBefore = before?.components?.schemas ?? {};
  const schemasAfter = after?.components?.schemas ?? {};
  const was = Object.keys(schemasBefore);
  const is = Object.keys(schemasAfter);
  /** @type {Change[]} */
  const changes = [];
  /** @type {{ before: Map<string, Set<string>>, after: Map<string, Set<string>> } | undefined} */
  let refs;
  /** Whether `to` (of the new contract) is `from` (of the released one) under another name. @param {string} from @param {string} to */
  const sameSchema = (from, to) => {
    if (sameJson(schemasBefore[from], schemasAfter[to])) return true;
    if (was.includes(to)) return false;
    refs ??= { before: schemaReferences(before), after: schemaReferences(after) };
    const moved = refs.after.get(to);
    const old = [...(refs.before.get(from) ?? [])].filter((p) => !p.startsWith(pointerOf(['components', 'schemas', from])));
    return old.length > 0 && old.every((p) => moved?.has(p));
  };
  /** @type {Set<string>} */
  const renamedTo = new Set();
  for (const name of was.filter((n) => is.includes(n))) {
    const target = aliasOf(schemasAfter[name]);
    if (target === undefined || target === name || aliasOf(schemasBefore[name]) !== undefined || !Object.hasOwn(schemasAfter, target)) continue;
    if (sameSchema(name, target)) {
      renamedTo.add(target);
      const deprecated = schemasAfter[name].deprecated === true ? ', deprecated,' : '';
      changes.push({
        operation: '',
        direction: 'contract',
        location: pointerOf(['components', 'schemas', target]),
        kind: 'component-renamed',
        level: 'notable',
        message: `component schema ${name} renamed ${target}; ${name} stays${deprecated} as an alias of it: code that names either generated type compiles`,
      });
    } else {
      changes.push({
        operation: '',
        direction: 'contract',
        location: pointerOf(['components', 'schemas', name]),
        kind: 'component-changed',
        level: 'breaking',
        message: `component schema ${name} became an alias of ${target}, another schema: code that names components['schemas']['${name}'] gets another type`,
      });
    }
  }
  const added = is.filter((n) => !was.includes(n));
  for (const name of was.filter((n) => !is.includes(n))) {
    const renamed = added.find((n) => sameSchema(name, n));
    const hint = renamed === undefined ? '' : ` (renamed ${renamed}? keep ${name} as a deprecated alias of it until the next major version)`;
    changes.push({
      operation: '',
      direction: 'contract',
      location: pointerOf(['components', 'schemas', name]),
      kind: 'component-removed',
      level: 'breaking',
      message: `component schema ${name} removed: code that names the generated type components['schemas']['${name}'] no longer compiles${hint}`,
    });
  }
  for (const name of added.filter((n) => !renamedTo.has(n))) {
    changes.push({
      operation: '',
      direction: 'contract',
      location: pointerOf(['components', 'schemas', name]),
      kind: 'component-added',
      level: 'patch',
      message: `new component schema ${name}`,
    });
  }
  return changes;
}

/**
 * Named examples whose value changed (documentation): the library compares which examples an
 * operation names, not what they hold. Reported at each operation and side that names them.
 * @param {any} before @param {any} after @param {OperationRef[]} refsAfter @returns {Change[]}
 */
function exampleChanges(before, after, refsAfter) {
  /** @type {Change[]} */
  const changes = [];
  const was = before?.components?.examples ?? {};
  const is = after?.components?.examples ?? {};
  for (const name of Object.keys(is)) {
    if (!Object.hasOwn(was, name) || sameJson(was[name], is[name])) continue;
    const ref = `#/components/examples/${escapeToken(name)}`;
    const location = pointerOf(['components', 'examples', name]);
    let used = false;
    for (const o of refsAfter) {
      /** @type {Array<['request' | 'response', any]>} */
      const sides = [
        ['request', o.op.requestBody],
        ...Object.values(o.op.responses ?? {}).map((r) => /** @type {['request' | 'response', any]} */ (['response', r])),
      ];
      for (const [direction, part] of sides) {
        const named = Object.values(part?.content ?? {}).some((media) =>
          Object.values(/** @type {any} */ (media)?.examples ?? {}).some((e) => /** @type {any} */ (e)?.$ref === ref),
        );
        if (!named) continue;
        used = true;
        changes.push({
          operation: o.operationId,
          direction,
          location,
          kind: 'example',
          level: 'patch',
          message: `${sideLabel(o.kind, direction)}: example ${name} changed`,
        });
      }
    }
    if (!used) changes.push({ operation: '', direction: 'contract', location, kind: 'example', level: 'patch', message: `example ${name} changed` });
  }
  return changes;
}

/**
 * The first place where two JSON values differ, or null. @param {unknown} a @param {unknown} b
 * @param {string} [pointer] @returns {string | null}
 */
function firstDifference(a, b, pointer = '') {
  if (sameJson(a, b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference(/** @type {any} */ (a)[key], /** @type {any} */ (b)[key], `${pointer}/${escapeToken(key)}`);
      if (found !== null) return found;
    }
  }
  return pointer;
}

/** One change per operation, side, place and value; a field added is not also reported as required. @param {Change[]} changes */
function deduplicated(changes) {
  const seen = new Set();
  const added = new Set(changes.filter((c) => c.kind === 'field-added').map((c) => `${c.operation}|${c.direction}|${c.field}`));
  return changes.filter((c) => {
    if (c.kind === 'required-added' && added.has(`${c.operation}|${c.direction}|${c.field}`)) return false;
    const key = `${c.operation}|${c.direction}|${c.location}|${c.kind}|${c.message.replace(/^[^:]*: /, '')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * What could not be compared, in one line: a document of another shape than the rules read.
 * @param {string} what @param {string} location @param {unknown} error @returns {Change}
 */
function notCompared(what, location, error) {
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 120) ?? '';
  return {
    operation: '',
    direction: 'contract',
    location,
    kind: 'not-compared',
    level: 'breaking',
    message: `${what} could not be compared (${reason}); read as breaking`,
  };
}

/**
 * Every change from the released contract `before` to `after` (both bundled), sorted by
 * operation (the whole contract first, then the document's order), level, side and place.
 * @param {any} before @param {any} after @returns {Change[]}
 */
export function diffContracts(before, after) {
  const refsBefore = operationRefs(before);
  const refsAfter = operationRefs(after);
  /** @type {Map<string, OperationRef>} */
  const byPointer = new Map([...refsBefore, ...refsAfter].map((o) => [o.pointer, o]));
  for (const o of refsAfter) byPointer.set(o.pointer, o);
  const opsBefore = new Map(refsBefore.map((o) => [o.operationId, o]));
  const opsAfter = new Map(refsAfter.map((o) => [o.operationId, o]));
  const tablesBefore = codeTables(before, refsBefore);
  const tablesAfter = codeTables(after, refsAfter);
  /** @type {Map<string, string[]>} */
  const fieldCache = new Map();
  /** @type {Context} */
  const ctx = {
    before,
    after,
    byPointer,
    tables: tablesAfter,
    seen: new Set(),
    fields: (doc, root, chain) => {
      const key = `${doc === before ? 'b' : 'a'}|${root}|${chain.join('\u0000')}`;
      let found = fieldCache.get(key);
      if (!found) {
        found = fieldSchemas(doc, root, chain);
        fieldCache.set(key, found);
      }
      return found;
    },
  };

  /** @type {Change[]} */
  const changes = [];
  // Each part of the comparison stands on its own: one that cannot read a document of another
  // shape says so in one line, read as breaking, and the others still run.
  /** @param {string} what @param {string} location @param {() => Iterable<Change | null>} compare */
  const part = (what, location, compare) => {
    try {
      for (const change of compare()) if (change) changes.push(change);
    } catch (error) {
      changes.push(notCompared(what, location, error));
    }
  };
  /** @type {Diff[]} */
  let diffs = [];
  part('the operations', '', () => {
    diffs = smartDiff(before, after);
    return [];
  });
  for (const diff of diffs) part(`the change at ${diff.path.map(String).join('.')}`, pointerOf(diff.path.map(String)), () => [fromLibrary(ctx, diff)]);
  part('the result codes', '', () => [
    ...uncomparedTables(opsBefore, opsAfter, tablesBefore, tablesAfter),
    ...resultCodeChanges(before, after, tablesBefore, tablesAfter, opsAfter),
  ]);
  part('the named checks', '', () => namedCheckChanges(opsBefore, opsAfter));
  part('the component schemas', '/components/schemas', () => componentChanges(before, after));
  part('the examples', '/components/examples', () => exampleChanges(before, after, refsAfter));
  if (changes.length === 0) {
    // Nothing the rules read changed, yet the documents differ: still a change (documentation).
    const versionless = (/** @type {any} */ doc) => ({ ...doc, info: { ...doc?.info, version: undefined } });
    const where = firstDifference(versionless(before), versionless(after));
    if (where !== null)
      changes.push({ operation: '', direction: 'contract', location: where, kind: 'other', level: 'patch', message: `${where || 'the document'} changed` });
  }

  /** @type {Map<string, number>} */
  const order = new Map([['', -1]]);
  for (const o of [...refsAfter, ...refsBefore]) if (!order.has(o.operationId)) order.set(o.operationId, order.size);
  const sides = ['contract', 'operation', 'request', 'response'];
  return deduplicated(changes).sort(
    (x, y) =>
      (order.get(x.operation) ?? 1e9) - (order.get(y.operation) ?? 1e9) ||
      LEVELS.indexOf(x.level) - LEVELS.indexOf(y.level) ||
      sides.indexOf(x.direction) - sides.indexOf(y.direction) ||
      x.location.localeCompare(y.location) ||
      x.message.localeCompare(y.message),
  );
}

/** The bump a list of changes needs. @param {ReadonlyArray<Change>} changes @returns {'major' | 'minor' | 'patch' | 'none'} */
export function requiredBump(changes) {
  if (changes.some((c) => c.level === 'breaking')) return 'major';
  if (changes.some((c) => c.level === 'notable')) return 'minor';
  return changes.length ? 'patch' : 'none';
}
