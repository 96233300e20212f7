// The mock's named answers and the request examples to send, as a Markdown page
// (generated/mock-answers.md) that docs/mock.md links: read from the bundled contract, so the list
// a reader picks a `Prefer: example=<name>` from is the list the mock serves.
import { examplesOf } from './docsSamples.mjs';
import { operationsOf } from './operationIndex.mjs';
import { resultCatalogOf } from './resultCatalog.mjs';

/** Text for a Markdown table cell. @param {string} text */
function cell(text) {
  return String(text)
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');
}

/** The value at a JSON Pointer. @param {any} value @param {string} pointer */
function at(value, pointer) {
  return pointer
    .split('/')
    .filter(Boolean)
    .reduce((node, key) => node?.[key], value);
}

/**
 * The page: per operation served by the mock, each named answer (first the default) with the
 * result code its value carries and what it shows; then the request examples of each operation.
 * @param {any} doc the bundled contract @param {string} header the "generated, do not edit" line
 * @returns {Record<string, string>}
 */
export function buildMockAnswers(doc, header) {
  const catalog = resultCatalogOf(doc);
  const served = operationsOf(doc).filter((info) => info.kind === 'operation');
  const lines = [
    '# Named answers of the mock',
    '',
    `${header}`,
    '',
    "Without a `Prefer` header the mock answers with the operation's first example (the default, a",
    'success). Each name below is a named example of the contract; pick it with the header',
    '`Prefer: example=<name>`. A name that does not exist gets HTTP `404`. How to run the mock and how',
    'it differs from the service: `docs/mock.md`.',
    '',
    '| operation | `Prefer: example=` | code | what it shows |',
    '|---|---|---|---|',
  ];
  for (const info of served) {
    const op = doc.paths[/** @type {string} */ (info.path)].post;
    const entry = catalog[info.operationId];
    const answers = examplesOf(doc, op.responses['200'].content['application/json']);
    for (const [i, answer] of answers.entries()) {
      const code = at(answer.value, entry.location)?.[entry.fields.code];
      if (typeof code !== 'string')
        throw new Error(`mock answers: the example ${answer.name} of ${info.operationId} carries no result code`);
      const shows = [answer.summary, answer.description].filter(Boolean).join(': ');
      lines.push(
        `| \`${info.operationId}\` | \`${answer.name}\` | \`${code}\` | ${i === 0 ? 'The default. ' : ''}${cell(shows)} |`,
      );
    }
  }
  lines.push(
    '',
    '## Request examples',
    '',
    "Valid request bodies to send are the contract's request examples, also shown in the reference docs:",
    '',
    '| operation | request examples |',
    '|---|---|',
  );
  for (const info of served)
    lines.push(`| \`${info.operationId}\` | ${info.request.examples.map((name) => `\`${name}\``).join(', ')} |`);
  lines.push('');
  return { 'mock-answers.md': lines.join('\n') };
}
