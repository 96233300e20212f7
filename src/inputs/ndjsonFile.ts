// The records of an NDJSON file on disk or of standard input (Node): its chunks, then ndjsonRecords().
import { closeSync, openSync, readSync } from 'node:fs';
import { ndjsonRecords } from './ndjson.js';

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
