// The journeys (openapi/journeys/*.arazzo.yaml) as one JSON file, generated/journeys.json: what
// openapi/journeys/inputs.mjs reads to compute a journey's inputs, so that the script needs no YAML
// parser in a merchant's app (the package's only runtime dependency is openapi-fetch).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * @param {string} root the repository @param {string} header the generated files' header
 * @returns {Record<string, string>}
 */
export function buildJourneys(root, header) {
  const dir = join(root, 'openapi/journeys');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.arazzo.yaml'))
    .sort();
  const journeys = Object.fromEntries(files.map((f) => [f, parse(readFileSync(join(dir, f), 'utf8'))]));
  return {
    'journeys.json': `${JSON.stringify({ description: `${header} The Arazzo files of openapi/journeys/, parsed.`, journeys }, null, 2)}\n`,
  };
}
