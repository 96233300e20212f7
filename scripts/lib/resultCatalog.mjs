// The result-code catalog: per operation, the codes its response can carry, with status,
// outcome, message(s), meaning and the merchant's next step. Derived from the response schemas'
// oneOf branches, the one source; the actions of the next steps from the root's
// `x-next-step-actions`.
import { operationsOf } from './operationIndex.mjs';
import { deref } from './refs.mjs';

const CODE_FIELDS = [
  { code: 'resultCode', status: 'resultStatus', message: 'resultMsg' },
  { code: 'statusCode', status: 'status', message: 'statusMessage' },
];

/**
 * Finds the oneOf whose branches pin a code field, and where it sits in the response.
 * @param {any} doc @param {any} schema @param {string} [pointer] @param {Set<unknown>} [seen]
 * @returns {{ node: any, fields: typeof CODE_FIELDS[number], pointer: string } | null}
 */
function findCodeUnion(doc, schema, pointer = '', seen = new Set()) {
  const node = deref(doc, schema);
  if (!node || typeof node !== 'object' || seen.has(node)) return null;
  seen.add(node);
  if (Array.isArray(node.oneOf)) {
    for (const fields of CODE_FIELDS) {
      if (node.oneOf.every((/** @type {any} */ b) => b.properties?.[fields.code]?.const !== undefined)) {
        return { node, fields, pointer };
      }
    }
  }
  for (const part of node.allOf ?? []) {
    const found = findCodeUnion(doc, part, pointer, seen);
    if (found) return found;
  }
  for (const [name, sub] of Object.entries(node.properties ?? {})) {
    const found = findCodeUnion(doc, sub, `${pointer}/${name}`, seen);
    if (found) return found;
  }
  return null;
}

/**
 * What a status means for the merchant: `success` and `pending` by name in every table's status
 * column (SUCCESS, S, TXN_SUCCESS; PENDING), `failure` for every other status.
 * @param {string} status @returns {'success' | 'pending' | 'failure'}
 */
export function outcomeOf(status) {
  if (status === 'SUCCESS' || status === 'S' || status === 'TXN_SUCCESS') return 'success';
  return status === 'PENDING' ? 'pending' : 'failure';
}

/**
 * The closed list of next-step actions: the root's `x-next-step-actions`, action -> what it means.
 * @param {any} doc @returns {Record<string, string>}
 */
export function nextStepActionsOf(doc) {
  const actions = doc['x-next-step-actions'];
  if (!actions || typeof actions !== 'object' || Object.keys(actions).length === 0)
    throw new Error('the contract has no x-next-step-actions at its root');
  for (const [action, meaning] of Object.entries(actions)) {
    if (!/^[a-z]+(?:-[a-z]+)*$/.test(action))
      throw new Error(`x-next-step-actions: "${action}" is not a lower-case word or words joined by -`);
    if (typeof meaning !== 'string' || meaning.trim() === '')
      throw new Error(`x-next-step-actions: ${action} has no description`);
  }
  return actions;
}

