// Parsing JSON from users without ever echoing it (Node's own JSON.parse messages quote the
// input, which could be a card number), and refusing what JSON.parse would silently accept:
// invalid UTF-8 and duplicate keys.

import { pointerSegment } from './pointer.js';

/**
 * The outcome of parsing: the value, or a message that never quotes the input (`tooDeep`: the
 * text is JSON as far as was read, but nested deeper than `maxDepth`, and was not parsed).
 */
export type ParsedJson = { ok: true; value: unknown } | { ok: false; message: string; tooDeep?: true };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of UTF-8 bytes, or null when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** What parseJson says of bytes that are not UTF-8. */
export const NOT_UTF8 = 'the input is not valid UTF-8 text';

/**
 * Parses the text, or its bytes (checked to be UTF-8). With `maxDepth`, text nested deeper than
 * that many objects and arrays is refused before it is parsed (a linear scan, nothing built).
 */
export function parseJson(input: string | Uint8Array, { maxDepth }: { maxDepth?: number | undefined } = {}): ParsedJson {
  const decoded = typeof input === 'string' ? input : decodeUtf8(input);
  if (decoded === null) return { ok: false, message: NOT_UTF8 };
  let text = decoded;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (blank(text)) return { ok: false, message: 'the input is empty' };
  // Before JSON.parse: what it builds grows with the depth (16 MB of brackets took over 1 GB).
  if (maxDepth !== undefined && depthExceeds(text, maxDepth))
    return { ok: false, message: `the input is nested deeper than ${maxDepth} levels`, tooDeep: true };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
    if (position !== undefined) {
      const before = text.slice(0, Number(position));
      const line = before.split('\n').length;
      const column = Number(position) - before.lastIndexOf('\n');
      return { ok: false, message: `malformed JSON at line ${line}, column ${column}` };
    }
    return { ok: false, message: 'malformed JSON (it ends too early or holds an invalid character)' };
  }
  const duplicate = duplicateKey(text);
  if (duplicate) return { ok: false, message: `duplicate key at ${duplicate}: a key may appear only once in an object` };
  return { ok: true, value };
}

/** Whether the text holds nothing but white space (without copying it, as trim() would). */
function blank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return /^\s*$/.test(text.slice(i));
  }
  return true;
}

/** The index of the quote that closes the string opening at `i` (the text is valid JSON). */
function closingQuote(text: string, i: number): number {
  let j = text.indexOf('"', i + 1);
  // A quote after an odd number of backslashes is escaped: the string goes on.
  for (;;) {
    let k = j;
    while (text.charCodeAt(k - 1) === 0x5c) k--;
    if ((j - k) % 2 === 0 || j === -1) return j;
    j = text.indexOf('"', j + 1);
  }
}

/** Objects with more keys than this are checked with a Set; smaller ones by comparing (no allocation). */
const FEW_KEYS = 32;

// The state of duplicateKey, kept between calls (it runs to its end before it returns, and never
// calls itself): it is read for every payload, and lists that grow once cost nothing after.
/** Per key of the open objects: where its text starts and ends, and its decoded text when it holds escapes. */
const keyStart: number[] = [];
const keyEnd: number[] = [];
const keyText: (string | undefined)[] = [];
/** Per open value, by depth: an object (or array), where its keys start, its item count, the key it stands under, its Set when large. */
const isObject: boolean[] = [];
const firstKey: number[] = [];
const itemIndex: number[] = [];
const parentKey: number[] = [];
const large: (Set<string> | undefined)[] = [];

/** Whether the text between `from` and `to` holds a backslash. */
function escapesIn(text: string, from: number, to: number): boolean {
  for (let n = from; n < to; n++) if (text.charCodeAt(n) === 0x5c) return true;
  return false;
}

/** The text of key `k` (decoded when it holds escapes). */
function keyOf(text: string, k: number): string {
  return keyText[k] ?? text.slice(keyStart[k], keyEnd[k]);
}

/** Whether keys `a` and `b` are the same text, without copying keys free of escapes. */
function sameKey(text: string, a: number, b: number): boolean {
  if (keyText[a] !== undefined || keyText[b] !== undefined) return keyOf(text, a) === keyOf(text, b);
  const start = keyStart[a] as number;
  const length = (keyEnd[a] as number) - start;
  const other = keyStart[b] as number;
  if ((keyEnd[b] as number) - other !== length) return false;
  for (let n = 0; n < length; n++) if (text.charCodeAt(start + n) !== text.charCodeAt(other + n)) return false;
  return true;
}

/**
 * The JSON Pointer of the first key that appears twice in one object, or null. Linear, with an
 * explicit stack (no recursion), for text that JSON.parse has already accepted. Strings are
 * skipped with indexOf, so the loop visits the structure, not every character. The keys of the
 * objects being read sit in one list, each object's after its parent's, as places in the text: a
 * small object's keys are compared with each other where they stand, a large one's kept in a Set,
 * so that a payload of small objects costs no allocation and an object of 200 000 keys stays linear.
 */
export function duplicateKey(text: string): string | null {
  let keys = 0;
  let depth = -1;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: a key when an object expects one
      const j = closingQuote(text, i);
      if (j === -1) return null;
      if (expectKey && depth >= 0 && isObject[depth]) {
        keyStart[keys] = i + 1;
        keyEnd[keys] = j;
        keyText[keys] = escapesIn(text, i + 1, j) ? (JSON.parse(text.slice(i, j + 1)) as string) : undefined;
        const start = firstKey[depth] as number;
        const set = large[depth];
        let seen = false;
        if (set) seen = set.has(keyOf(text, keys));
        else for (let k = start; k < keys && !seen; k++) seen = sameKey(text, k, keys);
        if (seen) {
          const last = pointerSegment(keyOf(text, keys));
          return `${pathAt(text, depth)}/${last}`;
        }
        if (set) set.add(keyOf(text, keys));
        else if (keys + 1 - start > FEW_KEYS) {
          const all = new Set<string>();
          for (let k = start; k <= keys; k++) all.add(keyOf(text, k));
          large[depth] = all;
        }
        keys++;
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      // { or [
      const under = depth >= 0 && isObject[depth] ? keys - 1 : -1;
      depth++;
      isObject[depth] = c === 0x7b;
      firstKey[depth] = keys;
      itemIndex[depth] = 0;
      parentKey[depth] = under;
      large[depth] = undefined;
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      // } or ]
      if (depth >= 0) {
        keys = firstKey[depth] as number;
        large[depth] = undefined;
        depth--;
      }
    } else if (c === 0x2c && depth >= 0) {
      // ,
      if (isObject[depth]) expectKey = true;
      else itemIndex[depth] = (itemIndex[depth] as number) + 1;
    }
  }
  // Nothing found: drop what the lists hold of this text (its decoded keys, its Sets).
  keyText.length = 0;
  large.length = 0;
  return null;
}

/** The JSON Pointer of the value open at `depth`, built only when a duplicate is found. */
function pathAt(text: string, depth: number): string {
  const segments: string[] = [];
  for (let d = 1; d <= depth; d++) segments.push(isObject[d - 1] ? pointerSegment(keyOf(text, parentKey[d] as number)) : String(itemIndex[d - 1]));
  keyText.length = 0;
  large.length = 0;
  return segments.length ? `/${segments.join('/')}` : '';
}

/** Whether objects and arrays nest deeper than `limit` in the text (strings skipped; no parsing). */
export function depthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string, escapes included.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
