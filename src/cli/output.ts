// Where a command's report goes: the format asked for (text on a terminal, JSON lines otherwise),
// standard output or a file (--output) with the summary on the terminal.
import { readFileSync, writeFileSync } from 'node:fs';
import { formatReport, isReportFormat, REPORT_FORMATS, type ReportFormat } from '../report/format.js';
import { type Report, summaryLine } from '../report/model.js';
import { textSummary } from '../report/text.js';
import { type Io, usageError } from './options.js';

/** The package's name and version, for SARIF. */
function tool(): { name: string; version: string } {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name?: unknown; version?: unknown };
    return { name: String(manifest.name ?? 'gateway-contract'), version: String(manifest.version ?? '0.0.0') };
  } catch {
    return { name: 'gateway-contract', version: '0.0.0' };
  }
}

/** Writes a run's report where the options say: standard output, or a file with the summary on the terminal. */
export function writeReport(report: Report, format: ReportFormat, output: string | undefined, io: Io): void {
  const text = formatReport(report, format, { tool: tool() });
  if (output !== undefined) {
    try {
      writeFileSync(output, text);
    } catch (error) {
      throw usageError(`cannot write "${output.slice(0, 200)}": ${(error as NodeJS.ErrnoException | null)?.code ?? 'write error'}`);
    }
    io.stdout.write(textSummary(report));
    return;
  }
  io.stdout.write(text);
  // The machine formats hold no summary of their own: one line for the person reading the log.
  if (format !== 'text') io.stderr.write(`${summaryLine(report)}\n`);
}

/** The format asked for, or the default: text on a terminal, JSON lines otherwise and in a file. */
export function reportFormat(value: string | undefined, io: Io, output: string | undefined): ReportFormat {
  if (value === undefined) return output === undefined && (io.stdout as { isTTY?: boolean }).isTTY === true ? 'text' : 'json';
  if (!isReportFormat(value)) throw usageError(`--format must be one of ${REPORT_FORMATS.join(', ')}`);
  return value;
}
