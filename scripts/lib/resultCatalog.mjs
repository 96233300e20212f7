// The result-code catalog: per operation, the codes its response can carry, with status,
// message(s) and meaning. Derived from the response schemas' oneOf branches, the one source.
import { operationsOf } from './operationIndex.mjs';
import { deref } from './refs.mjs';

const CODE_FIELDS = [
  { code: 'resultCode', status: 'resultStatus', message: 'resultMsg' },
  { code: 'statusCode', status: 'status', message: 'statusMessage' },
];

/**
 * Finds the oneOf whose branches pin a code field, and where it sits in the response. @param {any} doc @param {any} schema
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

/** @param {any} doc */
export function resultCatalogOf(doc) {
  /** @type {Record<string, any>} */
  const catalog = {};
  for (const op of operationsOf(doc)) {
    const found = findCodeUnion(doc, { $ref: `#/components/schemas/${op.response.schema}` });
    if (!found) throw new Error(`no result-code table found for ${op.operationId}`);
    const { node, fields, pointer } = found;
    catalog[op.operationId] = {
      location: pointer,
      fields,
      codes: node.oneOf.map((/** @type {any} */ branch) => ({
        code: branch.properties[fields.code].const,
        status: branch.properties[fields.status].const,
        messages: branch.properties[fields.message]?.examples ?? [],
        meaning: branch.description ?? '',
        ...(branch['x-code-table'] ? { tables: branch['x-code-table'] } : {}),
      })),
    };
  }
  return catalog;
}

/** @param {any} doc @param {string} header */
export function buildResultCatalog(doc, header) {
  const catalog = resultCatalogOf(doc);
  const json = JSON.stringify(catalog, null, 2);
  const md = [`<!-- ${header} -->`, '# Result codes', '', 'Per operation, the codes its response can carry (section 7 of the interface description). Every outcome is HTTP 200 with the code in the body.', ''];
  for (const [operationId, entry] of Object.entries(catalog)) {
    md.push(`## ${operationId}`, '', `Fields: \`${entry.location}/${entry.fields.code}\`, \`${entry.fields.status}\`, \`${entry.fields.message}\`.`, '', '| Code | Status | Message(s) | Meaning |', '|---|---|---|---|');
    for (const c of entry.codes) md.push(`| ${c.code} | ${c.status} | ${c.messages.join('<br>')} | ${c.meaning.replace(/\|/g, '\\|')} |`);
    md.push('');
  }
  return {
    'resultCodes.json': `${json}\n`,
    'resultCodes.js': `// ${header}\n/** Per operation, the result codes its response can carry. */\nexport const resultCodes = Object.freeze(${json});\n`,
    'resultCodes.d.ts': `// ${header}\n/** Per operation, the result codes its response can carry. */\nexport declare const resultCodes: ${json};\nexport type ResultCodeCatalog = typeof resultCodes;\nexport type ResultCodeOf<O extends keyof ResultCodeCatalog> = ResultCodeCatalog[O]['codes'][number]['code'];\n`,
    'result-codes.md': `${md.join('\n')}\n`,
  };
}
