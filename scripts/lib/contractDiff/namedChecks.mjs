// The named checks of each operation (`x-named-checks`, D-46), compared as lists: a check added holds
// what the merchant sends to more (breaking), or the service's notification to more (notable).

import { senderOf, sideLabel } from '../contractOperations.mjs';

/** @typedef {import('../resultCodeDiff.mjs').Change} Change */
/** @typedef {import('../contractOperations.mjs').OperationRef} OperationRef */

/** Named checks added to or removed from an operation (D-46). @param {Map<string, OperationRef>} opsBefore @param {Map<string, OperationRef>} opsAfter @returns {Change[]} */
export function namedCheckChanges(opsBefore, opsAfter) {
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
