// The changes between two bundled contracts, each classified by what it does to a merchant
// (DECISIONS.md, D-44 to D-47): breaking (needs a major version), notable (a minor one) or patch
// (documentation only), with the operation, the side, a JSON Pointer into the bundle and one line
// of text. api-smart-diff finds the structural changes (`smartDiff.mjs`); each is read by the
// module of the OpenAPI object it is in (`contractDiff/`: the document, operations, parameters,
// request bodies and responses, schemas with the rules of `schemaRules.mjs`); the result-code
// tables (`resultCodeDiff.mjs`), the named checks, the component names (with renames that keep the
// old name as an alias, D-79) and the named examples are compared on their own.

import { componentChanges } from './contractDiff/components.mjs';
import { comparePart, createContext, deduplicated, inReadingOrder } from './contractDiff/context.mjs';
import { documentChange, unreadDifference } from './contractDiff/document.mjs';
import { exampleChanges } from './contractDiff/examples.mjs';
import { namedCheckChanges } from './contractDiff/namedChecks.mjs';
import { operationChange } from './contractDiff/operation.mjs';
import { operationRefs } from './contractOperations.mjs';
import { pointerOf } from './pointers.mjs';
import { codeTables, resultCodeChanges, uncomparedTables } from './resultCodeDiff.mjs';
import { LEVELS } from './schemaRules.mjs';
import { smartDiff } from './smartDiff.mjs';

/** @typedef {import('./resultCodeDiff.mjs').Change} Change */
/** @typedef {import('./contractDiff/context.mjs').Context} Context */
/** @typedef {import('api-smart-diff').Diff} Diff */

export { fieldLabel, parseSchemaPath } from './contractDiff/schema.mjs';
export { LEVELS };

/**
 * One change from one diff of the library, or null when it is not reported (the result-code
 * tables and named checks have rules of their own; `info.version` is the version check's).
 * @param {Context} ctx @param {Diff} diff @returns {Change | null}
 */
function libraryChange(ctx, diff) {
  return diff.path[0] === 'paths' ? operationChange(ctx, diff) : documentChange(ctx, diff);
}

/**
 * Every change from the released contract `before` to `after` (both bundled), sorted by
 * operation (the whole contract first, then the document's order), level, side and place.
 * @param {any} before @param {any} after @returns {Change[]}
 */
export function diffContracts(before, after) {
  const refsBefore = operationRefs(before);
  const refsAfter = operationRefs(after);
  const opsBefore = new Map(refsBefore.map((o) => [o.operationId, o]));
  const opsAfter = new Map(refsAfter.map((o) => [o.operationId, o]));
  const tablesBefore = codeTables(before, refsBefore);
  const ctx = createContext(before, after, refsBefore, refsAfter);
  const tablesAfter = ctx.tables;

  /** @type {Change[]} */
  const changes = [];
  // Each part of the comparison stands on its own: one that cannot read a document of another
  // shape says so in one line, read as breaking, and the others still run.
  /** @type {Diff[]} */
  let diffs = [];
  comparePart(changes, 'the operations', '', () => {
    diffs = smartDiff(before, after);
    return [];
  });
  for (const diff of diffs)
    comparePart(changes, `the change at ${diff.path.map(String).join('.')}`, pointerOf(diff.path.map(String)), () => [
      libraryChange(ctx, diff),
    ]);
  comparePart(changes, 'the result codes', '', () => [
    ...uncomparedTables(opsBefore, opsAfter, tablesBefore, tablesAfter),
    ...resultCodeChanges(before, after, tablesBefore, tablesAfter, opsAfter),
  ]);
  comparePart(changes, 'the named checks', '', () => namedCheckChanges(opsBefore, opsAfter));
  comparePart(changes, 'the component schemas', '/components/schemas', () => componentChanges(before, after));
  comparePart(changes, 'the examples', '/components/examples', () => exampleChanges(before, after, refsAfter));
  if (changes.length === 0) {
    // Nothing the rules read changed, yet the documents differ: still a change (documentation).
    const unread = unreadDifference(before, after);
    if (unread) changes.push(unread);
  }
  return inReadingOrder(deduplicated(changes), refsBefore, refsAfter);
}

/** The bump a list of changes needs. @param {ReadonlyArray<Change>} changes @returns {'major' | 'minor' | 'patch' | 'none'} */
export function requiredBump(changes) {
  if (changes.some((c) => c.level === 'breaking')) return 'major';
  if (changes.some((c) => c.level === 'notable')) return 'minor';
  return changes.length ? 'patch' : 'none';
}
