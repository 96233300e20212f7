#!/usr/bin/env node
// `npm run check:breaking`: compares the contract of openapi/ (bundled fresh) with the released
// one in openapi/released/, classifies every change by what it does to a merchant, and fails when
// the version does not match: a breaking change needs a major version, a notable one a minor,
// documentation a patch, no change no bump; package.json's version must equal info.version.
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkContract, renderReport } from './lib/changeReport.mjs';
import {
  BASELINE_FILE,
  bundleWorkingContract,
  CHANGELOG_FILE,
  packageVersion,
  readJsonIfPresent,
  readTextIfPresent,
} from './lib/contractSources.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const USAGE = `Usage: node scripts/check-breaking.mjs [--base FILE] [--contract FILE] [--json]

Compares the contract of openapi/ with the released one and checks its version.
  --base FILE      the released contract to compare with (default ${BASELINE_FILE})
  --contract FILE  a bundled contract (JSON) to check instead of openapi/
  --json           print the verdict and every change as JSON
Exit status: 0 the version matches the changes; 1 it does not, or a version or the CHANGELOG
section is missing; 2 a usage error or an input that cannot be read.
`;

/** @param {string[]} args */
function parseArgs(args) {
  /** @type {{ base?: string, contract?: string, json: boolean, help: boolean }} */
  const options = { json: false, help: false };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--json') options.json = true;
    else if (arg === '--base' || arg === '--contract') {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('--')) throw new Error(`${arg} needs a file`);
      options[arg === '--base' ? 'base' : 'contract'] = value;
      i += 1;
    } else throw new Error(`unknown argument ${JSON.stringify(arg.slice(0, 40))}`);
  }
  return options;
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`check:breaking: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  let released, working, version, changelog;
  try {
    const baseFile = options.base ? resolve(options.base) : join(root, BASELINE_FILE);
    released = await readJsonIfPresent(baseFile);
    if (options.base && released === null) throw new Error(`${options.base} does not exist`);
    working = options.contract
      ? JSON.parse(await readFile(resolve(options.contract), 'utf8'))
      : await bundleWorkingContract(root);
    version = await packageVersion(root);
    changelog = await readTextIfPresent(join(root, CHANGELOG_FILE));
  } catch (error) {
    process.stderr.write(`check:breaking: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const result = checkContract({ released, working, packageVersion: version, changelog });
  if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    process.stdout.write(
      renderReport(result, {
        releasedFile: options.base ?? BASELINE_FILE,
        workingFile: options.contract ?? 'openapi/',
      }),
    );
  }
  return result.ok ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`check:breaking: failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
