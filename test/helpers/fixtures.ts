// The invalid payloads of test/fixtures/<operationId>/<name>.json.
import { readdirSync, readFileSync } from 'node:fs';

export interface Fixture {
  file: string;
  description: string;
  rule: string;
  operationId: string;
  direction: 'request' | 'response';
  query?: Record<string, string>;
  path?: Record<string, string>;
  payload: unknown;
  expect: { pointer: string; rule: string; resultCode?: string }[];
}

const root = new URL('../fixtures/', import.meta.url);

export function loadFixtures(): Fixture[] {
  const list: Fixture[] = [];
  for (const op of readdirSync(root).sort()) {
    for (const name of readdirSync(new URL(`${op}/`, root))
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      list.push({ file: `${op}/${name}`, ...JSON.parse(readFileSync(new URL(`${op}/${name}`, root), 'utf8')) });
    }
  }
  return list;
}
