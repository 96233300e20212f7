// The bounds of reading an input, and what does not need Node to apply them: how deep its JSON
// may nest and how many values it may hold, how long a stream may stay silent. The readers of
// files (read.ts) and of text or streams already in hand (ndjson.ts, har.ts) share them.
import { stringEnd } from '../json/member.js';
import { parseJson } from '../json/parse.js';

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

/**
 * A JSON text holds at most this many values (objects, arrays, strings, numbers, true, false and
 * null, at any depth): what JSON.parse builds grows with their number, not with the bytes (16 MiB
 * of `{},` is 5.6 million objects, over 700 MB). The contract's payloads hold a few hundred; a HAR
 * file of 16 MiB some hundred thousand. (docs/decisions.md, D-115)
 */
export const MAX_VALUES = 1_000_000;

/** An object holds at most this many members: a large object costs far more per member than an array per item. */
export const MAX_MEMBERS = 10_000;

/** A whole number as the messages and the help write it, its thousands apart: `1 000 000`. */
export const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ' ');

/** A bound of the JSON text that was passed, or null: the text was not parsed past it. */
export type JsonBound = 'maxDepth' | 'maxValues' | 'maxMembers' | null;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
/** A character of a number or of true, false, null (outside strings). */
const isScalarChar = (c: number) =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45;

/**
 * Which bound of MAX_DEPTH, MAX_VALUES and MAX_MEMBERS the text passes first, or null: one pass,
 * left to right, that builds nothing (the values directly inside each open object are counted in
 * one small array per call). It counts tokens, not grammar: text that is not JSON is told so by
 * the parse that follows.
 */
export function jsonBoundPassed(
  text: string,
  limits = { depth: MAX_DEPTH, values: MAX_VALUES, members: MAX_MEMBERS },
): JsonBound {
  // Each level, value and member counted takes a character of its own: a text no longer than the
  // smallest limit passes none (most payloads and NDJSON lines), and is not read here (for
  // bench/batch.mjs's JUnit target; test/inputs/bounds.test.ts holds it to the whole count).
  if (text.length <= Math.min(limits.depth, limits.values, limits.members)) return null;
  /** Per open object (by depth): its members so far; -1 for an open array. */
  const members = new Int32Array(limits.depth + 2);
  let depth = 0;
  let values = 0;
  /** Counts one value at the current depth: the bound it passes, or null. */
  const value = (): JsonBound => {
    if (++values > limits.values) return 'maxValues';
    if (depth > 0 && members[depth] !== -1 && ++(members[depth] as number) > limits.members) return 'maxMembers';
    return null;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let passed: JsonBound = null;
    if (c === 0x22) {
      i = stringEnd(text, i) - 1;
      let next = i + 1;
      while (isSpace(text.charCodeAt(next))) next++;
      // A key is not a value: its member's value is counted.
      if (text.charCodeAt(next) !== 0x3a) passed = value();
    } else if (c === 0x7b || c === 0x5b) {
      passed = value();
      if (++depth > limits.depth) return 'maxDepth';
      members[depth] = c === 0x7b ? 0 : -1;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth > 0) depth--;
    } else if (isScalarChar(c)) {
      passed = value();
      while (isScalarChar(text.charCodeAt(i + 1))) i++;
    }
    if (passed) return passed;
  }
  return null;
}

/** Why a text that passed a bound is a failed case: `what` is `The input`, `Line 3`, `The request body`. */
function beyond(bound: Exclude<JsonBound, null>, what: string): { rule: string; message: string } {
  if (bound === 'maxValues')
    return {
      rule: bound,
      message: `${what} holds more than ${grouped(MAX_VALUES)} JSON values (objects, arrays, strings, numbers, literals); it was not parsed.`,
    };
  if (bound === 'maxMembers')
    return {
      rule: bound,
      message: `${what} has an object of more than ${grouped(MAX_MEMBERS)} members; it was not parsed.`,
    };
  return {
    rule: bound,
    message: `${what} is nested deeper than ${MAX_DEPTH} levels of objects and arrays; it was not parsed.`,
  };
}

/** Why a text that parseJson refused is a failed case: `what` is `The input`, `Line 3`, `The request body`. */
function unparsed(parsed: { message: string; tooDeep?: true }, what: string): { rule: string; message: string } {
  if (parsed.tooDeep) return beyond('maxDepth', what);
  return { rule: 'json', message: `${what} is not JSON: ${parsed.message}.` };
}

/** A JSON text read within the bounds: its value, or why it is a failed case (`what` names it, as in unparsed). */
export type BoundedJson = { ok: true; value: unknown } | { ok: false; rule: string; message: string; bound: boolean };

/**
 * Parses a JSON text of an input (a file, an NDJSON line, a HAR file or a recorded body) within
 * MAX_DEPTH, MAX_VALUES and MAX_MEMBERS: the bounds are read first, and the text is parsed only
 * within them, so that what is built stays in proportion to what a payload can be, whatever the
 * bytes. `bound`: the text passed a bound (it may still not be JSON).
 */
export function parseBounded(text: string, what: string): BoundedJson {
  const bound = jsonBoundPassed(text);
  if (bound) return { ok: false, ...beyond(bound, what), bound: true };
  const parsed = parseJson(text, { maxDepth: MAX_DEPTH });
  if (parsed.ok) return parsed;
  return { ok: false, ...unparsed(parsed, what), bound: parsed.tooDeep === true };
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
