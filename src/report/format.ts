// The report formats by name, for the commands: `text`, `json`, `junit`, `sarif`, `github`. Each
// format's module is loaded the first time a report is written in it (require of an ES module,
// Node 20.19 on): a run writes one format, and a program that never reports loads none.
import { createRequire } from 'node:module';
import type { Report, ReportOptions } from './model.js';

export const REPORT_FORMATS = ['text', 'json', 'junit', 'sarif', 'github'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const isReportFormat = (value: unknown): value is ReportFormat => (REPORT_FORMATS as readonly unknown[]).includes(value);

const require = createRequire(import.meta.url);

/** The report of a run in one format. */
export function formatReport(report: Report, format: ReportFormat, options: ReportOptions): string {
  switch (format) {
    case 'text':
      return (require('./text.js') as typeof import('./text.js')).textReport(report);
    case 'json':
      return (require('./json.js') as typeof import('./json.js')).jsonReport(report, options);
    case 'junit':
      return (require('./junit.js') as typeof import('./junit.js')).junitReport(report, options);
    case 'sarif':
      return (require('./sarif.js') as typeof import('./sarif.js')).sarifReport(report, options);
    case 'github':
      return (require('./github.js') as typeof import('./github.js')).githubReport(report, options);
  }
}
