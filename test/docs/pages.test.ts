// The guides as a reader follows them: every relative link of the README, CONTRIBUTING.md and the
// pages under docs/ points at a file that exists, and at a heading of it that exists (GitHub's
// anchors); the README links every page; every decision a page cites is a link to its record; and
// every D-number cited anywhere in the repository is a record of one of the two files of decisions.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isExternal, links, prose } from '../helpers/markdown.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const pagesDir = join(root, 'docs');
/** The pages a reader opens: the README, the contributor's guide and every page under docs/. */
const pages = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(pagesDir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string) {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (a repeated heading gets -1, -2, ... as on GitHub). */
function anchors(markdown: string) {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, text] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(text ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The D-numbers recorded in the two files of decisions. */
const records = new Map<string, string>();
for (const file of ['openapi/DECISIONS.md', 'docs/decisions.md'])
  for (const [, number] of read(file).matchAll(/^## (D-\d{2,3}) /gm)) {
    expect(records.has(number!), `${number} is recorded twice`).toBe(false);
    records.set(number!, file);
  }

describe('the guides', () => {
  it('are the README, CONTRIBUTING.md and the pages of docs/', () => {
    expect(pages).toEqual(
      expect.arrayContaining([
        'docs/validation.md',
        'docs/client.md',
        'docs/webhooks.md',
        'docs/mock.md',
        'docs/sandbox.md',
        'docs/performance.md',
        'docs/decisions.md',
      ]),
    );
  });

  it('link only files that exist, and headings of them that exist', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const target of links(read(page))) {
        if (isExternal(target)) continue;
        checked++;
        const [path = '', anchor] = target.split('#');
        const file = path === '' ? join(root, page) : join(root, dirname(page), decodeURI(path));
        if (!existsSync(file)) {
          broken.push(`${page}: ${target} (no file ${relative(root, file)})`);
          continue;
        }
        if (anchor !== undefined && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor))
          broken.push(`${page}: ${target} (no heading #${anchor} in ${relative(root, file)})`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('the README links every page of docs/, CONTRIBUTING.md and both files of decisions', () => {
    const targets = new Set(links(read('README.md')).map((t) => t.split('#')[0]));
    for (const page of pages.filter((p) => p !== 'README.md')) expect(targets, page).toContain(page);
    expect(targets).toContain('openapi/DECISIONS.md');
  });

  it('the README fits a newcomer: a table of contents first, the two commands with how long the tests take, and short', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThan(220);
    expect(readme.indexOf('](docs/validation.md)')).toBeLessThan(readme.indexOf('## The operations'));
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toMatch(/npm ci && npm test .*6 to 8 minutes in CI \(2 cores\), up to 20 on a busy machine/);
    expect(readme).toMatch(
      /`npm run test:quick` \(no build\) runs only the tests that call the package in their own process/,
    );
  });

  it('cite each decision as a link to its record', () => {
    const bare: string[] = [];
    for (const page of pages.filter((p) => p !== 'docs/decisions.md')) {
      const text = prose(read(page))
        .replace(/`[^`\n]*`/g, '')
        .replace(/\[(D-\d{2,3})\]\(([^)]+)\)/g, (_, number: string, target: string) => {
          const file = records.get(number);
          if (!file || !target.split('#')[0]?.endsWith(file.split('/').pop()!))
            bare.push(`${page}: ${number} links ${target}, recorded in ${file}`);
          return '';
        });
      for (const [number] of text.matchAll(/\bD-\d{2,3}\b/g)) bare.push(`${page}: ${number} is not a link`);
    }
    expect(bare).toEqual([]);
  });
});

describe('every D-number cited in the repository', () => {
  /** The files that cite decisions: sources, scripts, tests, benchmarks, the contract and the guides. */
  function citingFiles(dir: string): string[] {
    const out: string[] = [];
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!['node_modules', 'released', 'fixtures', '.artifacts', 'runtimes'].includes(entry.name))
          out.push(...citingFiles(path));
      } else if (/\.(ts|mts|mjs|md|yaml)$/.test(entry.name)) out.push(path);
    }
    return out;
  }

  it('is a record of openapi/DECISIONS.md or docs/decisions.md', () => {
    const files = ['src', 'scripts', 'test', 'bench', 'openapi', 'docs']
      .flatMap(citingFiles)
      .concat(['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'SECURITY.md']);
    expect(files.length).toBeGreaterThan(100);
    const unknown: string[] = [];
    for (const file of files)
      for (const [number] of read(file).matchAll(/\bD-\d{2,3}\b/g))
        if (!records.has(number)) unknown.push(`${file}: ${number}`);
    expect(unknown).toEqual([]);
  });

  it('each name files of the repository that exist (a replaced record may name what went with it)', () => {
    const missing: string[] = [];
    for (const file of ['openapi/DECISIONS.md', 'docs/decisions.md'])
      for (const record of read(file).split(/^(?=## D-\d{2,3} )/m)) {
        const heading = record.slice(0, record.indexOf('\n'));
        if (!heading.startsWith('## D-') || /\(replaced by D-\d+\)/.test(heading)) continue;
        for (const [path] of record.matchAll(/\b(?:src|test|scripts|bench)\/[\w./-]+\.(?:ts|mjs|js|json|sh)\b/g))
          if (!existsSync(join(root, path))) missing.push(`${heading.slice(3, 8).trim()}: ${path}`);
      }
    expect(missing).toEqual([]);
  });

  it('says in each file of decisions where the other numbers live', () => {
    expect(read('openapi/DECISIONS.md')).toContain('](../docs/decisions.md)');
    expect(read('docs/decisions.md')).toContain('](../openapi/DECISIONS.md)');
  });
});
