// The bounds of reading an input, and what does not need Node to apply them: how deep its JSON
// may nest, how long a stream may stay silent. The readers of files (read.ts) and of text or
// streams already in hand (ndjson.ts, har.ts) share them.

/** The longest wait, in milliseconds, for the next bytes of a pipe, a FIFO or standard input (see --timeout-ms). */
export const DEFAULT_WAIT_MS = 30_000;

/** An input that sent nothing for `waitMs`: reading it stops there. */
export class InputStalled extends Error {
  override name = 'InputStalled';
  readonly code = 'ETIMEDOUT';
  constructor(readonly waitMs: number) {
    super(`The input sent nothing for ${waitMs} ms (see --timeout-ms).`);
  }
}

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

/**
 * The chunks of a stream, each awaited at most `waitMs`: a stream that sends nothing for that long
 * is destroyed and the generator throws InputStalled. (The stream's own iterator cannot be ended
 * while it waits: it is ended by destroying the stream.)
 */
export async function* waitBounded(stream: AsyncIterable<unknown>, waitMs: number): AsyncGenerator<unknown> {
  const chunks = stream[Symbol.asyncIterator]();
  let stalled = false;
  try {
    for (;;) {
      const next = chunks.next();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<null>((resolve) => {
        timer = setTimeout(resolve, waitMs, null);
      });
      let got: IteratorResult<unknown> | null;
      try {
        got = await Promise.race([next, timeout]);
      } finally {
        clearTimeout(timer);
      }
      if (got === null) {
        stalled = true;
        // The pending read settles when the stream is destroyed, below: what it says is not needed.
        next.catch(() => {});
        throw new InputStalled(waitMs);
      }
      if (got.done) return;
      yield got.value;
    }
  } finally {
    const destroy = (stream as { destroy?: unknown }).destroy;
    if (stalled && typeof destroy === 'function') destroy.call(stream);
    await chunks.return?.();
  }
}
