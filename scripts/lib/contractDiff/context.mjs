// What every part of the comparison shares: the two contracts, their operations, the result-code
// tables of the new one, the library diffs already reported, and the schemas of each field
// (remembered); and the steps around the parts: a part that cannot compare says so, one change is
// reported once, the list is sorted as a reader goes through the contract.

import { fieldSchemas } from '../pointers.mjs';
import { codeTables } from '../resultCodeDiff.mjs';
import { LEVELS } from '../schemaRules.mjs';

/** @typedef {import('../resultCodeDiff.mjs').Change} Change */
/** @typedef {import('../contractOperations.mjs').OperationRef} OperationRef */

/**
 * @typedef {object} Context
 * @property {any} before
 * @property {any} after
 * @property {Map<string, OperationRef>} byPointer operations of both contracts (the new one first)
 * @property {Map<string, { entry: any, chain: string[], union: string }>} tables result-code tables of the new contract
 * @property {Set<string>} seen library diffs already turned into a change
 * @property {(doc: any, root: string, chain: ReadonlyArray<string>) => string[]} fields `fieldSchemas`, remembered
 */

/**
 * Where a library diff inside an operation is: the operation, what is below it, and how a change
 * there is made.
 * @typedef {object} OperationSite
 * @property {string} operation the operationId (the pointer when the operation is not known)
 * @property {'operation' | 'webhook'} kind
 * @property {'operation' | 'webhook'} what the word for it in a message
 * @property {string} pointer the operation's
 * @property {string} itemPointer its path item's
 * @property {ReadonlyArray<string | number>} rest the diff's path below the operation
 * @property {boolean} webhook the operation is the webhook (its request and response swapped for the comparison)
 * @property {any} doc the contract the diff's place is in: the new one for an addition, else the released one
 * @property {import('../schemaRules.mjs').Level} level the library's level of the diff
 * @property {(direction: Change['direction'], location: string, kind: string, level: import('../schemaRules.mjs').Level, message: string, field?: string) => Change} make
 */

/** The context of one comparison. @param {any} before @param {any} after @param {OperationRef[]} refsBefore @param {OperationRef[]} refsAfter @returns {Context} */
export function createContext(before, after, refsBefore, refsAfter) {
  /** @type {Map<string, OperationRef>} */
  const byPointer = new Map([...refsBefore, ...refsAfter].map((o) => [o.pointer, o]));
  for (const o of refsAfter) byPointer.set(o.pointer, o);
  /** @type {Map<string, string[]>} */
  const fieldCache = new Map();
  return {
    before,
    after,
    byPointer,
    tables: codeTables(after, refsAfter),
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
}

/** `added`, `removed`, `renamed` or `changed`. @param {string} action */
export function actionWord(action) {
  return action === 'add' ? 'added' : action === 'remove' ? 'removed' : action === 'rename' ? 'renamed' : 'changed';
}

/**
 * What could not be compared, in one line: a document of another shape than the rules read.
 * @param {string} what @param {string} location @param {unknown} error @returns {Change}
 */
export function notCompared(what, location, error) {
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
 * The changes `compare` gives, pushed onto `changes`; when it throws (a document of another shape),
 * one change that says so, read as breaking, and the other parts still run.
 * @param {Change[]} changes @param {string} what @param {string} location @param {() => Iterable<Change | null>} compare
 */
export function comparePart(changes, what, location, compare) {
  try {
    for (const change of compare()) if (change) changes.push(change);
  } catch (error) {
    changes.push(notCompared(what, location, error));
  }
}

/** One change per operation, side, place and value; a field added is not also reported as required. @param {Change[]} changes */
export function deduplicated(changes) {
  const seen = new Set();
  const added = new Set(
    changes.filter((c) => c.kind === 'field-added').map((c) => `${c.operation}|${c.direction}|${c.field}`),
  );
  return changes.filter((c) => {
    if (c.kind === 'required-added' && added.has(`${c.operation}|${c.direction}|${c.field}`)) return false;
    const key = `${c.operation}|${c.direction}|${c.location}|${c.kind}|${c.message.replace(/^[^:]*: /, '')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The changes sorted by operation (the whole contract first, then the document's order), level,
 * side and place. @param {Change[]} changes @param {OperationRef[]} refsBefore @param {OperationRef[]} refsAfter
 */
export function inReadingOrder(changes, refsBefore, refsAfter) {
  /** @type {Map<string, number>} */
  const order = new Map([['', -1]]);
  for (const o of [...refsAfter, ...refsBefore]) if (!order.has(o.operationId)) order.set(o.operationId, order.size);
  const sides = ['contract', 'operation', 'request', 'response'];
  return changes.sort(
    (x, y) =>
      (order.get(x.operation) ?? 1e9) - (order.get(y.operation) ?? 1e9) ||
      LEVELS.indexOf(x.level) - LEVELS.indexOf(y.level) ||
      sides.indexOf(x.direction) - sides.indexOf(y.direction) ||
      x.location.localeCompare(y.location) ||
      x.message.localeCompare(y.message),
  );
}
