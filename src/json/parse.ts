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

/** Parses the text, or its bytes (checked to be UTF-8). */
export function parseJson(input: string | Uint8Array): ParsedJson {
  const decoded = typeof input === 'string' ? input : decodeUtf8(input);
  if (decoded === null) return { ok: false, message: NOT_UTF8 };
  let text = decoded;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') return { ok: false, message: 'the input is empty' };
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

/**
 * The JSON Pointer of the first key that appears twice in one object, or null. Linear, with an
 * explicit stack (no recursion), for text that JSON.parse has already accepted.
 */
export function duplicateKey(text: string): string | null {
  const stack: { keys: Set<string> | null; path: string; index: number }[] = [];
  let pendingKey: string | null = null;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: a key when an object expects one
      let j = i + 1;
      let raw = false;
      while (text.charCodeAt(j) !== 0x22) {
        if (text.charCodeAt(j) === 0x5c) {
          raw = true;
          j++;
        }
        j++;
      }
      const top = stack[stack.length - 1];
      if (expectKey && top?.keys) {
        const key: string = raw ? JSON.parse(text.slice(i, j + 1)) : text.slice(i + 1, j);
        if (top.keys.has(key)) return `${top.path}/${pointerSegment(key)}`;
        top.keys.add(key);
        pendingKey = key;
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      // { or [
      const top = stack[stack.length - 1];
      const segment = top ? (top.keys ? pointerSegment(pendingKey ?? '') : String(top.index)) : null;
      stack.push({ keys: c === 0x7b ? new Set() : null, path: segment === null || !top ? '' : `${top.path}/${segment}`, index: 0 });
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      // } or ]
      stack.pop();
    } else if (c === 0x2c) {
      // ,
      const top = stack[stack.length - 1];
      if (top?.keys) expectKey = true;
      else if (top) top.index++;
    }
  }
  return null;
}
