// The readable report: each invalid case with its problems, the skipped records, a count per
// operation and direction, and the summary line. Bounded: the first 100 invalid cases are
// detailed, 20 problems each; the rest are counted.
import {
  coverageLines,
  groups,
  problemLine,
  type Report,
  stateChangeLines,
  summaryLine,
  verdictWords,
} from './model.js';

const CASES_SHOWN = 100;
const PROBLEMS_SHOWN = 20;
const SKIPPED_SHOWN = 50;

/** The summary alone: the count per group and the summary line (what a terminal gets when the report goes to a file). */
export function textSummary(report: Report): string {
  const lines: string[] = [];
  const all = groups(report.cases);
  if (all.size > 1 || report.counts.skipped) {
    const width = Math.max(...[...all.keys()].map((k) => k.length), 0);
    const words = verdictWords(report);
    for (const [group, cases] of all) {
      const invalid = cases.filter((c) => !c.valid).length;
      lines.push(`  ${group.padEnd(width)}  ${cases.length - invalid} ${words.ok}, ${invalid} ${words.failed}`);
    }
  }
  lines.push(summaryLine(report));
  return `${lines.join('\n')}\n`;
}

/** The whole readable report. */
export function textReport(report: Report): string {
  const lines: string[] = [];
  const words = verdictWords(report);
  const width = Math.max(words.ok.length, words.failed.length, 'skipped'.length);
  const listed = report.listAll ? report.cases : report.cases.filter((c) => !c.valid);
  const invalid = listed.filter((c) => !c.valid);
  for (const c of listed.slice(0, CASES_SHOWN)) {
    if (c.valid) {
      lines.push(`${words.ok.padEnd(width)}  ${c.name}`);
      continue;
    }
    const code = c.resultCode ? `; the service would answer ${c.resultCode.code}` : '';
    const where =
      c.file !== undefined && c.file !== c.name && c.file !== '-'
        ? ` [${c.file}${c.line === undefined ? '' : `:${c.line}`}]`
        : '';
    lines.push(
      `${words.failed.padEnd(width)}  ${c.name}${where} (${c.operationId} ${c.direction}): ${c.errorCount} problem(s)${code}`,
    );
    for (const issue of c.errors.slice(0, PROBLEMS_SHOWN)) lines.push(`  ${problemLine(issue)}`);
    const listed = Math.min(c.errors.length, PROBLEMS_SHOWN);
    if (c.errorCount > listed) lines.push(`  ... ${c.errorCount - listed} more problem(s): see --format json`);
  }
  if (listed.length > CASES_SHOWN)
    lines.push(
      `... ${listed.length - CASES_SHOWN} more case(s), ${invalid.length} ${words.failed} in all: see --format json`,
    );
  for (const s of report.skipped.slice(0, SKIPPED_SHOWN))
    lines.push(`${'skipped'.padEnd(width)}  ${s.name}: ${s.reason}`);
  if (report.skipped.length > SKIPPED_SHOWN) lines.push(`... ${report.skipped.length - SKIPPED_SHOWN} more skipped`);
  if (report.coverage?.length) lines.push('coverage:', ...coverageLines(report.coverage).map((l) => `  ${l}`));
  if (report.stateChanges?.length)
    lines.push('state changes:', ...stateChangeLines(report.stateChanges).map((l) => `  ${l}`));
  for (const note of report.notes ?? []) lines.push(`note: ${note}`);
  if (lines.length) lines.push('');
  return `${lines.join('\n')}${lines.length ? '\n' : ''}${textSummary(report)}`;
}
