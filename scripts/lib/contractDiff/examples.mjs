// The Components Object's named examples: a value changed is documentation, reported at each
// operation and side that names the example (the library compares which examples are named only).

import { sideLabel } from '../contractOperations.mjs';
import { escapeToken, pointerOf, sameJson } from '../pointers.mjs';

/** @typedef {import('../resultCodeDiff.mjs').Change} Change */
/** @typedef {import('../contractOperations.mjs').OperationRef} OperationRef */

/**
 * Named examples whose value changed (documentation): the library compares which examples an
 * operation names, not what they hold. Reported at each operation and side that names them.
 * @param {any} before @param {any} after @param {OperationRef[]} refsAfter @returns {Change[]}
 */
export function exampleChanges(before, after, refsAfter) {
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
        ...Object.values(o.op.responses ?? {}).map(
          (r) => /** @type {['request' | 'response', any]} */ (['response', r]),
        ),
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
    if (!used)
      changes.push({
        operation: '',
        direction: 'contract',
        location,
        kind: 'example',
        level: 'patch',
        message: `example ${name} changed`,
      });
  }
  return changes;
}
