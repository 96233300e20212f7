// Payload records from NDJSON: one JSON object per line,
// `{"operationId", "direction", "payload", "query"?, "path"?, "name"?}`. Lines are read one at a
// time from a stream, each within the size limit; a line that is not JSON or is not such a record
// is a record with the reason, and reading goes on. Blank lines are skipped. What is read is
// bounded: a line longer than the limit, or more blank lines in a row than the limit holds, ends
// the reading of the input (their end could be any number of bytes away: `/dev/zero` is one line
// that never ends).
import { concatBytes, utf8Bytes } from '../encoding/bytes.js';
import { decodeUtf8, NOT_UTF8 } from '../json/parse.js';
import { POSITIONED_TEXT_LIMIT } from '../json/position.js';
import type { PayloadRecord } from '../validation/validateMany.js';
import { InputStalled, parseBounded } from './limits.js';

export interface NdjsonOptions {
  /** The name of the input in reports (a file name, or `-` for standard input). */
  file: string;
  /** Longer lines are failed cases (default 16 MiB). */
  maxLineBytes?: number | undefined;
}

const FIELDS = 'a record is {"operationId", "direction", "payload", "query"?, "path"?, "name"?}';

/** Parameters as a record holds them: an object of strings, or null when they are not one. */
function parameters(value: unknown): Record<string, string> | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') return null;
    out[k] = v;
  }
  return out;
}

/** A record's query: strings, or arrays of strings for names given more than once (validate() reads them, D-109). */
function queryParameters(value: unknown): Record<string, string | string[]> | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string') out[k] = v;
    else if (Array.isArray(v) && v.every((item) => typeof item === 'string')) out[k] = v;
    else return null;
  }
  return out;
}

/** The record one line holds. */
export function ndjsonRecord(bytes: Uint8Array, file: string, line: number): PayloadRecord {
  const at = { name: `${file}:${line}`, source: { file, line } };
  const unreadable = (rule: string, message: string): PayloadRecord => ({ ...at, unreadable: { rule, message } });
  const text = decodeUtf8(bytes);
  if (text === null) return unreadable('json', `Line ${line} is not JSON: ${NOT_UTF8}.`);
  const parsed = parseBounded(text, `Line ${line}`);
  if (!parsed.ok) return unreadable(parsed.rule, parsed.message.replace(/at line 1, column/, 'at column'));
  const record = parsed.value;
  if (record === null || typeof record !== 'object' || Array.isArray(record))
    return unreadable('record', `Line ${line} is not an object: ${FIELDS}.`);
  const r = record as Record<string, unknown>;
  if (typeof r.operationId !== 'string')
    return unreadable('record', `Line ${line} has no "operationId" string: ${FIELDS}.`);
  if (typeof r.direction !== 'string')
    return unreadable('record', `Line ${line} has no "direction" string: ${FIELDS}.`);
  if (!Object.hasOwn(r, 'payload')) return unreadable('record', `Line ${line} has no "payload": ${FIELDS}.`);
  const query = queryParameters(r.query);
  const path = parameters(r.path);
  if (query === null || path === null)
    return unreadable(
      'record',
      `Line ${line}: "query" and "path" are objects of strings ("query" may hold an array of strings for a name given more than once).`,
    );
  return {
    operationId: r.operationId,
    direction: r.direction,
    payload: r.payload,
    ...(query ? { query } : {}),
    ...(path ? { path } : {}),
    name: typeof r.name === 'string' && r.name !== '' ? r.name : at.name,
    // A long line is not kept beside its value: nothing would read it again (see POSITIONED_TEXT_LIMIT).
    source: text.length <= POSITIONED_TEXT_LIMIT ? { file, line, text, pointer: '/payload' } : { file, line },
  };
}

/**
 * The records of an NDJSON stream, one per non-blank line, read as they arrive. A line longer than
 * `maxLineBytes`, or blank lines in a row holding more bytes than that, are a record with that
 * reason, and the last: the stream is not read further.
 */
