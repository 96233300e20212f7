// Payload records from files (and standard input, `-`, and pipes such as `<(cmd)`): one JSON
// envelope per file, all of one operation and direction. Each file is read within the size limit
// (a pipe within a time limit too), checked to be UTF-8 and parsed without echoing it; one that
// cannot be is a record with the reason.
import { decodeUtf8, NOT_UTF8 } from '../json/parse.js';
import { POSITIONED_TEXT_LIMIT } from '../json/position.js';
import type { QueryInput } from '../validation/query.js';
import type { PayloadRecord } from '../validation/validateMany.js';
import { type InputPath, shownPath } from './glob.js';
import { DEFAULT_WAIT_MS, parseBounded } from './limits.js';
import { type ReadOutcome, readInputBounded, readStreamBounded } from './read.js';

export interface FileRecordOptions {
  operationId: string;
  direction: string;
  /** The query parameters of every request, as validate() takes them. */
  query?: QueryInput | undefined;
  /** The path parameters of every request. */
  path?: Record<string, string> | undefined;
  /** Larger files are failed cases (default 16 MiB). */
  maxBytes?: number | undefined;
  /** What `-` reads (default: the process's standard input). */
  stdin?: AsyncIterable<unknown> | undefined;
  /** The longest wait for the next bytes of standard input, a pipe or a FIFO, in milliseconds (default 30 000). */
  waitMs?: number | undefined;
}

/** The name standard input has in reports. */
export const STDIN = '-';

/** The record of one input's bytes: the parsed payload and its text, or why it cannot be read. */
export function payloadRecord(
  base: Omit<PayloadRecord, 'payload' | 'source' | 'unreadable'>,
  file: string,
  read: ReadOutcome,
): PayloadRecord {
  if (!read.ok) return { ...base, source: { file }, unreadable: { rule: read.rule, message: read.message } };
  const text = decodeUtf8(read.bytes);
  if (text === null)
    return { ...base, source: { file }, unreadable: { rule: 'json', message: `The input is not JSON: ${NOT_UTF8}.` } };
  const parsed = parseBounded(text, 'The input');
  if (!parsed.ok) return { ...base, source: { file }, unreadable: { rule: parsed.rule, message: parsed.message } };
  // A long text is not kept beside its value: nothing would read it again (see POSITIONED_TEXT_LIMIT).
  return { ...base, payload: parsed.value, source: text.length <= POSITIONED_TEXT_LIMIT ? { file, text } : { file } };
}

/** One record per file, read one at a time, in the order given (a path of bytes is read by its bytes, shown escaped). */
export async function* fileRecords(
  files: Iterable<InputPath>,
  options: FileRecordOptions,
): AsyncGenerator<PayloadRecord> {
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const base = {
    operationId: options.operationId,
    direction: options.direction,
    ...(options.query ? { query: options.query } : {}),
    ...(options.path ? { path: options.path } : {}),
  };
  /** The record of one file: its bytes are let go once it is parsed, not held while the record is judged. */
  const recordOf = async (file: InputPath): Promise<PayloadRecord> => {
    const read =
      file === STDIN
        ? await readStreamBounded(options.stdin ?? process.stdin, maxBytes, waitMs)
        : await readInputBounded(file, maxBytes, waitMs);
    const shown = shownPath(file);
    return payloadRecord({ ...base, name: file === STDIN ? 'standard input' : shown }, shown, read);
  };
  for (const file of files) yield await recordOf(file);
}
