// JSON lines: one object per problem, as `gateway-contract validate` has always printed them,
// with the case's name, operation and direction, and the file and line when they are known.
import { displayPath, fileOf, type Report, type ReportOptions } from './model.js';

export function jsonReport(report: Report, options: Partial<ReportOptions> = {}): string {
  return [...jsonReportLines(report, options)].join('');
}

/** The JSON lines of a report one at a time, each with its newline: a writer keeps none of them (output.ts). */
export function* jsonReportLines(report: Report, options: Partial<ReportOptions> = {}): Generator<string> {
  for (const c of report.cases) {
    if (c.valid) continue;
    const file = fileOf(c);
    for (const issue of c.errors) {
      const { line, column, ...rest } = issue;
      const at =
        file === undefined
          ? {}
          : {
              file: displayPath(file, options.cwd),
              ...(line === undefined ? {} : { line }),
              ...(column === undefined ? {} : { column }),
            };
      yield `${JSON.stringify({ name: c.name, operationId: c.operationId, direction: c.direction, ...rest, ...at })}\n`;
    }
  }
  for (const c of report.coverage ?? []) yield `${JSON.stringify({ coverage: c })}\n`;
  for (const c of report.stateChanges ?? []) yield `${JSON.stringify({ stateChange: c })}\n`;
  for (const note of report.notes ?? []) yield `${JSON.stringify({ note })}\n`;
}
