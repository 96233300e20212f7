// The suite's projects (vitest.config.ts): a test file that starts other processes is in the
// `process` project, so that `npm run test:quick` (the `in-process` project) starts none.
import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROCESS_SUFFIX } from '../../vitest.config.js';

const root = new URL('../../', import.meta.url);
/** The test files under `dir` (a path from the root), at any depth, outside node_modules. */
function testFilesIn(dir: string): string[] {
  return readdirSync(new URL(dir, root), { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFilesIn(`${dir}${entry.name}/`);
    return entry.name.endsWith('.test.ts') ? [`${dir}${entry.name}`] : [];
  });
}
const testFiles = testFilesIn('test/');
const isProcessLevel = (file: string) => file.endsWith(PROCESS_SUFFIX);

/** What starts processes: Node's child_process, the command line's helpers, a browser, the mock's launcher of Prism. */
const STARTERS = ['node:child_process', 'test/helpers/cli.js', 'playwright-core', 'src/mock/launch.js'];
/** What `file` imports: a package by its name, a relative import as a path from the root. */
const importsOf = (file: string, text: string) =>
  [...text.matchAll(/^import\b[^;]*?\bfrom '([^']+)'|\bimport\('([^']+)'\)/gm)]
    .map((m) => (m[1] ?? m[2]) as string)
    .map((spec) => (spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file), spec)) : spec));

describe('the projects of the suite', () => {
  it('keeps every test file in the folder of its area, none at the root of test/', () => {
    expect(testFiles.filter((file) => posix.dirname(file) === 'test')).toEqual([]);
  });

  it.each(testFiles.filter((f) => !isProcessLevel(f)))(
    '%s starts no process, or it would be a process-level test',
    (file) => {
      const starters = importsOf(file, readFileSync(new URL(file, root), 'utf8')).filter((m) => STARTERS.includes(m));
      expect(starters, `${file} starts processes: name it *${PROCESS_SUFFIX}`).toEqual([]);
    },
  );
});
