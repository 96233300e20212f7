#!/usr/bin/env node
import { spawnSync } from 'node:child_process';
// `npm run release:contract`: after the versions are bumped in openapi/openapi.yaml and
// package.json, records the contract of openapi/ as the released baseline
// (openapi/released/openapi.json) and writes its `### Contract` block in the package version's
// CHANGELOG.md section, generated from the diff that `npm run check:breaking` reports; the rest of
// that section (the package's own changes, written by hand) is kept. The first run records the
// first release. Running it again changes nothing once the release is recorded; `--amend` redoes
// the release of the current version (while it is unpublished) against the version before it,
// read from git history.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractBlock, initialBlock, releasesOf, withRelease } from './lib/changelog.mjs';
import { checkContract, renderReport } from './lib/changeReport.mjs';
import {
  BASELINE_FILE,
  baselineText,
  bundleWorkingContract,
  CHANGELOG_FILE,
  packageVersion,
  readJsonIfPresent,
  readTextIfPresent,
} from './lib/contractSources.mjs';
import { nextVersions, parseVersion } from './lib/contractVersion.mjs';
import { resultCatalogOf } from './lib/resultCatalog.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const USAGE = `Usage: node scripts/release-contract.mjs [--date YYYY-MM-DD] [--amend]

Records the contract of openapi/ as released: writes ${BASELINE_FILE} and the contract's block
in the package version's section of ${CHANGELOG_FILE} (the rest of that section is kept). Bump
info.version (openapi/openapi.yaml) and the package version (package.json) first; \`npm run
check:breaking\` says which bump the changes need.
  --date YYYY-MM-DD  the release date in the CHANGELOG heading (default: today, UTC)
  --amend            redo the release of the current version against the version before it
Exit status: 0 released, or nothing to release; 1 the version does not fit the changes; 2 a usage
error or an input that cannot be read.
`;

/** @param {string} message */
function say(message) {
  process.stdout.write(`release:contract: ${message}\n`);
}

/**
 * The released contract of the version before `version`, from the history of the baseline file.
 * @param {string} version @returns {any}
 */
function previousRelease(version) {
  const log = spawnSync('git', ['log', '--format=%H', '-n', '500', '--', BASELINE_FILE], {
    cwd: root,
    encoding: 'utf8',
  });
  if (log.status !== 0) throw new Error(`git log failed: ${(log.stderr || '').trim().slice(0, 200)}`);
  for (const commit of log.stdout.split('\n').filter(Boolean)) {
    const show = spawnSync('git', ['show', `${commit}:${BASELINE_FILE}`], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (show.status !== 0) continue;
    const doc = JSON.parse(show.stdout);
    if (doc?.info?.version !== version) return doc;
  }
  return null;
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  let amend = false;
  let date = new Date().toISOString().slice(0, 10);
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--amend') amend = true;
    else if (args[i] === '--date' && /^\d{4}-\d{2}-\d{2}$/.test(args[i + 1] ?? '')) {
      date = args[i + 1];
      i += 1;
    } else {
      process.stderr.write(
        `release:contract: ${args[i] === '--date' ? '--date needs YYYY-MM-DD' : `unknown argument ${JSON.stringify(args[i].slice(0, 40))}`}\n${USAGE}`,
      );
      return 2;
    }
  }

  const working = await bundleWorkingContract(root);
  const version = String(working.info?.version);
  const pkgVersion = await packageVersion(root);
  const baselinePath = join(root, BASELINE_FILE);
  const changelogPath = join(root, CHANGELOG_FILE);
  let baseline = await readJsonIfPresent(baselinePath);
  const changelog = await readTextIfPresent(changelogPath);
  if (!parseVersion(version) || !parseVersion(pkgVersion)) {
    say(
      `info.version ${JSON.stringify(version).slice(0, 40)} (openapi/openapi.yaml) and the package version ${JSON.stringify(pkgVersion).slice(0, 40)} must be of the form MAJOR.MINOR.PATCH`,
    );
    return 1;
  }
  const pkg = String(pkgVersion);
  const release = { package: pkg, contract: version, date };

  const released = baseline ? String(baseline.info?.version) : null;
  if (released === version) {
    const unchanged = checkContract({ released: baseline, working, packageVersion: pkgVersion }).changes.length === 0;
    if (!amend) {
      if (unchanged) {
        say(`${version} is released and openapi/ matches it: nothing to release.`);
        const releases = releasesOf(changelog ?? '');
        if (!releases.some((r) => r.contract === version))
          say(`warning: ${CHANGELOG_FILE} has no section for contract ${version}; run with --amend to write it.`);
        if (!releases.some((r) => r.package === pkg))
          say(
            `note: package ${pkg} has no section in ${CHANGELOG_FILE}: write its changes by hand under "## ${pkg} (unreleased)${pkg === version ? '' : `, contract ${version}`}".`,
          );
        return 0;
      }
      const next = nextVersions(version);
      say(
        `openapi/ changed since ${version} was released. Bump info.version to ${next?.major}, ${next?.minor} or ${next?.patch} and the package version at least as much (npm run check:breaking says which), or run with --amend to redo the release of ${version} while it is unpublished.`,
      );
      return 1;
    }
    baseline = previousRelease(version);
  }

  if (baseline === null) {
    // The first release: the contract as it stands.
    await mkdir(dirname(baselinePath), { recursive: true });
    await writeFile(baselinePath, baselineText(working));
    await writeFile(changelogPath, withRelease(changelog, release, initialBlock(working, resultCatalogOf(working))));
    say(
      `released ${version} (the first release): wrote ${BASELINE_FILE} and the contract's block in the ${pkg} section of ${CHANGELOG_FILE}.`,
    );
    say('next: edit the CHANGELOG section where words help, then `npm run generate`.');
    return 0;
  }

  const result = checkContract({ released: baseline, working, packageVersion: pkg, changelog });
  if (!result.ok) {
    process.stdout.write(renderReport(result, { name: 'release:contract' }));
    return 1;
  }
  await writeFile(baselinePath, baselineText(working));
  const block = contractBlock({
    version,
    released: String(baseline.info?.version),
    changes: result.changes,
    doc: working,
  });
  const replaced = (changelog ?? '').split('\n').includes(`### Contract ${version}`);
  await writeFile(changelogPath, withRelease(changelog, release, block));
  say(
    `released ${version} (${result.required} version, ${result.changes.length} change${result.changes.length === 1 ? '' : 's'} since ${baseline.info?.version}) in package ${pkg}: wrote ${BASELINE_FILE} and the contract's block in the ${pkg} section of ${CHANGELOG_FILE}.`,
  );
  if (replaced) say(`the previous block of contract ${version} was replaced; any hand edits to it are in git history.`);
  say('next: edit the CHANGELOG section where words help, then `npm run generate`.');
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`release:contract: failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
