// The records of an NDJSON file, a pipe or standard input (Node): their chunks, each waited for
// within a time limit, then ndjsonRecords().
import { DEFAULT_WAIT_MS, waitBounded } from './limits.js';
import { ndjsonRecords } from './ndjson.js';
import { inputChunks } from './read.js';

/**
 * The records of an NDJSON file, or of standard input for `-`: a file or a device is read in place,
 * a pipe or a FIFO (`<(cmd)`) as a stream; standard input, a pipe and a FIFO are waited for at most
 * `waitMs` at a time.
 */
export function ndjsonFileRecords(
  file: string,
  options: {
    maxLineBytes?: number | undefined;
    stdin?: AsyncIterable<unknown> | undefined;
    waitMs?: number | undefined;
  } = {},
) {
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const stream = file === '-' ? waitBounded(options.stdin ?? process.stdin, waitMs) : inputChunks(file, waitMs);
  return ndjsonRecords(stream, { file, maxLineBytes: options.maxLineBytes });
}
