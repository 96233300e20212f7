// The change check as one verdict: the changes from the released contract to the working one,
// the bump they need, the version rules of the contract and of the package (whose previous release
// is the newest CHANGELOG section of another version), the CHANGELOG's section of the released
// contract; and the
// report a reviewer reads (bounded: at most `maxChanges` changes, each line cut to 300 characters).

import { releasesOf } from './changelog.mjs';
import { diffContracts, requiredBump } from './contractDiff.mjs';
import { judgeVersions, nextVersions } from './contractVersion.mjs';
import { LEVELS } from './schemaRules.mjs';

/** @typedef {import('./resultCodeDiff.mjs').Change} Change */
/** @typedef {import('./contractVersion.mjs').Bump} Bump */
/**
 * @typedef {object} CheckResult
 * @property {boolean} ok
 * @property {string | null} released the baseline's version
 * @property {string} working the working contract's version
 * @property {string} package the package's version
 * @property {Change[]} changes
 * @property {Bump} required the bump the changes need
 * @property {Bump | null} bump the bump made (null: not a next version)
 * @property {string[]} problems why the check fails
 * @property {string[]} notes
 */

/**
 * @param {object} input
 * @param {any} input.released the released contract (bundled), or null when there is none
 * @param {any} input.working the working contract (bundled)
 * @param {unknown} input.packageVersion
 * @param {string | null} [input.changelog] the content of CHANGELOG.md (null: no file); not checked when undefined
 * @returns {CheckResult}
 */
export function checkContract({ released, working, packageVersion, changelog }) {
  const changes = released ? diffContracts(released, working) : [];
  const required = requiredBump(changes);
  const releasedVersion = released ? String(released.info?.version) : null;
  const releases = changelog ? releasesOf(changelog) : [];
  const previousPackage = releases.find((r) => r.package !== packageVersion)?.package ?? null;
  const verdict = judgeVersions({
    released: releasedVersion,
    working: working?.info?.version,
    packageVersion,
    previousPackage,
    required,
  });
  const problems = [...verdict.problems];
  if (releasedVersion !== null && changelog !== undefined && !releases.some((r) => r.contract === releasedVersion)) {
    problems.push(`CHANGELOG.md has no section for the released contract ${releasedVersion}`);
  }
  const workingVersion = String(working?.info?.version);
  const own = releases.find((r) => r.package === packageVersion);
  if (own?.date && releasedVersion !== null && workingVersion !== releasedVersion && workingVersion !== own.contract) {
    // A dated section is a release: the contract released next goes into a new package version.
    problems.push(
      `package ${own.package} was released (${own.date}) with contract ${own.contract}: contract ${workingVersion.slice(0, 40)} needs a new package version (package.json)`,
    );
  }
  return {
    ok: problems.length === 0,
    released: releasedVersion,
    working: workingVersion,
    package: String(packageVersion).slice(0, 40),
    changes,
    required,
    bump: verdict.bump,
    problems,
    notes: verdict.notes,
  };
}

/** @param {string} text @param {number} max */
function cut(text, max) {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** The tag of a level in the report. @param {Change['level']} level */
function tag(level) {
  return level === 'breaking' ? 'BREAKING' : level === 'notable' ? 'notable ' : 'patch   ';
}

/**
 * The report: per operation, each change with its level and its place; the totals; the verdict.
 * @param {CheckResult} result
 * @param {{ maxChanges?: number, name?: string, releasedFile?: string, workingFile?: string }} [options]
 */
export function renderReport(result, options = {}) {
  const {
    maxChanges = 200,
    name = 'check:breaking',
    releasedFile = 'openapi/released/openapi.json',
    workingFile = 'openapi/',
  } = options;
  const lines = [];
  if (result.released === null) {
    lines.push(`${name}: no released contract to compare with (${releasedFile})`);
  } else {
    lines.push(
      `${name}: ${workingFile} (${result.working}) against the released contract ${result.released} (${releasedFile})`,
    );
    if (result.changes.length === 0) {
      lines.push('', `No change since ${result.released}.`);
    } else {
      lines.push(
        'Places are JSON Pointers into the bundled contract (generated/openapi.json); for what was removed, into the released one.',
      );
      let operation = null;
      for (const change of result.changes.slice(0, maxChanges)) {
        if (change.operation !== operation) {
          operation = change.operation;
          lines.push('', operation || '(the whole contract)');
        }
        lines.push(
          `  ${tag(change.level)}  ${cut(change.message, 300)}`,
          `            at #${cut(change.location, 290)}`,
        );
      }
      if (result.changes.length > maxChanges)
        lines.push('', `... and ${result.changes.length - maxChanges} more changes (--json lists them all)`);
      const counts = LEVELS.map((level) => [level, result.changes.filter((c) => c.level === level).length])
        .filter(([, n]) => n)
        .map(([level, n]) => `${n} ${level}`);
      const next = nextVersions(result.released);
      const needs =
        result.required === 'none' || !next
          ? ''
          : ` They need a ${result.required} version: ${next[result.required]}${result.required === 'major' ? '' : ' or higher'}.`;
      lines.push(
        '',
        `${result.changes.length} change${result.changes.length === 1 ? '' : 's'}: ${counts.join(', ')}.${needs}`,
      );
    }
  }
  for (const note of result.notes) lines.push(`Note: ${note}`);
  const versions =
    result.package === result.working
      ? `version ${result.working}`
      : `contract ${result.working}, package ${result.package}`;
  if (result.ok) lines.push(`${name}: passed (${versions})`);
  else lines.push(`${name}: FAILED`, ...result.problems.map((p) => `  - ${p}`));
  return `${lines.join('\n')}\n`;
}
