// Parsing JSON from users without ever echoing it (Node's own JSON.parse messages quote the
// input, which could be a card number), and refusing what JSON.parse would silently accept:
// invalid UTF-8 and duplicate keys.

import { pointerSegment } from './pointer.js';

/** The outcome of parsing: the value, or a message that never quotes the input. */
export type ParsedJson = { ok: true; value: unknown } | { ok: false; message: string };

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
  if (maxDepth !== undefined && depthExceeds(text, maxDepth)) return { ok: false, message: `the input is nested deeper than ${maxDepth} levels` };
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

/** An object or array being read: its keys so far (objects), its item count (arrays), and where it is. */
interface Open {
  keys: Set<string> | null;
  index: number;
  parent: Open | null;
  /** The key or index of this value in its parent. */
  segment: string;
}

/** The JSON Pointer of an open value, built only when a duplicate is found. */
function pathOf(open: Open | null): string {
  const segments: string[] = [];
  for (let o = open; o?.parent; o = o.parent) segments.push(o.parent.keys ? pointerSegment(o.segment) : o.segment);
  return segments.length ? `/${segments.reverse().join('/')}` : '';
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

/**
 * The JSON Pointer of the first key that appears twice in one object, or null. Linear, with an
 * explicit stack (no recursion), for text that JSON.parse has already accepted. Strings are
 * skipped with indexOf, so the loop visits the structure, not every character.
 */
export function duplicateKey(text: string): string | null {
  let top = null as Open | null;
  let pendingKey = '';
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: a key when an object expects one
      const j = closingQuote(text, i);
      if (j === -1) return null;
      if (expectKey && top?.keys) {
        const rawKey = text.slice(i + 1, j);
        const key: string = rawKey.includes('\\') ? JSON.parse(text.slice(i, j + 1)) : rawKey;
        if (top.keys.has(key)) return `${pathOf(top)}/${pointerSegment(key)}`;
        top.keys.add(key);
        pendingKey = key;
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      // { or [
      const segment: string = top ? (top.keys ? pendingKey : String(top.index)) : '';
      top = { keys: c === 0x7b ? new Set() : null, index: 0, parent: top, segment };
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      // } or ]
      top = top?.parent ?? null;
    } else if (c === 0x2c) {
      // ,
      if (top?.keys) expectKey = true;
      else if (top) top.index++;
    }
  }
  return null;
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
