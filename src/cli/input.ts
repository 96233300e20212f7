// Reading a command's input (standard input) within a size limit.
import { usageError } from './options.js';

/** Reads a whole stream, refusing more than `maxBytes`. */
export async function readStream(stream: NodeJS.ReadableStream, maxBytes = Number.POSITIVE_INFINITY): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > maxBytes) throw usageError(`the input is larger than ${maxBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
