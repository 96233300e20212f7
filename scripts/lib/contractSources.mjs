// Where the change check finds its inputs: the working contract bundled fresh from openapi/ (as
// `generate.mjs` bundles it, never generated/), the released baseline committed in
// openapi/released/, the package version and CHANGELOG.md. Paths are relative to the repository.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundle, loadConfig } from '@redocly/openapi-core';

export const BASELINE_FILE = 'openapi/released/openapi.json';
export const CHANGELOG_FILE = 'CHANGELOG.md';

/** The contract of openapi/, bundled (components referenced by name). @param {string} root */
export async function bundleWorkingContract(root) {
  const config = await loadConfig({ configPath: join(root, 'redocly.yaml') });
  const result = await bundle({ ref: join(root, 'openapi/openapi.yaml'), config, dereference: false });
  if (result.problems.length > 0) {
    const first = result.problems
      .slice(0, 5)
      .map((p) => `  ${String(p.message).slice(0, 200)}`)
      .join('\n');
    throw new Error(`bundling openapi/ reported ${result.problems.length} problem(s):\n${first}`);
  }
  return result.bundle.parsed;
}

/** A JSON file, or null when it does not exist. @param {string} path @returns {Promise<any>} */
export async function readJsonIfPresent(path) {
  let text;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A text file, or null when it does not exist. @param {string} path */
export async function readTextIfPresent(path) {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return null;
    throw error;
  }
}

/** `version` of package.json. @param {string} root @returns {Promise<unknown>} */
export async function packageVersion(root) {
  const pkg = await readJsonIfPresent(join(root, 'package.json'));
  return pkg?.version;
}

/** The released contract, serialized as the baseline file holds it (as generated/openapi.json). @param {unknown} doc */
export function baselineText(doc) {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
