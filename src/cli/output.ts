// Where a command's report goes: the format asked for (text on a terminal, JSON lines otherwise),
// standard output or a file (--output) with the summary on the terminal.
import { closeSync, openSync, writeSync } from 'node:fs';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../packageInfo.js';
import {
  formatReport,
  formatReportChunks,
  isReportFormat,
  REPORT_FORMATS,
  type ReportFormat,
} from '../report/format.js';
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
export async function writeReport(
  report: Report,
  format: ReportFormat,
  output: string | undefined,
  io: Io,
): Promise<void> {
  const options = { tool: { name: PACKAGE_NAME, version: PACKAGE_VERSION } };
  if (output !== undefined) {
    writeFile(output, formatReportChunks(report, format, options));
    io.stdout.write(forTerminal(textSummary(report), report, io));
    return;
  }
  if (format === 'text') io.stdout.write(forTerminal(formatReport(report, format, options), report, io));
  else await writeToStream(formatReportChunks(report, format, options), io.stdout);
  // json, junit and sarif hold no summary line of their own: one on standard error for the person
  // reading the log. text and github end with it already (github's among its workflow commands,
  // which GitHub Actions reads from standard output), so it is printed once.
  if (format !== 'text' && format !== 'github') io.stderr.write(`${summaryLine(report)}\n`);
}

/** Pieces joined in batches of about 64 KiB: a long report is never held whole (formatReportChunks). */
function* batches(chunks: Iterable<string>): Generator<string> {
  let batch: string[] = [];
  let size = 0;
  for (const chunk of chunks) {
    batch.push(chunk);
    size += chunk.length;
    if (size >= 65_536) {
      yield batch.join('');
      batch = [];
      size = 0;
    }
  }
  if (batch.length) yield batch.join('');
}

/** Batches written to a stream, each after the one before has drained (a pipe read slowly would otherwise queue the whole report). */
async function writeToStream(chunks: Iterable<string>, stream: NodeJS.WritableStream): Promise<void> {
  for (const text of batches(chunks))
    if (!stream.write(text)) await new Promise((resolve) => stream.once('drain', resolve));
}

/** A report written to a file piece by piece; a file that cannot be written is the user's to fix: one line. */
function writeFile(path: string, chunks: Iterable<string>): void {
  let fd: number | undefined;
  try {
    const file = openSync(path, 'w');
    fd = file;
    for (const text of batches(chunks)) writeSync(file, text);
  } catch (error) {
    throw usageError(
      `cannot write "${path.slice(0, 200)}": ${(error as NodeJS.ErrnoException | null)?.code ?? 'write error'}`,
    );
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The format asked for, or the default: text on a terminal, JSON lines otherwise and in a file. */
export function reportFormat(value: string | undefined, io: Io, output: string | undefined): ReportFormat {
  if (value === undefined)
    return output === undefined && (io.stdout as { isTTY?: boolean }).isTTY === true ? 'text' : 'json';
  if (!isReportFormat(value))
    throw usageError(`--format must be one of ${REPORT_FORMATS.join(', ')}${didYouMean(value, REPORT_FORMATS)}`);
  return value;
}
