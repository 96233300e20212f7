// Reading a command's input (standard input) within a size limit.
import { usageError } from './options.js';

/**
 * Reads a whole stream, refusing more than `maxBytes`.
 * @param {NodeJS.ReadableStream} stream @param {number} [maxBytes]
 * @returns {Promise<Buffer>}
 */
export async function readStream(stream, maxBytes = Infinity) {
  const chunks = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : /** @type {Buffer} */ (chunk);
    size += buffer.length;
    if (size > maxBytes) throw usageError(`the input is larger than ${maxBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
