// Changes of the result-code tables of section 7 (DECISIONS.md, D-46): per operation, a code
// removed, its status or a message changed, is breaking; a new code or a new message is notable
// (merchants switch on codes); its meaning, title or table is documentation; a changed next step
// is notable (merchants and clients act on it, D-52). The tables are read the way the catalog
// reads them (`resultCatalog.mjs`), so the check and the catalog agree.

import { senderOf, sideLabel } from './contractOperations.mjs';
import { fieldSchemas, valueAt } from './pointers.mjs';
import { resultTableOf } from './resultCatalog.mjs';
import { shown } from './schemaRules.mjs';

/** @typedef {import('./contractOperations.mjs').OperationRef} OperationRef */
/** @typedef {import('./schemaRules.mjs').Level} Level */
/**
 * @typedef {object} Change
 * @property {string} operation the operationId; empty for a change of the whole contract
 * @property {'contract' | 'operation' | 'request' | 'response'} direction the part of the operation
 * @property {string} location JSON Pointer into the bundled contract: the new one, or the released one for what was removed
 * @property {string} kind what changed, e.g. `value-removed`, `result-code-added`
 * @property {Level} level breaking (a major version), notable (a minor one) or patch (documentation)
 * @property {string} message one line for a reader: the side, the field, what changed
 * @property {string} [field] the field (dotted, `[]` for array items), when the change is in a payload
 */

/** Where a table is looked for, as a reader is told when none is found. */
const TABLE = 'a oneOf whose branches pin resultCode or statusCode';

/**
 * The code table of each operation: the catalog's entry, and where its `oneOf` sits in the bundle.
 * Read from each operation's JSON answer of HTTP 200 as it stands, whatever the rest of the
 * document looks like: an operation whose answer holds no table (or cannot be read) has none here.
 * @param {any} doc @param {OperationRef[]} ops
 * @returns {Map<string, { entry: any, chain: string[], union: string }>}
 */
export function codeTables(doc, ops) {
  const tables = new Map();
  for (const op of ops) {
    const root = `${op.pointer}/responses/200/content/application~1json/schema`;
    const schema = valueAt(doc, root);
    if (!schema || typeof schema !== 'object') continue;
    let entry;
    try {
      entry = resultTableOf(doc, schema, op.operationId);
    } catch {
      // A table of another shape (a branch without properties): not one the rules can read.
      entry = null;
    }
    if (!entry) continue;
    const chain = String(entry.location).split('/').filter(Boolean);
    let union = root;
    for (const pointer of fieldSchemas(doc, root, chain)) {
      const node = valueAt(doc, pointer);
      if (
        Array.isArray(node?.oneOf) &&
        node.oneOf.length > 0 &&
        node.oneOf.every((/** @type {any} */ b) => b?.properties?.[entry.fields.code]?.const !== undefined)
      ) {
        union = `${pointer}/oneOf`;
        break;
      }
    }
    tables.set(op.operationId, { entry, chain, union });
  }
  return tables;
}

/**
 * One line per operation of both contracts whose result-code table is found in one of them only
 * (removed, reshaped, or an answer that is not JSON any more): its codes cannot be compared, and
 * the change is read as breaking, so that nothing passes unread.
 * @param {Map<string, OperationRef>} opsBefore @param {Map<string, OperationRef>} opsAfter
 * @param {Map<string, unknown>} tablesBefore @param {Map<string, unknown>} tablesAfter
 * @returns {Change[]}
 */
export function uncomparedTables(opsBefore, opsAfter, tablesBefore, tablesAfter) {
  /** @type {Change[]} */
  const changes = [];
  for (const [operationId, now] of opsAfter) {
    const old = opsBefore.get(operationId);
    if (!old || tablesBefore.has(operationId) === tablesAfter.has(operationId)) continue;
    const gone = tablesBefore.has(operationId);
    const op = gone ? old : now;
    changes.push({
      operation: operationId,
      direction: 'response',
      location: `${op.pointer}/responses/200`,
      kind: 'result-codes-not-compared',
      level: 'breaking',
      message: `${sideLabel(now.kind, 'response')}: no result-code table found in the ${gone ? 'new' : 'released'} contract (${TABLE}): its codes are not compared`,
    });
  }
  return changes;
}

/** Codes by code (a repeated code gets `#2`, `#3`), each with its branch pointer and title. @param {any} doc @param {{ entry: any, union: string }} table */
function codesOf(doc, table) {
  /** @type {Map<string, { code: string, status: string, messages: string[], meaning: string, tables: unknown, nextStep: any, title: unknown, pointer: string }>} */
  const codes = new Map();
  table.entry.codes.forEach((/** @type {any} */ c, /** @type {number} */ i) => {
    let key = String(c.code);
    for (let n = 2; codes.has(key); n += 1) key = `${c.code}#${n}`;
    const pointer = `${table.union}/${i}`;
    codes.set(key, {
      code: String(c.code),
      status: String(c.status),
      messages: (c.messages ?? []).map(String),
      meaning: String(c.meaning ?? ''),
      tables: c.tables,
      nextStep: c.nextStep,
      title: valueAt(doc, pointer)?.title,
      pointer,
    });
  });
  return codes;
}

