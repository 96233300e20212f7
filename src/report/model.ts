// What every report of a run shares: the run itself (the cases of validateMany(), or any list of
// cases judged the same way), its groups, its one-line summary, and where a case's file is.
import type { BatchResult, CaseIssue, CaseResult } from '../validation/validateMany.js';

export type { BatchResult, CaseIssue, CaseResult };

/** A run to report: its cases, skipped records and counts, and what produced it. */
export interface Report extends BatchResult {
  /** The run's name: `gateway-contract validate`. */
  title: string;
  /** What is counted: `payload` (the default), `case`. */
  noun?: string | undefined;
  /** The words of the two verdicts (default `valid` and `invalid`). */
  verdicts?: { ok: string; failed: string } | undefined;
  /** The text report lists the cases that passed too (a conformance run of a few cases). */
  listAll?: boolean | undefined;
  /** What a run of exchanges covered, per operation (the proxy's report). */
  coverage?: OperationCoverage[] | undefined;
  /** The state changes of the description a run drove, and how often (verify's report). */
  stateChanges?: StateChangeCoverage[] | undefined;
  /** Lines that say what the run could not check, and why (verify's report). */
  notes?: string[] | undefined;
}

/** A state change of the description (an order paid, a token suspended), and how many times a run drove it. */
export interface StateChangeCoverage {
  change: string;
  exercised: number;
}

/** State changes in lines of text, one per change. */
export const stateChangeLines = (changes: readonly StateChangeCoverage[]): string[] =>
  changes.map((c) => `${c.change}: ${c.exercised === 0 ? 'not driven' : `driven ${c.exercised} time(s)`}`);

/** Of one operation, what a run of exchanges met: the result codes of its table, and the named checks that found a problem. */
export interface OperationCoverage {
  operationId: string;
  exchanges: number;
  /** Codes of the operation's table that some answer carried, with the table's status. */
  codesMet: string[];
  /** Codes of the table no answer carried. */
  codesNotMet: string[];
  /** The operation's named checks, each with how many requests it found a problem in. */
  namedChecks: { name: string; fired: number }[];
}

/** Coverage in lines of text, one per operation. */
export function coverageLines(coverage: readonly OperationCoverage[]): string[] {
  return coverage.map((c) => {
    const checks = c.namedChecks.length
      ? `; named checks fired: ${c.namedChecks.map((n) => `${n.name} ${n.fired}`).join(', ')}`
      : '';
    const total = c.codesMet.length + c.codesNotMet.length;
    return `${c.operationId}: ${c.exchanges} exchange(s); result codes met ${c.codesMet.length}/${total}: ${c.codesMet.join(', ') || 'none'}; not met: ${c.codesNotMet.join(', ') || 'none'}${checks}`;
  });
}

export const verdictWords = (report: Report) => report.verdicts ?? { ok: 'valid', failed: 'invalid' };

export interface ReportOptions {
  /** The tool, for SARIF. */
  tool: { name: string; version: string };
  /** Files are named relative to this directory where they lie within it (default: the working directory). */
  cwd?: string | undefined;
}

/** A report's group of a case: its operation and direction (a JUnit testsuite, a line of the text summary). */
export const groupOf = (c: CaseResult): string => `${c.operationId} ${c.direction}`;

/** The cases by group, in the order the groups first appear. */
export function groups(cases: readonly CaseResult[]): Map<string, CaseResult[]> {
  const map = new Map<string, CaseResult[]>();
  for (const c of cases) {
    const key = groupOf(c);
    const list = map.get(key);
    if (list) list.push(c);
    else map.set(key, [c]);
  }
  return map;
}

/** The file of a case, when it has one that can be pointed at (standard input cannot). */
export const fileOf = (c: CaseResult): string | undefined =>
  c.file === undefined || c.file === '-' ? undefined : c.file;

// Paths as Node's path module reads them on this platform, without importing it (reports are
// written on any runtime): on Windows both separators and drive letters, elsewhere `/` alone.
const windows = globalThis.process?.platform === 'win32';
const isAbsolute = (path: string): boolean =>
  path.startsWith('/') || (windows && (path.startsWith('\\\\') || /^[A-Za-z]:[\\/]/.test(path)));
const slashes = (path: string): string => (windows ? path.replace(/\\/g, '/') : path);

/**
 * A file as a relative path with forward slashes, when it lies within `cwd` (default: the working
 * directory, where the runtime has one); otherwise as given, with forward slashes.
 */
export function displayPath(file: string, cwd: string | undefined = globalThis.process?.cwd?.()): string {
  if (!isAbsolute(file) || cwd === undefined) return slashes(file);
  const dir = slashes(cwd).replace(/\/+$/, '');
  const path = slashes(file);
  return path.startsWith(`${dir}/`) && path.length > dir.length + 1 ? path.slice(dir.length + 1) : path;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `12 payloads: 10 valid, 2 invalid; 3 skipped`, and a word when the run stopped early. */
export function summaryLine(report: Report): string {
  const { cases, valid, invalid, skipped } = report.counts;
  const noun = report.noun ?? 'payload';
  const words = verdictWords(report);
  let line =
    cases === 0 ? `no ${noun} validated` : `${plural(cases, noun)}: ${valid} ${words.ok}, ${invalid} ${words.failed}`;
  if (skipped) line += `; ${skipped} skipped (no operation of the contract)`;
  if (report.truncated) line += `; stopped at ${cases + skipped} records (see --max-cases)`;
  return line;
}

/** A problem in one line: where, the pointer, the rule, the message. */
export function problemLine(issue: CaseIssue): string {
  // A parameter is in no line of the file: its place is the request's URL.
  const where =
    issue.line === undefined || issue.in !== 'body'
      ? ''
      : `line ${issue.line}${issue.column === undefined ? '' : `:${issue.column}`} `;
  const pointer = issue.in === 'body' ? issue.pointer || '(the payload)' : `${issue.in} ${issue.pointer}`;
  return `${where}${pointer} ${issue.rule}: ${issue.message}`;
}
