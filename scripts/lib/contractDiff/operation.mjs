// The Path Item and Operation Objects: an operation or webhook added, removed or changed, and its
// own fields (operationId, x-idempotent, deprecated, servers, annotations, extensions). Its request
// body and responses (`body.mjs`) and parameters (`parameter.mjs`) have modules of their own; its
// named checks are compared as lists (`namedChecks.mjs`).

import { pointerOf, pointerThrough, valueAt } from '../pointers.mjs';
import { ANNOTATION_KEYWORDS, levelOfLibraryType, shown } from '../schemaRules.mjs';
import { METHODS, WEBHOOK_PREFIX } from '../smartDiff.mjs';
import { bodyChange } from './body.mjs';
import { actionWord } from './context.mjs';
import { parameterChange } from './parameter.mjs';

/** @typedef {import('./context.mjs').Context} Context */
/** @typedef {import('./context.mjs').OperationSite} OperationSite */
/** @typedef {import('../resultCodeDiff.mjs').Change} Change */
/** @typedef {import('api-smart-diff').Diff} Diff */

/** The operation a path of the compared copy belongs to, and the rest of the path. @param {Context} ctx @param {ReadonlyArray<string | number>} path */
function operationOf(ctx, path) {
  const key = String(path[1]);
  const webhook = key.startsWith(WEBHOOK_PREFIX);
  const name = webhook ? key.slice(WEBHOOK_PREFIX.length) : key;
  const group = webhook ? 'webhooks' : 'paths';
  if (path.length > 2 && METHODS.includes(String(path[2]))) {
    const pointer = pointerOf([group, name, String(path[2])]);
    return {
      op: ctx.byPointer.get(pointer),
      pointer,
      itemPointer: pointerOf([group, name]),
      rest: path.slice(3),
      webhook,
    };
  }
  // A change of the path item itself: the first operation under it.
  const itemPointer = pointerOf([group, name]);
  const op = [...ctx.byPointer.values()].find((o) => o.pointer.startsWith(`${itemPointer}/`));
  return { op, pointer: op?.pointer ?? itemPointer, itemPointer, rest: path.slice(2), webhook };
}

/** Where a library diff under `paths` is. @param {Context} ctx @param {Diff} diff @returns {OperationSite} */
function siteOf(ctx, diff) {
  const { op, pointer, itemPointer, rest, webhook } = operationOf(ctx, diff.path);
  const operation = op?.operationId ?? pointer;
  const kind = op?.kind ?? (webhook ? 'webhook' : 'operation');
  return {
    operation,
    kind,
    what: kind === 'webhook' ? 'webhook' : 'operation',
    pointer,
    itemPointer,
    rest,
    webhook,
    doc: diff.action === 'add' ? ctx.after : ctx.before,
    level: levelOfLibraryType(diff.type),
    make: (direction, location, changeKind, changeLevel, message, field) => ({
      operation,
      direction,
      location,
      kind: changeKind,
      level: changeLevel,
      message,
      ...(field === undefined ? {} : { field }),
    }),
  };
}

/** The operation itself added, removed or changed. @param {Diff} diff @param {OperationSite} site */
function wholeOperationChange(diff, site) {
  const { make, pointer, what } = site;
  if (diff.action === 'add') return make('operation', pointer, 'operation-added', 'notable', `new ${what}`);
  if (diff.action === 'remove') return make('operation', pointer, 'operation-removed', 'breaking', `${what} removed`);
  return make('operation', pointer, 'operation-changed', site.level, `${what} changed`);
}

/** Where a field of the operation is: on the operation, else on its path item (servers, parameters shared by the path). @param {OperationSite} site @param {ReadonlyArray<string | number>} keys */
function fieldLocation(site, keys) {
  const { doc, pointer, itemPointer } = site;
  const found = pointerThrough(doc, pointer, keys);
  return found === pointer && keys.length > 0 && valueAt(doc, itemPointer)?.[String(keys[0])] !== undefined
    ? pointerThrough(doc, itemPointer, keys)
    : found;
}

/**
 * A field of the operation, or null for its named checks (compared as lists, D-46).
 * @param {Diff} diff @param {OperationSite} site @returns {Change | null}
 */
function operationFieldChange(diff, site) {
  const { make, rest, what } = site;
  const head = String(rest[0]);
  const location = fieldLocation(site, rest);
  if (head === 'x-named-checks') return null;
  if (head === 'operationId')
    return make(
      'operation',
      location,
      'operation-renamed',
      'breaking',
      `operationId ${shown(diff.before)} -> ${shown(diff.after)}: generated clients name their methods by it`,
    );
  // Whether a call is idempotent decides what clients repeat on their own (docs/decisions.md, D-54):
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
    return make(
      'operation',
      location,
      'deprecated',
      'notable',
      diff.after === true ? `${what} deprecated` : `${what} no longer deprecated`,
    );
  if (ANNOTATION_KEYWORDS.has(head) || head === 'tags')
    return make('operation', location, 'annotation', 'patch', `${head} changed`);
  if (head === 'servers') {
    const moves = rest.length <= 2 || String(rest.at(-1)) === 'url' || (rest[2] === 'variables' && rest.length === 4);
    return moves
      ? make(
          'operation',
          location,
          'server-changed',
          'breaking',
          `server ${actionWord(diff.action)}: the ${what} moves to another address`,
        )
      : make('operation', location, 'annotation', 'patch', `server ${rest.slice(2).map(String).join('.')} changed`);
  }
  return make(
    'operation',
    location,
    `${head}-changed`,
    site.level,
    `${rest.map(String).join('.')} ${actionWord(diff.action)}`,
  );
}

/**
 * One change from a library diff under `paths` (the operations and, under a prefix, the webhook),
 * or null when it is not reported here.
 * @param {Context} ctx @param {Diff} diff @returns {Change | null}
 */
export function operationChange(ctx, diff) {
  const site = siteOf(ctx, diff);
  const { rest } = site;
  if (rest.length === 0) return wholeOperationChange(diff, site);
  const head = String(rest[0]);
  // The request body and the responses (a webhook's were swapped for the comparison).
  if (head === 'requestBody' || (head === 'responses' && rest.length > 1)) return bodyChange(ctx, diff, site);
  if (head === 'parameters' && rest.length > 1) return parameterChange(ctx, diff, site);
  return operationFieldChange(diff, site);
}
