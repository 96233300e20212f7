// The package as the registry shows and ships it: the README is the npm page, and npm's site has
// no repository to resolve its relative links against (package.json names none, D-119); unpkg,
// jsDelivr and node_modules serve the shipped files at their relative paths. So every relative
// link of the README, and of every guide the package ships, must point at a file of the tarball
// (`npm pack --dry-run --json`), and so must the journeys' source descriptions.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isExternal, links } from '../helpers/markdown.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The files `npm pack` puts in the tarball, as paths inside the package (scripts not run: no build). */
function packedFiles(): Set<string> {
  const run = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 32 * 1024 * 1024,
  });
  expect(run.status, run.stderr.slice(-2000)).toBe(0);
  const [pack] = JSON.parse(run.stdout) as { files: { path: string }[] }[];
  return new Set(pack?.files.map((f) => f.path));
}

/** The shipped file a relative link of `page` points at (anchor and query dropped). */
const targetOf = (page: string, link: string) =>
  normalize(join(dirname(page), decodeURI(link.split('#')[0] ?? ''))).replace(/\\/g, '/');

/** The relative links of a shipped page that point at no file of the tarball. */
function unshippedLinks(page: string, files: Set<string>): string[] {
  return links(readFileSync(join(root, page), 'utf8'))
    .filter((link) => !isExternal(link) && !link.startsWith('#'))
    .filter((link) => !files.has(targetOf(page, link)))
    .map((link) => `${page}: ${link}`);
}

describe('the package as published', () => {
  const files = packedFiles();

  it('names no repository, homepage or bugs address: there is no public one (D-119)', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(manifest)).not.toEqual(expect.arrayContaining(['repository']));
    expect(manifest.homepage).toBeUndefined();
    expect(manifest.bugs).toBeUndefined();
  });

  it('ships every file a relative link of the README (the npm page) points at', () => {
    const readmeLinks = links(readFileSync(join(root, 'README.md'), 'utf8')).filter(
      (l) => !isExternal(l) && !l.startsWith('#'),
    );
    expect(readmeLinks.length).toBeGreaterThan(20);
    expect(unshippedLinks('README.md', files)).toEqual([]);
  });

  it("ships the guides, the decisions, the mock's answers and the journeys, and every file their links point at", () => {
    for (const page of [
      'docs/mock.md',
      'docs/sandbox.md',
      'docs/journeys.md',
      'docs/decisions.md',
      'openapi/DECISIONS.md',
      'generated/mock-answers.md',
    ])
      expect(files, page).toContain(page);
    // CONTRIBUTING.md is shipped for the README's link; it is the repository's guide, and its
    // links are to the repository's folders.
    const pages = [...files].filter(
      (f) => f.endsWith('.md') && f !== 'CONTRIBUTING.md' && !f.startsWith('src/') && !f.startsWith('dist/'),
    );
    expect(pages.length).toBeGreaterThan(15);
    expect(pages.flatMap((page) => unshippedLinks(page, files))).toEqual([]);
  });

  it("ships each journey with what it reads: the bundled contract and the inputs' script", () => {
    const journeys = [...files].filter((f) => f.startsWith('openapi/journeys/') && f.endsWith('.arazzo.yaml'));
    expect(journeys.length).toBe(3);
    expect(files).toContain('openapi/journeys/inputs.mjs');
    expect(files).toContain('generated/journeys.json');
    for (const journey of journeys)
      for (const [, url] of readFileSync(join(root, journey), 'utf8').matchAll(/^ {4}url: (\S+)$/gm))
        expect(files, `${journey}: ${url}`).toContain(targetOf(journey, url ?? ''));
  });
});
