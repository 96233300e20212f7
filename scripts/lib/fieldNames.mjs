// The field names of the contract: every property any schema declares, and every parameter name.
// Only these are shown in a JSON Pointer of an error, a log or a report; any other key of a payload
// is data (a map key, an unknown field) and may hold a secret, so it is never echoed.

/** @param {any} doc the bundled contract @returns {string[]} sorted */
export function fieldNamesOf(doc) {
  const names = new Set();
  /** @param {unknown} node */
  const visit = (node) => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const record = /** @type {Record<string, unknown>} */ (node);
    if (record.properties && typeof record.properties === 'object' && !Array.isArray(record.properties)) {
      for (const name of Object.keys(record.properties)) names.add(name);
    }
    for (const value of Object.values(record)) visit(value);
  };
  visit(doc.components?.schemas);
  for (const parameter of Object.values(doc.components?.parameters ?? {}))
    names.add(/** @type {{ name: string }} */ (parameter).name);
  return [...names].sort();
}

/** @param {any} doc @param {string} header */
export function buildFieldNames(doc, header) {
  const json = JSON.stringify(fieldNamesOf(doc), null, 2);
  const what =
    '/** Every field name of the contract (schema properties and parameters): the only keys an error names. */';
  return {
    'fieldNames.js': `// ${header}\n${what}\nexport const fieldNames = Object.freeze(${json});\n`,
    'fieldNames.d.ts': `// ${header}\n${what}\nexport declare const fieldNames: readonly string[];\n`,
  };
}
