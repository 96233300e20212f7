// The performance page's table is bench/results.json as bench/table.mjs renders it, not figures
// copied by hand: it fails when a whole run wrote new results and the page was not rendered again,
// or when the table was edited. The page names the run its figures come from.

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { END, PAGE, RESULTS, renderTable, START, tableOf, withTable } from '../../bench/table.mjs';

const page = readFileSync(PAGE, 'utf8');
const results = JSON.parse(readFileSync(RESULTS, 'utf8'));

describe('docs/performance.md', () => {
  it('has the table rendered from bench/results.json, between its markers', () => {
    expect(page).toContain(START);
    expect(page).toContain(END);
    expect(tableOf(page)).toBe(renderTable(results));
  });

  it('names the run its figures come from: date, Node version and cores', () => {
    const table = tableOf(page) ?? '';
    const day = String(results.date).slice(0, 10);
    expect(day).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(table).toContain(day);
    expect(table).toContain(`Node ${results.node}`);
    expect(table).toContain(`${results.machine.cpus} cores`);
  });

  it('has a row for every figure of the run, with its target and whether it was met', () => {
    const rows = (tableOf(page) ?? '')
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| group'));
    expect(rows).toHaveLength(results.figures.length);
    for (const [i, f] of results.figures.entries()) {
      expect(rows[i]?.startsWith(`| ${f.group} | `)).toBe(true);
      if (f.met !== undefined) expect(rows[i]).toContain(f.met ? ': met |' : ': **missed** |');
    }
  });

  it('fails on a table edited by hand or left from another run', () => {
    const table = renderTable(results);
    const edited = withTable(page, table.replace(/0\.\d\dx/, '0.01x'));
    expect(tableOf(edited)).not.toBe(renderTable(results));
    const later = { ...results, date: '2030-01-01T00:00:00.000Z' };
    expect(tableOf(page)).not.toBe(renderTable(later));
  });

  it('lists every group that bench/run.mjs runs, there and in its usage line', () => {
    const run = readFileSync(new URL('../../bench/run.mjs', import.meta.url), 'utf8');
    const groups = [...run.matchAll(/wanted\('([a-z]+)'\)/g)].map((m) => m[1]);
    const usage = /--only ([a-z,]+)\]/.exec(run)?.[1]?.split(',') ?? [];
    expect(groups.length).toBeGreaterThan(10);
    expect([...usage].sort()).toEqual([...groups].sort());
    for (const group of groups) expect(page).toContain(`\`${group}\``);
  });

  it("measures the package's own files: every file of dist/ a benchmark imports is one the package ships", () => {
    // Files the package holds only inside its bundles: no entry exports them, so the benchmarks
    // import TypeScript's output of the same modules. The checks tracing runs per call (timed alone),
    // and the servers the command starts (timed over HTTP).
    const internal = new Set(['client/tracing.js', 'mock/launch.js', 'proxy/server.js']);
    const unshipped = new Set(readFileSync(new URL('../../dist/.npmignore', import.meta.url), 'utf8').split('\n'));
    const benches = readdirSync(new URL('../../bench/', import.meta.url)).filter((f) => f.endsWith('.mjs'));
    const imported = benches.flatMap((file) => {
      const code = readFileSync(new URL(`../../bench/${file}`, import.meta.url), 'utf8');
      return [...code.matchAll(/(?:from |await import\()'\.\.\/dist\/([^']+)'/g)].map((m) => ({
        file,
        path: m[1] ?? '',
      }));
    });
    expect(imported.length).toBeGreaterThan(5);
    const measuredElsewhere = imported.filter(({ path }) => unshipped.has(`/${path}`) && !internal.has(path));
    expect(measuredElsewhere).toEqual([]);
  });
});
