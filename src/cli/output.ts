// Where a command's report goes: the format asked for (text on a terminal, JSON lines otherwise),
// standard output or a file (--output) with the summary on the terminal.
import { writeFileSync } from 'node:fs';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../packageInfo.js';
import { formatReport, isReportFormat, REPORT_FORMATS, type ReportFormat } from '../report/format.js';
import { type Report, summaryLine, verdictWords } from '../report/model.js';
import { textSummary } from '../report/text.js';
import { colourOn, colourVerdicts } from './colour.js';
import { type Io, usageError } from './options.js';
import { didYouMean } from './suggest.js';

/** Readable text for the terminal, its verdicts coloured when standard output takes colour (colour.ts). */
function forTerminal(text: string, report: Report, io: Io): string {
  const on = colourOn({ isTTY: (io.stdout as { isTTY?: boolean }).isTTY, env: process.env });
  return on ? colourVerdicts(text, verdictWords(report)) : text;
}

/** Writes a run's report where the options say: standard output, or a file with the summary on the terminal. */
export function writeReport(report: Report, format: ReportFormat, output: string | undefined, io: Io): void {
  const text = formatReport(report, format, { tool: { name: PACKAGE_NAME, version: PACKAGE_VERSION } });
  if (output !== undefined) {
    try {
      writeFileSync(output, text);
    } catch (error) {
      throw usageError(`cannot write "${output.slice(0, 200)}": ${(error as NodeJS.ErrnoException | null)?.code ?? 'write error'}`);
    }
    io.stdout.write(forTerminal(textSummary(report), report, io));
    return;
  }
  io.stdout.write(format === 'text' ? forTerminal(text, report, io) : text);
  // json, junit and sarif hold no summary line of their own: one on standard error for the person
  // reading the log. text and github end with it already (github's among its workflow commands,
  // which GitHub Actions reads from standard output), so it is printed once.
  if (format !== 'text' && format !== 'github') io.stderr.write(`${summaryLine(report)}\n`);
}

/** The format asked for, or the default: text on a terminal, JSON lines otherwise and in a file. */
export function reportFormat(value: string | undefined, io: Io, output: string | undefined): ReportFormat {
  if (value === undefined) return output === undefined && (io.stdout as { isTTY?: boolean }).isTTY === true ? 'text' : 'json';
  if (!isReportFormat(value)) throw usageError(`--format must be one of ${REPORT_FORMATS.join(', ')}${didYouMean(value, REPORT_FORMATS)}`);
  return value;
}
