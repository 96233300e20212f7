// Parsing JSON from users: the value of text that checkJson (scan.ts) accepts, or its message,
// which never quotes the input.

import { type CheckedJson, checkJson } from './scan.js';

export { decodeUtf8, NOT_UTF8 } from './scan.js';

/**
 * The outcome of parsing: the value, or a message that never quotes the input (`tooDeep`: the
 * text is JSON as far as was read, but nested deeper than `maxDepth`, and was not parsed).
 */
export type ParsedJson = { ok: true; value: unknown } | Exclude<CheckedJson, { ok: true }>;

/**
 * Parses the text, or its bytes (checked to be UTF-8). Refuses what JSON.parse would silently
 * accept: invalid UTF-8 and a key repeated in an object. With `maxDepth`, text nested deeper than
 * that many objects and arrays is refused before it is read.
 */
export function parseJson(input: string | Uint8Array, options: { maxDepth?: number | undefined } = {}): ParsedJson {
  const checked = checkJson(input, options);
  return checked.ok ? { ok: true, value: JSON.parse(checked.text) } : checked;
}
