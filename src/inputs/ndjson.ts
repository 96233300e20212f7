// Payload records from NDJSON: one JSON object per line,
// `{"operationId", "direction", "payload", "query"?, "path"?, "name"?}`. Lines are read one at a
// time from a stream, each within the size limit; a line that cannot be read, is not JSON or is not
// such a record is a record with the reason, and reading goes on. Blank lines are skipped.
import { createRequire } from 'node:module';
import { decodeUtf8, NOT_UTF8, parseJson } from '../json/parse.js';
import type { PayloadRecord } from '../validation/validateMany.js';
import { MAX_DEPTH, unparsed } from './read.js';

// node:fs through require: an ES import of it also loads its streams and promises, which a start
// that never reads a file through them need not pay for.
const { closeSync, openSync, readSync } = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

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

/** The record one line holds. */
export function ndjsonRecord(bytes: Uint8Array, file: string, line: number): PayloadRecord {
  const at = { name: `${file}:${line}`, source: { file, line } };
  const unreadable = (rule: string, message: string): PayloadRecord => ({ ...at, unreadable: { rule, message } });
  const text = decodeUtf8(bytes);
  if (text === null) return unreadable('json', `Line ${line} is not JSON: ${NOT_UTF8}.`);
  const parsed = parseJson(text, { maxDepth: MAX_DEPTH });
  if (!parsed.ok) {
    const why = unparsed({ ...parsed, message: parsed.message.replace(/at line 1, column/, 'at column') }, `Line ${line}`);
    return unreadable(why.rule, why.message);
  }
  const record = parsed.value;
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return unreadable('record', `Line ${line} is not an object: ${FIELDS}.`);
  const r = record as Record<string, unknown>;
  if (typeof r.operationId !== 'string') return unreadable('record', `Line ${line} has no "operationId" string: ${FIELDS}.`);
  if (typeof r.direction !== 'string') return unreadable('record', `Line ${line} has no "direction" string: ${FIELDS}.`);
  if (!Object.hasOwn(r, 'payload')) return unreadable('record', `Line ${line} has no "payload": ${FIELDS}.`);
  const query = parameters(r.query);
  const path = parameters(r.path);
  if (query === null || path === null) return unreadable('record', `Line ${line}: "query" and "path" are objects of strings.`);
  return {
    operationId: r.operationId,
    direction: r.direction,
    payload: r.payload,
    ...(query ? { query } : {}),
    ...(path ? { path } : {}),
    name: typeof r.name === 'string' && r.name !== '' ? r.name : at.name,
    source: { file, line, text, pointer: '/payload' },
  };
}

/**
 * The records of an NDJSON stream, one per non-blank line, read as they arrive. A line longer than
 * `maxLineBytes` is not kept: it is a record with that reason, and reading resumes after it.
 */
export async function* ndjsonRecords(stream: AsyncIterable<unknown> | Iterable<unknown>, options: NdjsonOptions): AsyncGenerator<PayloadRecord> {
  const maxLineBytes = options.maxLineBytes ?? 16 * 1024 * 1024;
  const { file } = options;
  let pending: Buffer[] = [];
  let pendingSize = 0;
  let tooLong = false;
  let line = 0;
  const finish = (last: Buffer): PayloadRecord | null => {
    line++;
    if (tooLong) {
      tooLong = false;
      pending = [];
      pendingSize = 0;
      return {
        name: `${file}:${line}`,
        source: { file, line },
        unreadable: { rule: 'maxBytes', message: `Line ${line} is longer than ${maxLineBytes} bytes (see --max-bytes).` },
      };
    }
    let bytes = pending.length ? Buffer.concat([...pending, last]) : last;
    pending = [];
    pendingSize = 0;
    if (bytes.length && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, -1);
    if (isBlank(bytes)) return null;
    return ndjsonRecord(bytes, file, line);
  };
  const chunks = Symbol.asyncIterator in stream ? stream[Symbol.asyncIterator]() : stream[Symbol.iterator]();
  try {
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = await (chunks.next() as IteratorResult<unknown> | Promise<IteratorResult<unknown>>);
      } catch (error) {
        // A file that cannot be read (or stops being readable) is one failed case; the run goes on.
        const code = (error as { code?: unknown } | null)?.code;
        const why = typeof code === 'string' ? code.slice(0, 40) : 'read error';
        yield { name: file, source: { file, line: line + 1 }, unreadable: { rule: 'readable', message: `The input cannot be read (${why}).` } };
        return;
      }
      if (next.done) break;
      const chunk = next.value;
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      let start = 0;
      for (let nl = buffer.indexOf(0x0a, start); nl !== -1; nl = buffer.indexOf(0x0a, start)) {
        const piece = buffer.subarray(start, nl);
        if (!tooLong && pendingSize + piece.length > maxLineBytes) tooLong = true;
        const record = finish(tooLong ? Buffer.alloc(0) : piece);
        if (record) yield record;
        start = nl + 1;
      }
      const rest = buffer.subarray(start);
      if (tooLong || pendingSize + rest.length > maxLineBytes) {
        tooLong = true;
        pending = [];
        pendingSize = 0;
      } else if (rest.length) {
        // Copied: the stream may reuse its chunk.
        pending.push(Buffer.from(rest));
        pendingSize += rest.length;
      }
    }
  } finally {
    // Stopped early (the run reached its limit) or done: the file is closed either way.
    await chunks.return?.();
  }
  if (pendingSize || tooLong) {
    const record = finish(Buffer.alloc(0));
    if (record) yield record;
  }
}

function isBlank(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  return true;
}

/**
 * The chunks of a file, read synchronously one after the other (a file is read far faster so than
 * through a stream, and a run reads one input at a time anyway). Closed when the reader stops.
 */
export function* fileChunks(path: string, size = 1024 * 1024): Generator<Buffer> {
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const buffer = Buffer.allocUnsafe(size);
      const n = readSync(fd, buffer, 0, size, null);
      if (n === 0) return;
      yield buffer.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

/** The records of an NDJSON file, or of standard input for `-`. */
export function ndjsonFileRecords(file: string, options: { maxLineBytes?: number | undefined; stdin?: AsyncIterable<unknown> | undefined } = {}) {
  const stream = file === '-' ? (options.stdin ?? process.stdin) : fileChunks(file);
  return ndjsonRecords(stream, { file, maxLineBytes: options.maxLineBytes });
}