/** Where the decision records name themselves: `## D-52 ...`, `## D-146 ...`. */
const DECISION = /^D-\d{2,3}$/;
/** A section of the description, then its words: `7.3 Rules: "..."`, `3.3: "..."`. */
const SOURCE = /^\d+(?:\.\d+)*\b[^"]*: ".+"$/;

/**
 * A branch's `x-next-step`, checked: an action of the closed list, and either the description's
 * words (`source`) or the decision record that chose it (`decision`), never both.
 * @param {any} branch @param {Record<string, string>} actions @param {string} where
 * @returns {{ action: string, source?: string, decision?: string }}
 */
export function nextStepOf(branch, actions, where) {
  const step = branch['x-next-step'];
  if (!step || typeof step !== 'object') throw new Error(`${where}: no x-next-step`);
  const extra = Object.keys(step).filter((k) => !['action', 'source', 'decision'].includes(k));
  if (extra.length) throw new Error(`${where}: x-next-step has unknown keys ${extra.join(', ')}`);
  if (!Object.hasOwn(actions, step.action))
    throw new Error(`${where}: x-next-step action "${step.action}" is not one of x-next-step-actions`);
  if ((step.source === undefined) === (step.decision === undefined))
    throw new Error(`${where}: x-next-step needs exactly one of source and decision`);
  if (step.source !== undefined && !(typeof step.source === 'string' && SOURCE.test(step.source)))
    throw new Error(`${where}: x-next-step source must be a section and the description's words in quotes`);
  if (step.decision !== undefined && !(typeof step.decision === 'string' && DECISION.test(step.decision)))
    throw new Error(`${where}: x-next-step decision must name a decision record (D-nn or D-nnn)`);
  return step.source !== undefined
    ? { action: step.action, source: step.source }
    : { action: step.action, decision: step.decision };
}

/**
 * The result-code table of one answer: where its code union sits, its fields and its codes; null
 * when the schema holds no oneOf whose branches pin a code field. `stepOf` gives a code's next step.
 * @param {any} doc @param {any} schema the answer's schema (a `$ref` or a schema)
 * @param {string} operationId @param {(branch: any, where: string) => object} stepOf
 */
function tableOf(doc, schema, operationId, stepOf) {
  const found = findCodeUnion(doc, schema);
  if (!found) return null;
  const { node, fields, pointer } = found;
  return {
    location: pointer,
    fields,
    codes: node.oneOf.map((/** @type {any} */ branch) => {
      const status = branch.properties[fields.status]?.const;
      return {
        code: branch.properties[fields.code].const,
        status,
        outcome: outcomeOf(status),
        messages: branch.properties[fields.message]?.examples ?? [],
        meaning: branch.description ?? '',
        ...(branch['x-code-table'] ? { tables: branch['x-code-table'] } : {}),
        ...stepOf(branch, `${operationId} ${branch.properties[fields.code].const}`),
      };
    }),
  };
}

/**
 * The result-code table of one answer as the change check reads any two contracts: next steps as
 * written, null when no table is found (a contract of another shape, or an edit that removed one).
 * @param {any} doc @param {any} schema @param {string} operationId
 */
export function resultTableOf(doc, schema, operationId) {
  return tableOf(doc, schema, operationId, (branch) => {
    const step = branch['x-next-step'];
    return step && typeof step === 'object' ? { nextStep: step } : {};
  });
}

/**
 * The catalog of a contract. Every code needs a valid next step (the generator refuses the
 * contract otherwise); with `check: false`, as the change check reads any two contracts (one
 * released before next steps existed, or an edit being judged), a code's next step is taken as
 * written, or left out when there is none.
 * @param {any} doc @param {{ check?: boolean }} [options]
 */
export function resultCatalogOf(doc, { check = true } = {}) {
  const actions = check ? nextStepActionsOf(doc) : null;
  /** @param {any} branch @param {string} where */
  const stepOf = (branch, where) => {
    if (actions) return { nextStep: nextStepOf(branch, actions, where) };
    const step = branch['x-next-step'];
    return step && typeof step === 'object' ? { nextStep: step } : {};
  };
  /** @type {Record<string, any>} */
  const catalog = {};
  for (const op of operationsOf(doc)) {
    const table = tableOf(doc, { $ref: `#/components/schemas/${op.response.schema}` }, op.operationId, stepOf);
    if (!table) throw new Error(`no result-code table found for ${op.operationId}`);
    catalog[op.operationId] = table;
  }
  return catalog;
}

/** Text for a Markdown table cell. @param {string} text */
const cell = (text) => text.replace(/\|/g, '\\|');

/** @param {any} doc @param {string} header */
export function buildResultCatalog(doc, header) {
  const actions = nextStepActionsOf(doc);
  const catalog = resultCatalogOf(doc);
  const json = JSON.stringify(catalog, null, 2);
  const actionsJson = JSON.stringify(actions, null, 2);
  const md = [
    `<!-- ${header} -->`,
    '# Result codes',
    '',
    'Per operation, the codes its response can carry (section 7 of the interface description). Every outcome is HTTP 200 with the code in the body.',
    '',
    '## Next steps',
    '',
    'Each code says what the merchant does next, as one of these actions. Where the description says it, the table quotes it (section and words); otherwise the choice is recorded in `openapi/DECISIONS.md`.',
    '',
    '| Action | What to do |',
    '|---|---|',
    ...Object.entries(actions).map(([action, meaning]) => `| \`${action}\` | ${cell(meaning)} |`),
    '',
  ];
  for (const [operationId, entry] of Object.entries(catalog)) {
    md.push(
      `## ${operationId}`,
      '',
      `Fields: \`${entry.location}/${entry.fields.code}\`, \`${entry.fields.status}\`, \`${entry.fields.message}\`.`,
      '',
      '| Code | Status | Outcome | Message(s) | Meaning | Next step |',
      '|---|---|---|---|---|---|',
    );
    for (const c of entry.codes)
      md.push(
        `| ${c.code} | ${c.status} | ${c.outcome} | ${c.messages.join('<br>')} | ${cell(c.meaning)} | \`${c.nextStep.action}\` (${cell(c.nextStep.source ?? c.nextStep.decision)}) |`,
      );
    md.push('');
  }
  const actionsDoc = '/** The next-step actions of the catalog: what each one tells the merchant to do. */';
  return {
    'resultCodes.json': `${json}\n`,
    'resultCodes.js': `// ${header}\n/** Per operation, the result codes its response can carry. */\nexport const resultCodes = Object.freeze(${json});\n${actionsDoc}\nexport const nextStepActions = Object.freeze(${actionsJson});\n`,
    'resultCodes.d.ts': `// ${header}\n/** Per operation, the result codes its response can carry. */\nexport declare const resultCodes: ${json};\nexport type ResultCodeCatalog = typeof resultCodes;\nexport type ResultCodeOf<O extends keyof ResultCodeCatalog> = ResultCodeCatalog[O]['codes'][number]['code'];\n${actionsDoc}\nexport declare const nextStepActions: ${actionsJson};\n/** One action of the closed list of next steps. */\nexport type NextStepAction = keyof typeof nextStepActions;\n`,
    'result-codes.md': `${md.join('\n')}\n`,
  };
}
