// Reading one input within a size limit, with a reason instead of an exception: a file that cannot
// be read, or is larger than allowed, is a failed case of the run, not the end of it.
import { createRequire } from 'node:module';

// node:fs through require: an ES import of it also loads its streams and promises, which a start
// that never reads a file through them need not pay for.
const { closeSync, fstatSync, openSync, readSync } = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

/**
 * Objects and arrays nest at most this deep in an input (a file, an NDJSON line, a recorded body):
 * deeper text is refused before it is parsed, since what JSON.parse builds grows with the depth
 * (16 MB of brackets, 8 million levels, took over 1 GB and ended the process). The contract's
 * payloads nest a dozen levels.
 */
export const MAX_DEPTH = 1_000;

/** Why a text that parseJson refused is a failed case: `what` is `The input`, `Line 3`, `The request body`. */
export function unparsed(parsed: { message: string; tooDeep?: true }, what: string): { rule: string; message: string } {
  if (parsed.tooDeep) return { rule: 'maxDepth', message: `${what} is nested deeper than ${MAX_DEPTH} levels of objects and arrays; it was not parsed.` };
  return { rule: 'json', message: `${what} is not JSON: ${parsed.message}.` };
}

/** The bytes read, or why there are none (an error code or the size limit; never content). */
export type ReadOutcome = { ok: true; bytes: Buffer } | { ok: false; rule: 'readable' | 'maxBytes'; message: string };

const tooLarge = (maxBytes: number): ReadOutcome => ({
  ok: false,
  rule: 'maxBytes',
  message: `The input is larger than ${maxBytes} bytes (see --max-bytes); it was not read.`,
});

const failed = (error: unknown): ReadOutcome => {
  const code = (error as { code?: unknown } | null)?.code;
  return { ok: false, rule: 'readable', message: `The input cannot be read (${typeof code === 'string' ? code.slice(0, 40) : 'read error'}).` };
};

/** A whole file, refusing more than `maxBytes` (the file is opened once: its size and its bytes are of the same file). */
export function readFileBounded(path: string, maxBytes: number): ReadOutcome {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const info = fstatSync(fd);
    if (info.isDirectory()) return { ok: false, rule: 'readable', message: 'The input is a directory, not a file.' };
    if (!info.isFile()) return { ok: false, rule: 'readable', message: 'The input is not a regular file.' };
    if (info.size > maxBytes) return tooLarge(maxBytes);
    // One byte more than allowed is asked for: a file that grew since fstat is refused, not cut.
    const buffer = Buffer.allocUnsafe(Math.min(info.size, maxBytes) + 1);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > maxBytes) return tooLarge(maxBytes);
    return { ok: true, bytes: buffer.subarray(0, length) };
  } catch (error) {
    return failed(error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A whole stream (standard input), refusing more than `maxBytes`: reading stops there. */
export async function readStreamBounded(stream: AsyncIterable<unknown>, maxBytes: number): Promise<ReadOutcome> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
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
