// What a merchant's app needs for the mock, said where the merchant looks: the README (the npm
// page), the mock's guide and `gateway-contract mock --help` each print the one command that
// installs Prism at the versions the mock is tested with (the mock's error without Prism prints it
// too), and the README's mock starts with the package's own command, not the repository's script.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prismInstallCommand } from '../../src/mock/launch.js';
import { runCli } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A shell text with its line continuations joined, as the shell reads it. */
const joined = (text: string) => text.replace(/ *\\\n\s*/g, ' ');
/** The shell code blocks of a page. */
const shellBlocks = (page: string) =>
  [...readFileSync(join(root, page), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => joined(m[1] ?? ''));
/** The README's section under a heading. */
function section(heading: string) {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf(`## ${heading}\n`);
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

describe('installing the mock in an app', () => {
  const install = prismInstallCommand();

  it('names the four pinned Prism packages in one command', () => {
    expect(install).toMatch(
      /^npm install --save-dev @stoplight\/prism-cli@\d\S* @stoplight\/prism-core@\S+ @stoplight\/prism-http@\S+ @stoplight\/prism-http-server@\S+$/,
    );
  });

  it('is printed by gateway-contract mock --help, in lines that fit a terminal', async () => {
    const help = await runCli(['mock', '--help']);
    expect(help.status).toBe(0);
    expect(joined(help.stdout)).toContain(install);
    expect(help.stdout).toContain('gateway-contract sandbox');
  });

  it('is in the README and the mock guide, before the command that starts the mock', () => {
    for (const page of ['README.md', 'docs/mock.md']) {
      const block = shellBlocks(page).find((b) => b.includes(install));
      expect(block, page).toBeDefined();
      expect(block?.indexOf('npx gateway-contract mock'), page).toBeGreaterThan(block?.indexOf(install) ?? 0);
    }
  });

  it("the README's mock section runs the package's command, says when to take the sandbox, and never npm start", () => {
    const mock = section('The mock');
    expect(mock).not.toContain('npm start');
    expect(mock).toContain('npx gateway-contract mock');
    expect(mock).toContain('[the sandbox](#the-sandbox)');
  });
});
