// Reading a body within a size limit: a request on node:http, shared by the servers of the package
// (the webhook receiver's adapter, the sandbox), and a Fetch API body (the Fetch adapter, the answers
// the client and the webhook sender read). On node:http, events rather than async iteration: leaving a
// `for await` loop early destroys the socket before an answer can be written. The node:http reader
// runs only under Node, where Buffer is a global; the Fetch reader uses Web APIs alone.
import { concatBytes } from '../encoding/bytes.js';
import type { NodeRequest } from './nodeTypes.js';

/** Why a body was not read: larger than the limit, or the client went away. */
export type BodyProblem = 'too-large' | 'aborted';

/** Reads the whole request body, or reports that it is larger than `maxBytes` (without keeping it). */
export function readBody(
  req: NodeRequest,
  maxBytes: number,
  done: (body: Buffer | null, problem?: BodyProblem) => void,
): void {
  const declared = Number(req.headers['content-length']);
  if (declared > maxBytes) {
    req.resume();
    done(null, 'too-large');
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (body: Buffer | null, problem?: BodyProblem) => {
    if (finished) return;
    finished = true;
    if (problem === undefined) done(body);
    else done(body, problem);
  };
  req.on('data', (chunk: Uint8Array) => {
    if (finished) return;
    size += chunk.length;
    if (size > maxBytes) {
      chunks.length = 0;
      finish(null, 'too-large');
      return;
    }
    // node:http's chunks are Buffers already; this is a view of the same bytes, not a copy.
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  });
  req.on('end', () => finish(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
  req.on('error', () => finish(null, 'aborted'));
  // A client that goes away before the end of its body.
  req.on('close', () => finish(null, 'aborted'));
}

/**
 * Reads a Fetch API body (a request's or a response's) within a size limit: its bytes, or null as
 * soon as it passes `maxBytes` (reading stops there and the rest is cancelled). When `signal`
 * aborts, the body is cancelled and what was read so far is returned (the caller has given up on
 * it): a stream whose source lost the abort still stops.
 */
export async function readWebBody(
  body: ReadableStream<Uint8Array> | null | undefined,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const onAbort = () => void reader.cancel().catch(() => undefined);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return null;
      }
      chunks.push(value);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : concatBytes(chunks);
}
