// The report formats by name, for the commands: `text`, `json`, `junit`, `sarif`, `github`.
import { githubReport } from './github.js';
import { jsonReport, jsonReportLines } from './json.js';
import { junitReport, junitReportLines } from './junit.js';
import type { Report, ReportOptions } from './model.js';
import { sarifReport, sarifReportChunks } from './sarif.js';
import { textReport } from './text.js';

export const REPORT_FORMATS = ['text', 'json', 'junit', 'sarif', 'github'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const isReportFormat = (value: unknown): value is ReportFormat =>
  (REPORT_FORMATS as readonly unknown[]).includes(value);

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

/**
 * The same report as pieces to write one after the other (their concatenation is formatReport's
 * text): the formats that list every problem (json, junit, sarif) give a problem at a time, so that a run of
 * 100 000 payloads is written without its report ever standing whole in memory; the others are
 * bounded and come whole.
 */
export function formatReportChunks(report: Report, format: ReportFormat, options: ReportOptions): Iterable<string> {
  if (format === 'json') return jsonReportLines(report, options);
  if (format === 'junit') return junitReportLines(report, options);
  if (format === 'sarif') return sarifReportChunks(report, options);
  return [formatReport(report, format, options)];
}
