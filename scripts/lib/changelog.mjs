// CHANGELOG.md: one section per released version of the contract, newest first, listing its
// changes by operation. `npm run release:contract` writes a section from the same diff that
// `npm run check:breaking` reports (to be edited by hand where words help); the docs page shows
// the section of the contract's own version.

import { operationRefs } from './contractOperations.mjs';
import { LEVELS } from './schemaRules.mjs';

/** @typedef {import('./resultCodeDiff.mjs').Change} Change */

export const CHANGELOG_INTRO = `# Changelog

The released versions of the contract (\`info.version\` of \`openapi/openapi.yaml\`, equal to the
package version), newest first. Each section lists the changes since the version before it, by
operation: **Breaking** changes need a new major version, notable ones a new minor version,
documentation a new patch version (\`openapi/DECISIONS.md\`, D-44 to D-47). Sections are written by
\`npm run release:contract\` and edited by hand where words help.
`;

/** At most this many documentation changes are listed per operation; the rest are counted. */
const MAX_PATCH_LINES = 10;
const LABEL = /** @type {const} */ ({ breaking: '**Breaking**', notable: 'Notable', patch: 'Documentation' });

/** Text safe in a Markdown list item: no emphasis, code or HTML by accident. @param {string} text */
export function markdownText(text) {
  return text.replace(/[\\`*<>[\]]/g, (c) => `\\${c}`);
}

/** The heading line of a version's section. @param {string} version @param {string} date */
function heading(version, date) {
  return `## ${version} (${date})`;
}

/**
 * The section of the first release: the operations and webhooks of the contract.
 * @param {any} doc the bundled contract @param {string} date YYYY-MM-DD
 * @param {Record<string, { codes: unknown[] }>} catalog the result-code catalog
 */
export function initialSection(doc, date, catalog) {
  const ops = operationRefs(doc);
  const count = (/** @type {'operation' | 'webhook'} */ kind) => {
    const n = ops.filter((o) => o.kind === kind).length;
    return `${n} ${kind}${n === 1 ? '' : 's'}`;
  };
  const lines = [
    heading(String(doc.info.version), date),
    '',
    `Initial release of the contract: ${count('operation')} and ${count('webhook')}, each with its fields, rules and result codes (section 7 of the interface description).`,
    '',
  ];
  for (const op of ops) {
    const codes = catalog[op.operationId]?.codes.length ?? 0;
    lines.push(
      op.kind === 'webhook'
        ? `- \`${op.operationId}\` (webhook \`${op.name}\`): the service's ${op.method.toUpperCase()} to the merchant's address; ${codes} reply codes.`
        : `- \`${op.operationId}\`: ${op.method.toUpperCase()} \`${op.name}\`; ${codes} result codes.`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The section of a release: the changes since `released`, by operation.
 * @param {object} input
 * @param {string} input.version @param {string} input.released @param {string} input.date
 * @param {ReadonlyArray<Change>} input.changes sorted as `diffContracts` sorts them
 * @param {any} input.doc the new contract (operation kinds)
 */
export function releaseSection({ version, released, date, changes, doc }) {
  const counts = LEVELS.map((level) => [level, changes.filter((c) => c.level === level).length]).filter(([, n]) => n);
  const summary = counts.map(([level, n]) => `${n} ${level === 'patch' ? 'documentation' : level}`).join(', ');
  const lines = [heading(version, date), '', `Changes since ${released}: ${summary || 'none'}.`];
  const kinds = new Map(operationRefs(doc).map((o) => [o.operationId, o.kind]));
  /** @type {Map<string, Change[]>} */
  const byOperation = new Map();
  for (const change of changes) byOperation.set(change.operation, [...(byOperation.get(change.operation) ?? []), change]);
  for (const [operation, list] of byOperation) {
    lines.push('', operation ? `### \`${operation}\`${kinds.get(operation) === 'webhook' ? ' (webhook)' : ''}` : '### The whole contract', '');
    const patches = list.filter((c) => c.level === 'patch');
    for (const change of list.filter((c) => c.level !== 'patch').concat(patches.slice(0, MAX_PATCH_LINES))) {
      lines.push(`- ${LABEL[change.level]}: ${markdownText(change.message)} (\`${change.location}\`)`);
    }
    if (patches.length > MAX_PATCH_LINES) lines.push(`- Documentation: ${patches.length - MAX_PATCH_LINES} more changes of descriptions, titles and examples.`);
  }
  return `${lines.join('\n')}\n`;
}

/** The lines of the file split into its sections (`## ` headings). @param {string} text */
function sections(text) {
  const lines = text.split('\n');
  const starts = lines.flatMap((line, i) => (line.startsWith('## ') ? [i] : []));
  return { lines, starts };
}

/** The version a section heading names: `## 1.2.0 (2026-01-02)` -> `1.2.0`. @param {string} line */
function versionOfHeading(line) {
  return /^## (\S+)/.exec(line)?.[1] ?? null;
}

/**
 * A version's section: its date and its text without the heading; null when the file has none.
 * @param {string} text the content of CHANGELOG.md @param {string} version
 */
export function sectionOf(text, version) {
  const { lines, starts } = sections(text);
  const index = starts.findIndex((i) => versionOfHeading(lines[i]) === version);
  if (index < 0) return null;
  const end = starts[index + 1] ?? lines.length;
  const date = /\((\d{4}-\d{2}-\d{2})\)/.exec(lines[starts[index]])?.[1] ?? null;
  return {
    date,
    body: lines
      .slice(starts[index] + 1, end)
      .join('\n')
      .trim(),
  };
}

/** The versions that have a section, in file order. @param {string} text */
export function versionsOf(text) {
  const { lines, starts } = sections(text);
  return starts.map((i) => versionOfHeading(lines[i]));
}

/**
 * The file with a version's section in place: replacing that version's section, or before the
 * newest one. A missing file starts with the introduction.
 * @param {string | null} text @param {string} version @param {string} section
 */
export function withSection(text, version, section) {
  const { lines, starts } = sections(text ?? CHANGELOG_INTRO);
  const block = section.trimEnd().split('\n');
  const index = starts.findIndex((i) => versionOfHeading(lines[i]) === version);
  if (index >= 0) {
    const end = starts[index + 1] ?? lines.length;
    const after = lines.slice(end);
    return `${[...lines.slice(0, starts[index]), ...block, ...(after.length ? ['', ...after] : [])].join('\n').trimEnd()}\n`;
  }
  const at = starts[0] ?? lines.length;
  const before = lines.slice(0, at);
  while (before.length && before.at(-1) === '') before.pop();
  const rest = lines.slice(at);
  return `${[...before, '', ...block, ...(rest.length ? ['', ...rest] : [])].join('\n').trimEnd()}\n`;
}
