// The Request Body and Response Objects of an operation: their media types' schemas (`schema.mjs`),
// examples and annotations, a response added or removed. The webhook's were swapped for the
// comparison: its request is the merchant's reply, its response the service's notification (D-47).

import { sideLabel } from '../contractOperations.mjs';
import { escapeToken, pointerThrough } from '../pointers.mjs';
import { ANNOTATION_KEYWORDS } from '../schemaRules.mjs';
import { actionWord } from './context.mjs';
import { schemaChange } from './schema.mjs';

/** @typedef {import('./context.mjs').Context} Context */
/** @typedef {import('./context.mjs').OperationSite} OperationSite */
/** @typedef {import('../resultCodeDiff.mjs').Change} Change */
/** @typedef {import('api-smart-diff').Diff} Diff */

/**
 * A change of the request body or of a response (`rest` starts with `requestBody`, or `responses`
 * and a status). @param {Context} ctx @param {Diff} diff @param {OperationSite} site @returns {Change | null}
 */
export function bodyChange(ctx, diff, site) {
  const { make, operation, kind, pointer, rest, webhook } = site;
  const isRequest = String(rest[0]) === 'requestBody';
  const direction = /** @type {'request' | 'response'} */ (isRequest !== webhook ? 'request' : 'response');
  const inner = rest.slice(isRequest ? 1 : 2);
  const base =
    direction === 'request'
      ? `${pointer}/requestBody`
      : `${pointer}/responses/${escapeToken(webhook ? '200' : String(rest[1]))}`;
  const side = sideLabel(kind, direction);
  if (inner[0] === 'content' && inner.length > 2 && inner[2] === 'schema') {
    const root = `${base}/content/${escapeToken(String(inner[1]))}/schema`;
    return schemaChange(ctx, diff, {
      operation,
      kind,
      direction,
      side,
      rootBefore: root,
      rootAfter: root,
      schemaPath: inner.slice(3),
    });
  }
  const location = pointerThrough(site.doc, base, inner);
  if (inner[0] === 'content' && (inner[2] === 'examples' || inner[2] === 'example'))
    return make(direction, location, 'example', 'patch', `${side}: examples changed`);
  if (inner.length > 0 && ANNOTATION_KEYWORDS.has(String(inner.at(-1))))
    return make(direction, location, 'annotation', 'patch', `${side}: ${inner.at(-1)} changed`);
  if (inner.length === 0 && !isRequest) {
    const done = diff.action === 'add' ? 'added' : diff.action === 'remove' ? 'removed' : 'changed';
    return make(
      direction,
      location,
      diff.action === 'add' ? 'response-added' : 'response-removed',
      site.level,
      `${side}: HTTP ${rest[1]} ${done}`,
    );
  }
  return make(
    direction,
    location,
    'body-changed',
    site.level,
    `${side}: ${inner.map(String).join('.') || 'body'} ${actionWord(diff.action)}`,
  );
}
