// GitHub Actions workflow commands: one `::error` annotation per problem, on the file and line of
// the field where they are known, then the summary line. At most 1 000 annotations.
import {
  coverageLines,
  displayPath,
  fileOf,
  type Report,
  type ReportOptions,
  stateChangeLines,
  summaryLine,
} from './model.js';

const MAX_ANNOTATIONS = 1_000;

/** A workflow command's message: `%`, CR and LF escaped. */
const data = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A workflow command's property value: also `:` and `,`. */
const property = (text: string) => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

export function githubReport(report: Report, options: Partial<ReportOptions> = {}): string {
  const lines: string[] = [];
  let total = 0;
  for (const c of report.cases) {
    if (c.valid) continue;
    const file = fileOf(c);
    for (const issue of c.errors) {
      if (++total > MAX_ANNOTATIONS) continue;
      const props = [
        ...(file === undefined ? [] : [`file=${property(displayPath(file, options.cwd))}`]),
        ...(file !== undefined && issue.line !== undefined ? [`line=${issue.line}`] : []),
        ...(file !== undefined && issue.column !== undefined ? [`col=${issue.column}`] : []),
        `title=${property(`${c.operationId} ${c.direction}: ${issue.rule}`)}`,
      ];
      const pointer = issue.in === 'body' ? issue.pointer || '(the payload)' : `${issue.in} ${issue.pointer}`;
      lines.push(`::error ${props.join(',')}::${data(`${c.name}: ${pointer}: ${issue.message}`)}`);
    }
  }
  if (total > MAX_ANNOTATIONS)
    lines.push(`::warning::${data(`${total - MAX_ANNOTATIONS} more problem(s) not annotated: see --format json`)}`);
  for (const line of coverageLines(report.coverage ?? [])) lines.push(`::notice title=coverage::${data(line)}`);
  for (const line of stateChangeLines(report.stateChanges ?? []))
    lines.push(`::notice title=state change::${data(line)}`);
  for (const note of report.notes ?? []) lines.push(`::notice title=note::${data(note)}`);
  lines.push(summaryLine(report));
  return `${lines.join('\n')}\n`;
}
