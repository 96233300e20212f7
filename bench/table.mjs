#!/usr/bin/env node
// The performance page's table, rendered from bench/results.json: the run it comes from (date, Node,
// cores, machine), then one row per figure. `node bench/table.mjs` rewrites the table in
// docs/performance.md between its two markers; a whole `npm run bench` does it at its end, and
// test/docs/performance.test.ts fails when the page's table is not this rendering of the file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
export const RESULTS = join(root, 'bench/results.json');
export const PAGE = join(root, 'docs/performance.md');
export const START = '<!-- bench/results.json: start (rendered by node bench/table.mjs, not by hand) -->';
export const END = '<!-- bench/results.json: end -->';

/**
 * @typedef {{ median: number, spread: number }} Summary
 * @typedef {{ group: string, name: string, subject: Summary, reference: Summary, ratio: { value: number, spread: number },
 *   unit: string, target?: string, met?: boolean, note?: string }} Figure
 * @typedef {{ machine: { cpus: number, cpuModel?: string, memoryGiB: number, platform: string }, node: string,
 *   date: string, durationSeconds: number, figures: Figure[] }} Results
 */

/** A number with three significant digits at most (no exponent). */
const number = (/** @type {number} */ n) =>
  Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);

/** The spread as `±n%`, or nothing when there is none (a size). */
const spread = (/** @type {number} */ s) => (s ? ` ±${(s * 100).toFixed(0)}%` : '');

/** A table cell: a pipe would end it, a new line would end the row. */
const cell = (/** @type {string} */ text) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

function targetOf(/** @type {Figure} */ f) {
  if (!f.target) return '';
  if (f.met === undefined) return f.target;
  return `${f.target}: ${f.met ? 'met' : '**missed**'}`;
}

function row(/** @type {Figure} */ f) {
  return [
    f.group,
    f.note ? `${f.name}; ${f.note}` : f.name,
    `${number(f.subject.median)} ${f.unit}${spread(f.subject.spread)}`,
    `${number(f.reference.median)} ${f.unit}${spread(f.reference.spread)}`,
    `${f.ratio.value.toFixed(2)}x${spread(f.ratio.spread)}`,
    targetOf(f),
  ];
}

/** The run a table comes from, in words: its date, Node version, cores and machine. */
export function runLine(/** @type {Results} */ results) {
  const m = results.machine;
  const date = results.date.replace('T', ' ').replace(/:\d\d\.\d+Z$/, ' UTC');
  return (
    `Run of ${date}: Node ${results.node}, ${m.cpus} cores (${m.cpuModel ?? 'unknown CPU'}), ` +
    `${m.memoryGiB} GiB, ${m.platform}, ${results.durationSeconds} s.`
  );
}

/** The Markdown between the page's markers: the run, then one row per figure. */
export function renderTable(/** @type {Results} */ results) {
  const lines = [
    runLine(results),
    '',
    '| group | figure | subject | reference | ratio | target |',
    '|---|---|---|---|---|---|',
    ...results.figures.map((f) => `| ${row(f).map(cell).join(' | ')} |`),
  ];
  return lines.join('\n');
}

/** The text between the markers of a page, or undefined when they are missing or out of order. */
export function tableOf(/** @type {string} */ page) {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) return undefined;
  return page.slice(start + START.length, end).trim();
}

/** The page with its table replaced by `table`; it throws when the markers are missing. */
export function withTable(/** @type {string} */ page, /** @type {string} */ table) {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/performance.md: the markers ${START} and ${END} are missing`);
  return `${page.slice(0, start + START.length)}\n${table}\n${page.slice(end)}`;
}

/** Reads bench/results.json and rewrites the table of docs/performance.md. */
export function writePageTable() {
  const results = JSON.parse(readFileSync(RESULTS, 'utf8'));
  writeFileSync(PAGE, withTable(readFileSync(PAGE, 'utf8'), renderTable(results)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) writePageTable();
