// The OpenAPI Object's own fields, outside the operations: info, tags, servers, the dialect, the
// actions of next steps (D-52) and other extensions; and a difference no rule reads.

import { escapeToken, pointerThrough, sameJson } from '../pointers.mjs';
import { levelOfLibraryType, shown } from '../schemaRules.mjs';
import { actionWord } from './context.mjs';

/** @typedef {import('./context.mjs').Context} Context */
/** @typedef {import('../resultCodeDiff.mjs').Change} Change */
/** @typedef {import('../schemaRules.mjs').Level} Level */
/** @typedef {import('api-smart-diff').Diff} Diff */

/** @param {unknown} value */
function shownValue(value) {
  return value === undefined ? 'none' : shown(value);
}

/**
 * The actions of next steps are values merchants switch on (D-52): the list added or an action
 * added is notable, an action removed breaking, its words documentation.
 * @param {Diff} diff @param {string[]} keys @param {(kind: string, level: Level, text: string) => Change} make
 */
function nextStepActionsChange(diff, keys, make) {
  if (keys.length === 1)
    return diff.action === 'add'
      ? make(
          'next-steps-added',
          'notable',
          'next steps added: every result code says what the merchant does next (x-next-step-actions)',
        )
      : make('next-steps-removed', 'breaking', 'next steps removed (x-next-step-actions)');
  if (keys.length === 2 && diff.action === 'add')
    return make('next-step-action-added', 'notable', `next-step action ${shown(keys[1])} added`);
  if (keys.length === 2 && diff.action === 'remove')
    return make('next-step-action-removed', 'breaking', `next-step action ${shown(keys[1])} removed`);
  return make('annotation', 'patch', `${keys.join('.')} changed`);
}

/**
 * A change outside the operations, or null for `info.version` (the version check's).
 * @param {Context} ctx @param {Diff} diff @returns {Change | null}
 */
export function documentChange(ctx, diff) {
  const keys = diff.path.map(String);
  if (keys[0] === 'info' && keys[1] === 'version') return null;
  const doc = diff.action === 'add' ? ctx.after : ctx.before;
  const location = pointerThrough(doc, '', keys);
  const name = keys.join('.');
  const make = (/** @type {string} */ kind, /** @type {Level} */ level, /** @type {string} */ text) =>
    /** @type {Change} */ ({ operation: '', direction: 'contract', location, kind, level, message: text });
  if (['info', 'tags', 'externalDocs', 'servers'].includes(keys[0]))
    return make('annotation', 'patch', `${name} changed`);
  if (keys[0] === 'x-next-step-actions') return nextStepActionsChange(diff, keys, make);
  if (keys[0]?.startsWith('x-')) return make('extension', 'patch', `${name} changed`);
  if (keys[0] === 'openapi' || keys[0] === 'jsonSchemaDialect')
    return make('dialect-changed', 'notable', `${name} ${shownValue(diff.before)} -> ${shownValue(diff.after)}`);
  return make(`${keys[0]}-changed`, levelOfLibraryType(diff.type), `${name} ${actionWord(diff.action)}`);
}

/**
 * The first place where two JSON values differ, or null. @param {unknown} a @param {unknown} b
 * @param {string} [pointer] @returns {string | null}
 */
function firstDifference(a, b, pointer = '') {
  if (sameJson(a, b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference(
        /** @type {any} */ (a)[key],
        /** @type {any} */ (b)[key],
        `${pointer}/${escapeToken(key)}`,
      );
      if (found !== null) return found;
    }
  }
  return pointer;
}

/**
 * Documents that differ where no rule reads (their versions aside): still a change, documentation.
 * @param {any} before @param {any} after @returns {Change | null}
 */
export function unreadDifference(before, after) {
  const versionless = (/** @type {any} */ doc) => ({ ...doc, info: { ...doc?.info, version: undefined } });
  const where = firstDifference(versionless(before), versionless(after));
  if (where === null) return null;
  return {
    operation: '',
    direction: 'contract',
    location: where,
    kind: 'other',
    level: 'patch',
    message: `${where || 'the document'} changed`,
  };
}