/**
 * @param {any} before @param {any} after
 * @param {Map<string, { entry: any, chain: string[], union: string }>} tablesBefore
 * @param {Map<string, { entry: any, chain: string[], union: string }>} tablesAfter
 * @param {Map<string, OperationRef>} opsAfter by operationId
 * @returns {Change[]}
 */
export function resultCodeChanges(before, after, tablesBefore, tablesAfter, opsAfter) {
  /** @type {Change[]} */
  const changes = [];
  for (const [operationId, tableAfter] of tablesAfter) {
    const tableBefore = tablesBefore.get(operationId);
    const op = opsAfter.get(operationId);
    if (!tableBefore || !op) continue; // a new operation: reported as such
    const side = sideLabel(op.kind, 'response');
    const fromMerchant = senderOf(op.kind, 'response') === 'merchant';
    const field = tableAfter.chain.join('.');
    const subject = `${side} ${field}`;
    const codesBefore = codesOf(before, tableBefore);
    const codesAfter = codesOf(after, tableAfter);
    /** @type {(level: Level, kind: string, location: string, text: string) => void} */
    const add = (level, kind, location, text) => {
      changes.push({
        operation: operationId,
        direction: 'response',
        location,
        kind,
        level,
        message: `${subject}: ${text}`,
        field,
      });
    };
    const firstMessage = (/** @type {string[]} */ m) => (m.length ? `, ${shown(m[0])}` : '');
    for (const [key, old] of codesBefore) {
      const now = codesAfter.get(key);
      if (!now) {
        add(
          'breaking',
          'result-code-removed',
          old.pointer,
          fromMerchant
            ? `result code ${old.code} (${old.status}${firstMessage(old.messages)}) no longer accepted in a reply`
            : `result code ${old.code} (${old.status}${firstMessage(old.messages)}) removed`,
        );
        continue;
      }
      if (old.status !== now.status)
        add(
          'breaking',
          'result-code-status-changed',
          `${now.pointer}/properties/${tableAfter.entry.fields.status}/const`,
          `result code ${old.code}: status ${shown(old.status)} -> ${shown(now.status)}`,
        );
      const gone = old.messages.filter((m) => !now.messages.includes(m));
      const added = now.messages.filter((m) => !old.messages.includes(m));
      const messages = `${now.pointer}/properties/${tableAfter.entry.fields.message}/examples`;
      if (gone.length === 1 && added.length === 1)
        add(
          'breaking',
          'result-code-message-changed',
          messages,
          `result code ${old.code}: message ${shown(gone[0])} -> ${shown(added[0])}`,
        );
      else {
        for (const m of gone)
          add(
            'breaking',
            'result-code-message-removed',
            messages,
            `result code ${old.code}: message ${shown(m)} removed`,
          );
        for (const m of added)
          add('notable', 'result-code-message-added', messages, `result code ${old.code}: new message ${shown(m)}`);
      }
      if (old.meaning !== now.meaning)
        add(
          'patch',
          'annotation',
          `${now.pointer}/description`,
          `result code ${old.code}: meaning (description) changed`,
        );
      if (old.title !== now.title)
        add('patch', 'annotation', `${now.pointer}/title`, `result code ${old.code}: title changed`);
      if (JSON.stringify(old.tables) !== JSON.stringify(now.tables))
        add(
          'patch',
          'extension',
          `${now.pointer}/x-code-table`,
          `result code ${old.code}: x-code-table ${shown(old.tables ?? null)} -> ${shown(now.tables ?? null)}`,
        );
      // A contract without next steps has none to compare (their arrival is one change of the whole contract).
      if (old.nextStep && now.nextStep) {
        if (old.nextStep.action !== now.nextStep.action)
          add(
            'notable',
            'next-step-changed',
            `${now.pointer}/x-next-step`,
            `result code ${old.code}: next step ${shown(old.nextStep.action)} -> ${shown(now.nextStep.action)}: merchants who act on next steps must handle it`,
          );
        else if (old.nextStep.source !== now.nextStep.source || old.nextStep.decision !== now.nextStep.decision)
          add(
            'patch',
            'extension',
            `${now.pointer}/x-next-step`,
            `result code ${old.code}: the basis of its next step changed`,
          );
      }
    }
    for (const [key, now] of codesAfter) {
      if (codesBefore.has(key)) continue;
      add(
        'notable',
        'result-code-added',
        now.pointer,
        fromMerchant
          ? `new result code ${now.code} (${now.status}${firstMessage(now.messages)}) accepted in a reply`
          : `new result code ${now.code} (${now.status}${firstMessage(now.messages)}): merchants who switch on codes must handle it`,
      );
    }
  }
  return changes;
}
