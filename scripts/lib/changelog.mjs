// CHANGELOG.md: one section per release of the package, newest first. A section's heading names
// the package's version, its date and, where it differs, the contract's version it carries
// (`## 2.0.0 (2026-11-27), contract 1.1.1`; `## 1.1.0 (2026-11-26)` carries contract 1.1.0,
// docs/decisions.md D-70). A section not yet released says `(unreleased)` instead of a date. `npm run release:contract` writes the contract's part of a section, a
// `### Contract <version>` block listing its changes by operation from the same diff that
// `npm run check:breaking` reports; it keeps every other part of the section, which is written by
// hand (the package's own changes, **Breaking** ones first). The docs page shows the block of the
// contract's own version.

import { operationRefs } from './contractOperations.mjs';
import { LEVELS } from './schemaRules.mjs';

/** @typedef {import('./resultCodeDiff.mjs').Change} Change */
/** A section's heading: the package's version, its date (null: `(unreleased)`) and the contract's version. */
/** @typedef {{ package: string, contract: string, date: string | null }} Release */

export const CHANGELOG_INTRO = `# Changelog

The releases of the package, newest first. Each heading names the package's version and, where it
differs, the version of the contract it carries (\`info.version\` of \`openapi/openapi.yaml\`). The
package follows semantic versioning of what a program imports from it; the contract's version, of
the contract alone (\`docs/decisions.md\`, D-70). **Breaking** changes need a new major version,
notable ones a new minor version, documentation a new patch version (\`openapi/DECISIONS.md\`, D-44
to D-47); the package is bumped at least as much as the contract it carries. The \`### Contract\`
block of a section is written by \`npm run release:contract\` and edited by hand where words help;
the rest of a section is written by hand.
`;

/** At most this many documentation changes are listed per operation; the rest are counted. */
const MAX_PATCH_LINES = 10;
const LABEL = /** @type {const} */ ({ breaking: '**Breaking**', notable: 'Notable', patch: 'Documentation' });
const HEADING = /^## (\d+\.\d+\.\d+)(?=\s|$)(?: \((?:(\d{4}-\d{2}-\d{2})|unreleased)\))?(?:, contract (\S+))?/;
const CONTRACT_BLOCK = /^### Contract (\S+)\s*$/;