export async function* ndjsonRecords(
  stream: AsyncIterable<unknown> | Iterable<unknown>,
  options: NdjsonOptions,
): AsyncGenerator<PayloadRecord> {
  const maxLineBytes = options.maxLineBytes ?? 16 * 1024 * 1024;
  const { file } = options;
  /** The start of the line being read, kept across chunks. */
  let pending: Uint8Array[] = [];
  let pendingSize = 0;
  /** Lines ended so far. */
  let line = 0;
  /** The current run of blank lines: its first line (0: none) and its bytes, newlines included. */
  let blankFrom = 0;
  let blankBytes = 0;
  const tooLong = (n: number): PayloadRecord => ({
    name: `${file}:${n}`,
    source: { file, line: n },
    unreadable: {
      rule: 'maxBytes',
      message: `Line ${n} is longer than ${maxLineBytes} bytes (see --max-bytes); the input was not read past it.`,
    },
  });
  const tooBlank = (): PayloadRecord => ({
    name: `${file}:${blankFrom}`,
    source: { file, line: blankFrom },
    unreadable: {
      rule: 'maxBytes',
      message: `Lines ${blankFrom} to ${line} hold no record: more than ${maxLineBytes} bytes of blank lines (see --max-bytes); the input was not read past them.`,
    },
  });
  /** A blank line of `size` bytes (its newline included) ended: whether the run is now too long. */
  const blank = (size: number): boolean => {
    if (blankFrom === 0) blankFrom = line;
    blankBytes += size;
    return blankBytes > maxLineBytes;
  };
  /** The line that ended with `last` (and what is pending): its record, or null for a blank line. */
  const finish = (last: Uint8Array): PayloadRecord | null => {
    let bytes: Uint8Array = pending.length ? concatBytes([...pending, last]) : last;
    pending = [];
    pendingSize = 0;
    if (isBlank(bytes)) return null;
    blankFrom = 0;
    blankBytes = 0;
    if (bytes.length && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, -1);
    return ndjsonRecord(bytes, file, line);
  };
  const chunks = Symbol.asyncIterator in stream ? stream[Symbol.asyncIterator]() : stream[Symbol.iterator]();
  try {
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = await (chunks.next() as IteratorResult<unknown> | Promise<IteratorResult<unknown>>);
      } catch (error) {
        // A file that cannot be read (or stops being readable, or sends nothing for too long) is
        // one failed case; the run goes on.
        const code = (error as { code?: unknown } | null)?.code;
        const message =
          error instanceof InputStalled
            ? error.message
            : `The input cannot be read (${typeof code === 'string' ? code.slice(0, 40) : 'read error'}).`;
        yield { name: file, source: { file, line: line + 1 }, unreadable: { rule: 'readable', message } };
        return;
      }
      if (next.done) break;
      const chunk = next.value;
      const buffer = typeof chunk === 'string' ? utf8Bytes(chunk) : (chunk as Uint8Array);
      let start = 0;
      for (let nl = buffer.indexOf(0x0a, start); nl !== -1; nl = buffer.indexOf(0x0a, start)) {
        line++;
        if (pendingSize + nl - start > maxLineBytes) {
          yield tooLong(line);
          return;
        }
        if (nl === start && pendingSize === 0) {
          // An empty line: nothing to look at (a file of newlines costs one comparison a line).
          if (blank(1)) {
            yield tooBlank();
            return;
          }
        } else {
          const size = pendingSize + nl - start + 1;
          const record = finish(buffer.subarray(start, nl));
          if (record) yield record;
          else if (blank(size)) {
            yield tooBlank();
            return;
          }
        }
        start = nl + 1;
      }
      const rest = buffer.subarray(start);
      if (pendingSize + rest.length > maxLineBytes) {
        yield tooLong(line + 1);
        return;
      }
      if (rest.length) {
        // Copied: the stream may reuse its chunk.
        pending.push(rest.slice());
        pendingSize += rest.length;
      }
    }
  } finally {
    // Stopped early (the run reached its limit, or a line its own) or done: the file is closed either way.
    await chunks.return?.();
  }
  if (pendingSize) {
    line++;
    const record = finish(new Uint8Array(0));
    if (record) yield record;
  }
}

function isBlank(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  return true;
}
