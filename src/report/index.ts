// `gateway-contract/reports`: the report of a run of many payloads in one of five formats.
export type { ReportFormat } from './format.js';
export { formatReport, REPORT_FORMATS } from './format.js';
export type { Report, ReportOptions } from './model.js';
