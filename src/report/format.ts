// The report formats by name, for the commands: `text`, `json`, `junit`, `sarif`, `github`.
import { githubReport } from './github.js';
import { jsonReport } from './json.js';
import { junitReport } from './junit.js';
import type { Report, ReportOptions } from './model.js';
import { sarifReport } from './sarif.js';
import { textReport } from './text.js';

export const REPORT_FORMATS = ['text', 'json', 'junit', 'sarif', 'github'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const isReportFormat = (value: unknown): value is ReportFormat => (REPORT_FORMATS as readonly unknown[]).includes(value);

/** The report of a run in one format. */
export function formatReport(report: Report, format: ReportFormat, options: ReportOptions): string {
  switch (format) {
    case 'text':
      return textReport(report);
    case 'json':
      return jsonReport(report, options);
    case 'junit':
      return junitReport(report, options);
    case 'sarif':
      return sarifReport(report, options);
    case 'github':
      return githubReport(report, options);
  }
}