/** Text safe in a Markdown list item: no emphasis, code or HTML by accident. @param {string} text */
export function markdownText(text) {
  return text.replace(/[\\`*<>[\]]/g, (c) => `\\${c}`);
}

/** The heading line of a release. @param {Release} release */
export function headingOf({ package: pkg, contract, date }) {
  return `## ${pkg} (${date ?? 'unreleased'})${contract !== pkg ? `, contract ${contract}` : ''}`;
}

/** The release a heading line names, or null for a line that is not a release heading. @param {string} line @returns {Release | null} */
function releaseOfHeading(line) {
  const match = HEADING.exec(line);
  if (!match) return null;
  const pkg = /** @type {string} */ (match[1]);
  return { package: pkg, date: match[2] ?? null, contract: match[3] ?? pkg };
}

/**
 * The block of the first release of the contract: its operations and webhooks.
 * @param {any} doc the bundled contract @param {Record<string, { codes: unknown[] }>} catalog the result-code catalog
 */
export function initialBlock(doc, catalog) {
  const ops = operationRefs(doc);
  const count = (/** @type {'operation' | 'webhook'} */ kind) => {
    const n = ops.filter((o) => o.kind === kind).length;
    return `${n} ${kind}${n === 1 ? '' : 's'}`;
  };
  const lines = [
    `### Contract ${String(doc.info.version)}`,
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
 * The block of a release of the contract: its changes since `released`, by operation.
 * @param {object} input
 * @param {string} input.version @param {string} input.released
 * @param {ReadonlyArray<Change>} input.changes sorted as `diffContracts` sorts them
 * @param {any} input.doc the new contract (operation kinds)
 */
export function contractBlock({ version, released, changes, doc }) {
  const counts = LEVELS.map((level) => [level, changes.filter((c) => c.level === level).length]).filter(([, n]) => n);
  const summary = counts.map(([level, n]) => `${n} ${level === 'patch' ? 'documentation' : level}`).join(', ');
  const lines = [`### Contract ${version}`, '', `Changes since ${released}: ${summary || 'none'}.`];
  const kinds = new Map(operationRefs(doc).map((o) => [o.operationId, o.kind]));
  /** @type {Map<string, Change[]>} */
  const byOperation = new Map();
  for (const change of changes)
    byOperation.set(change.operation, [...(byOperation.get(change.operation) ?? []), change]);
  for (const [operation, list] of byOperation) {
    lines.push(
      '',
      operation
        ? `#### \`${operation}\`${kinds.get(operation) === 'webhook' ? ' (webhook)' : ''}`
        : '#### The whole contract',
      '',
    );
    const patches = list.filter((c) => c.level === 'patch');
    for (const change of list.filter((c) => c.level !== 'patch').concat(patches.slice(0, MAX_PATCH_LINES))) {
      lines.push(`- ${LABEL[change.level]}: ${markdownText(change.message)} (\`${change.location}\`)`);
    }
    if (patches.length > MAX_PATCH_LINES)
      lines.push(
        `- Documentation: ${patches.length - MAX_PATCH_LINES} more changes of descriptions, titles and examples.`,
      );
  }
  return `${lines.join('\n')}\n`;
}

/** The lines of the file and where its sections (`## ` headings) start. @param {string} text */
function sections(text) {
  const lines = text.split('\n');
  const starts = lines.flatMap((line, i) => (line.startsWith('## ') ? [i] : []));
  return { lines, starts };
}

/** The releases the file's headings name, in file order (newest first). @param {string} text @returns {Release[]} */
export function releasesOf(text) {
  const { lines, starts } = sections(text);
  return starts.flatMap((i) => releaseOfHeading(lines[i] ?? '') ?? []);
}

/** The package versions that have a section, in file order. @param {string} text */
export function versionsOf(text) {
  return releasesOf(text).map((r) => r.package);
}

/** Where the section of package version `version` starts and ends, or null. @param {string[]} lines @param {number[]} starts @param {string} version */
function sectionBounds(lines, starts, version) {
  const index = starts.findIndex((i) => releaseOfHeading(lines[i] ?? '')?.package === version);
  if (index < 0) return null;
  return { start: /** @type {number} */ (starts[index]), end: starts[index + 1] ?? lines.length };
}

/**
 * The section of package version `version`: its release and its text without the heading; null
 * when the file has none.
 * @param {string} text the content of CHANGELOG.md @param {string} version
 */
export function sectionOf(text, version) {
  const { lines, starts } = sections(text);
  const bounds = sectionBounds(lines, starts, version);
  if (!bounds) return null;
  const release = /** @type {Release} */ (releaseOfHeading(lines[bounds.start] ?? ''));
  const body = lines
    .slice(bounds.start + 1, bounds.end)
    .join('\n')
    .trim();
  return { date: release.date, contract: release.contract, body };
}

/** Where a section's `### Contract` block starts and ends (the next `### ` heading or the section's end), or null. @param {string[]} body */
function blockBounds(body) {
  const start = body.findIndex((line) => CONTRACT_BLOCK.test(line));
  if (start < 0) return null;
  const next = body.findIndex((line, i) => i > start && line.startsWith('### '));
  return { start, end: next < 0 ? body.length : next };
}

/**
 * The changes of contract version `version`, from the section that released it (the oldest one
 * that carries it): its `### Contract` block without that heading, or the whole section where it
 * has none (a section written before the package and the contract had versions of their own).
 * Null when no section carries it.
 * @param {string} text @param {string} version
 */
export function contractChangesOf(text, version) {
  const release = releasesOf(text).findLast((r) => r.contract === version);
  if (!release) return null;
  const section = /** @type {NonNullable<ReturnType<typeof sectionOf>>} */ (sectionOf(text, release.package));
  const body = section.body.split('\n');
  const block = blockBounds(body);
  if (!block) return { date: section.date, body: section.body };
  return {
    date: section.date,
    body: body
      .slice(block.start + 1, block.end)
      .join('\n')
      .trim(),
  };
}

/**
 * The file with a release's contract block in place. In the section of the release's package
 * version: its heading names the release's date and contract, its `### Contract` block is
 * replaced (or added at its end), and everything else in it is kept. Without such a section, a
 * new one before the newest. A missing file starts with the introduction.
 * @param {string | null} text @param {Release} release @param {string} block from contractBlock or initialBlock
 */
export function withRelease(text, release, block) {
  const { lines, starts } = sections(text ?? CHANGELOG_INTRO);
  const blockLines = block.trimEnd().split('\n');
  const bounds = sectionBounds(lines, starts, release.package);
  if (!bounds) {
    const at = starts[0] ?? lines.length;
    const before = trimmedEnd(lines.slice(0, at));
    const rest = lines.slice(at);
    return joined([...before, '', headingOf(release), '', ...blockLines, ...(rest.length ? ['', ...rest] : [])]);
  }
  const body = trimmedEnd(lines.slice(bounds.start + 1, bounds.end));
  const old = blockBounds(body);
  const kept = old
    ? [
        ...trimmedEnd(body.slice(0, old.start)),
        ...(old.end < body.length ? ['', ...blockLines, '', ...body.slice(old.end)] : ['', ...blockLines]),
      ]
    : [...body, '', ...blockLines];
  const after = lines.slice(bounds.end);
  return joined([
    ...lines.slice(0, bounds.start),
    headingOf(release),
    ...trimmedStartOnce(kept),
    ...(after.length ? ['', ...after] : []),
  ]);
}

/** The lines without their trailing empty ones. @param {string[]} lines */
function trimmedEnd(lines) {
  const out = [...lines];
  while (out.length && out.at(-1) === '') out.pop();
  return out;
}

/** Lines to follow a heading: exactly one empty line first. @param {string[]} lines */
function trimmedStartOnce(lines) {
  let i = 0;
  while (i < lines.length && lines[i] === '') i += 1;
  return ['', ...lines.slice(i)];
}

/** @param {string[]} lines */
function joined(lines) {
  return `${lines.join('\n').trimEnd()}\n`;
}
