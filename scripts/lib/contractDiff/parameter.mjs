// The Parameter Objects of an operation: a parameter added, removed or changed, its schema
// (`schema.mjs`), its annotations. A parameter is part of what the merchant sends.

import { derefPointer, escapeToken, pointerThrough, valueAt } from '../pointers.mjs';
import { ANNOTATION_KEYWORDS } from '../schemaRules.mjs';
import { actionWord } from './context.mjs';
import { schemaChange } from './schema.mjs';

/** @typedef {import('./context.mjs').Context} Context */
/** @typedef {import('./context.mjs').OperationSite} OperationSite */
/** @typedef {import('../resultCodeDiff.mjs').Change} Change */
/** @typedef {import('api-smart-diff').Diff} Diff */

/** @param {string} action */
function parameterKind(action) {
  return action === 'add' ? 'parameter-added' : action === 'remove' ? 'parameter-removed' : 'parameter-changed';
}

/**
 * A change of one parameter (`rest` is `parameters`, its index, and what is below it).
 * @param {Context} ctx @param {Diff} diff @param {OperationSite} site @returns {Change | null}
 */
export function parameterChange(ctx, diff, site) {
  const { make, rest, level, doc } = site;
  const paramAt = (/** @type {any} */ d) =>
    derefPointer(d, `${site.pointer}/parameters/${escapeToken(String(rest[1]))}`);
  const param = valueAt(doc, paramAt(doc));
  const side = param ? `${param.in} parameter ${param.name}` : 'parameter';
  const inner = rest.slice(2);
  if (inner[0] === 'schema') {
    return schemaChange(ctx, diff, {
      operation: site.operation,
      kind: site.kind,
      direction: 'request',
      side,
      rootBefore: `${paramAt(ctx.before)}/schema`,
      rootAfter: `${paramAt(ctx.after)}/schema`,
      schemaPath: inner.slice(1),
    });
  }
  const location = pointerThrough(doc, paramAt(doc), inner);
  if (inner.length === 0) {
    const required = diff.action === 'add' && level === 'breaking' ? ' (required)' : '';
    return make(
      'request',
      location,
      parameterKind(diff.action),
      level,
      `${side} ${actionWord(diff.action)}${required}`,
    );
  }
  const key = String(inner[0]);
  if (ANNOTATION_KEYWORDS.has(key)) return make('request', location, 'annotation', 'patch', `${side}: ${key} changed`);
  return make('request', location, `parameter-${key}-changed`, level, `${side}: ${key} ${actionWord(diff.action)}`);
}
