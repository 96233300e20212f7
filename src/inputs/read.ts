// Reading one input within a size limit and a time limit, with a reason instead of an exception: a
// file that cannot be read, is larger than allowed, or sends nothing for too long, is a failed
// case of the run, not the end of it. Regular files and devices are read in place; pipes and FIFOs
// (standard input, `<(cmd)`, `mkfifo`) as streams, each wait for their next bytes bounded.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { Socket } from 'node:net';
import { DEFAULT_WAIT_MS, InputStalled, waitBounded } from './limits.js';

/** The bytes read, or why there are none (an error code or the size limit; never content). */
export type ReadOutcome = { ok: true; bytes: Buffer } | { ok: false; rule: 'readable' | 'maxBytes'; message: string };

const tooLarge = (maxBytes: number): ReadOutcome => ({
  ok: false,
  rule: 'maxBytes',
  message: `The input is larger than ${maxBytes} bytes (see --max-bytes); it was not read.`,
});

const failed = (error: unknown): ReadOutcome => {
  if (error instanceof InputStalled) return { ok: false, rule: 'readable', message: error.message };
  const code = (error as { code?: unknown } | null)?.code;
  return {
    ok: false,
    rule: 'readable',
    message: `The input cannot be read (${typeof code === 'string' ? code.slice(0, 40) : 'read error'}).`,
  };
};

/** An input as it was opened: a regular file or a device to read in place, a pipe to read as a stream, or neither. */
export type OpenedInput =
  | { kind: 'file'; fd: number; size: number }
  | { kind: 'device'; fd: number }
  | { kind: 'pipe'; stream: AsyncIterable<unknown> & { destroy(): void } }
  | { kind: 'directory' }
  | { kind: 'other' };

/**
 * Opens an input without waiting: a FIFO opened for reading in the usual way waits for a writer,
 * and the whole process with it, with no timer able to end the wait; opened non-blocking, it is
 * read as a stream whose waits are bounded (waitBounded). Throws what open throws (ENOENT, ...).
 */
export function openInput(path: string | Buffer): OpenedInput {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  let info: import('node:fs').Stats;
  try {
    info = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (info.isFile()) return { kind: 'file', fd, size: info.size };
  if (info.isFIFO() || info.isSocket()) {
    // A pipe handle of the event loop, as standard input is when it is a pipe: its reads wait
    // without holding the process, and closing it closes the descriptor.
    return { kind: 'pipe', stream: new Socket({ fd, readable: true, writable: false }) };
  }
  closeSync(fd);
  if (info.isDirectory()) return { kind: 'directory' };
  // A device (/dev/zero, /dev/null): read in place, opened again in the usual (blocking) mode.
  if (info.isCharacterDevice()) return { kind: 'device', fd: openSync(path, 'r') };
  return { kind: 'other' };
}

/** The bytes of an open file, refusing more than `maxBytes` (`size`: what fstat said; 0 for a device, read to its end). */
function readOpen(fd: number, size: number, maxBytes: number): ReadOutcome {
  const chunks: Buffer[] = [];
  let length = 0;
  // A regular file: its size and one byte more, so that a file that grew since fstat is read to
  // its end (and refused when it is now too large), not cut; a device: 64 KiB at a time.
  let want = size > 0 ? size + 1 : 64 * 1024;
  for (;;) {
    const buffer = Buffer.allocUnsafe(Math.min(want, maxBytes + 1 - length));
    let filled = 0;
    let n = 1;
    while (n > 0 && filled < buffer.length) {
      n = readSync(fd, buffer, filled, buffer.length - filled, null);
      filled += n;
    }
    chunks.push(buffer.subarray(0, filled));
    length += filled;
    if (length > maxBytes) return tooLarge(maxBytes);
    if (n === 0) break;
    want = 64 * 1024;
  }
  return { ok: true, bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks) };
}

/**
 * A whole input, refusing more than `maxBytes`: a regular file (opened once: its size and its bytes
 * are of the same file), a device, or a pipe or FIFO read as a stream, waiting at most `waitMs` for
 * each of its chunks.
 */
export async function readInputBounded(
  path: string | Buffer,
  maxBytes: number,
  waitMs = DEFAULT_WAIT_MS,
): Promise<ReadOutcome> {
  let opened: OpenedInput;
  try {
    opened = openInput(path);
  } catch (error) {
    return failed(error);
  }
  if (opened.kind === 'directory')
    return { ok: false, rule: 'readable', message: 'The input is a directory, not a file.' };
  if (opened.kind === 'other')
    return { ok: false, rule: 'readable', message: 'The input is not a file, a device or a pipe.' };
  if (opened.kind === 'pipe') return readStreamBounded(opened.stream, maxBytes, waitMs);
  try {
    if (opened.kind === 'file' && opened.size > maxBytes) return tooLarge(maxBytes);
    return readOpen(opened.fd, opened.kind === 'file' ? opened.size : 0, maxBytes);
  } catch (error) {
    return failed(error);
  } finally {
    closeSync(opened.fd);
  }
}

/** A whole stream (standard input, a pipe), refusing more than `maxBytes` (reading stops there), each chunk awaited at most `waitMs`. */
export async function readStreamBounded(
  stream: AsyncIterable<unknown>,
  maxBytes: number,
  waitMs?: number,
): Promise<ReadOutcome> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of waitMs === undefined ? stream : waitBounded(stream, waitMs)) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buffer.length;
      if (size > maxBytes) return tooLarge(maxBytes);
      chunks.push(buffer);
    }
  } catch (error) {
    return failed(error);
  }
  return { ok: true, bytes: Buffer.concat(chunks) };
}

/**
 * The chunks of an input, for a reader of lines: a regular file or a device read in place, one
 * chunk after the other (far faster than through a stream, and a run reads one input at a time
 * anyway); a pipe or a FIFO as a stream, each chunk awaited at most `waitMs`. Throws what opening
 * or reading throws; closed when the reader stops.
 */
export async function* inputChunks(path: string, waitMs = DEFAULT_WAIT_MS, size = 1024 * 1024): AsyncGenerator<Buffer> {
  const opened = openInput(path);
  if (opened.kind === 'pipe') {
    for await (const chunk of waitBounded(opened.stream, waitMs))
      yield typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    return;
  }
  if (opened.kind === 'directory') throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
  if (opened.kind === 'other') throw Object.assign(new Error('not a file'), { code: 'EINVAL' });
  try {
    for (;;) {
      const buffer = Buffer.allocUnsafe(size);
      const n = readSync(opened.fd, buffer, 0, size, null);
      if (n === 0) return;
      yield buffer.subarray(0, n);
    }
  } finally {
    closeSync(opened.fd);
  }
}
