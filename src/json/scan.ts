// Reading JSON text from users without echoing it (Node's own JSON.parse messages quote the input,
// which could be a card number), and refusing what JSON.parse would silently accept: invalid UTF-8
// and a key repeated in an object. checkJson gives the verdict without building the value, read
// once, left to right; parseJson (parse.ts) builds the value of text checkJson accepts. The webhook
// receiver runs checkJson only once a notification's signature is known to be good (before it,
// outline.ts locates the signature and the body without reading them).

import { pointerSegment } from './pointer.js';

/**
 * The text, decoded and checked, or a message that never quotes it (`tooDeep`: the text is JSON as
 * far as was read, but nested deeper than `maxDepth`, and was not read further).
 */
export type CheckedJson = { ok: true; text: string } | { ok: false; message: string; tooDeep?: true };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of UTF-8 bytes, or null when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** What checkJson and parseJson say of bytes that are not UTF-8. */
export const NOT_UTF8 = 'the input is not valid UTF-8 text';

/**
 * Whether the text, or its bytes (checked to be UTF-8), is JSON (RFC 8259, as JSON.parse reads it)
 * with no key repeated in an object; the text (without a byte order mark) when it is. JSON.parse of
 * that text cannot fail. With `maxDepth`, text nested deeper than that many objects and arrays is
 * refused before it is read (`tooDeep`).
 */
export function checkJson(
  input: string | Uint8Array,
  { maxDepth }: { maxDepth?: number | undefined } = {},
): CheckedJson {
  const read = jsonText(input);
  if (!read.ok) return read;
  const { text } = read;
  // Before anything is read or built: what a reading keeps grows with the depth (16 MB of brackets took over 1 GB).
  if (maxDepth !== undefined && depthExceeds(text, maxDepth))
    return { ok: false, message: tooDeepMessage(maxDepth), tooDeep: true };
  const problem = scan(text);
  return problem === null ? { ok: true, text } : { ok: false, message: problem };
}

/**
 * The text of the input, its bytes checked to be UTF-8, without a byte order mark, when it holds
 * more than white space; nothing else is read (the first step of checkJson).
 */
export function jsonText(input: string | Uint8Array): CheckedJson {
  const decoded = typeof input === 'string' ? input : decodeUtf8(input);
  if (decoded === null) return { ok: false, message: NOT_UTF8 };
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  if (blank(text)) return { ok: false, message: 'the input is empty' };
  return { ok: true, text };
}

/** What checkJson says of text nested deeper than `maxDepth` levels. */
export const tooDeepMessage = (maxDepth: number) => `the input is nested deeper than ${maxDepth} levels`;

/** Whether the text holds nothing but white space (without copying it, as trim() would). */
function blank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return /^\s*$/.test(text.slice(i));
  }
  return true;
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

/** The index of the first character at or after `i` that is not JSON white space. */
function space(text: string, i: number): number {
  let j = i;
  for (let c = text.charCodeAt(j); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++j));
  return j;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);

/** What is wrong in the text, at `at`: thrown by the readers below, caught by scan. */
class Malformed {
  constructor(readonly at: number) {}
}

/** The index just after the string that opens at `i`; throws at a control character, a bad escape or the end of the text. */
function readString(text: string, i: number): number {
  for (let j = i + 1; ; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c === 0x5c) {
      const e = text.charCodeAt(j + 1);
      if (e === 0x75) {
        for (let k = j + 2; k < j + 6; k++) if (!isHex(text.charCodeAt(k))) throw new Malformed(k);
        j += 5;
      } else if (
        e === 0x22 ||
        e === 0x5c ||
        e === 0x2f ||
        e === 0x62 ||
        e === 0x66 ||
        e === 0x6e ||
        e === 0x72 ||
        e === 0x74
      )
        j++;
      else throw new Malformed(j + 1);
    } else if (!(c >= 0x20)) throw new Malformed(j); // a control character, or the end of the text (NaN)
  }
}

/** The index just after the number that starts at `i` (RFC 8259's grammar); throws at what is wrong. */
function readNumber(text: string, i: number): number {
  let j = i;
  if (text.charCodeAt(j) === 0x2d) j++;
  const first = text.charCodeAt(j);
  if (first === 0x30) j++;
  else if (first >= 0x31 && first <= 0x39) for (j++; isDigit(text.charCodeAt(j)); j++);
  else throw new Malformed(j);
  if (text.charCodeAt(j) === 0x2e) {
    if (!isDigit(text.charCodeAt(++j))) throw new Malformed(j);
    for (j++; isDigit(text.charCodeAt(j)); j++);
  }
  const e = text.charCodeAt(j);
  if (e === 0x65 || e === 0x45) {
    const sign = text.charCodeAt(++j);
    if (sign === 0x2b || sign === 0x2d) j++;
    if (!isDigit(text.charCodeAt(j))) throw new Malformed(j);
    for (j++; isDigit(text.charCodeAt(j)); j++);
  }
  return j;
}

/** Throws unless the character at `i` is `c`. */
function expectChar(text: string, i: number, c: number): void {
  if (text.charCodeAt(i) !== c) throw new Malformed(i);
}

/** The message of what is wrong at `position`: a line and a column, never the text. */
export function malformedMessage(text: string, position: number): string {
  if (position >= text.length) return 'malformed JSON (it ends too early or holds an invalid character)';
  let line = 1;
  let lastNewline = -1;
  for (let n = text.indexOf('\n'); n !== -1 && n < position; n = text.indexOf('\n', n + 1)) {
    line++;
    lastNewline = n;
  }
  return `malformed JSON at line ${line}, column ${position - lastNewline}`;
}

/** An object or array being read: its keys so far (objects), its item count (arrays), and where it is. */
interface Open {
  keys: Set<string> | null;
  index: number;
  parent: Open | null;
  /** The key this value stands under, when its parent is an object. */
  key: string;
}

/** The JSON Pointer of an open value: its keys (as pointers show them) and indexes, from the top. */
function pathOf(open: Open): string {
  const segments: string[] = [];
  for (let o: Open | null = open; o?.parent; o = o.parent)
    segments.push(o.parent.keys ? pointerSegment(o.key) : String(o.parent.index));
  return segments
    .reverse()
    .map((s) => `/${s}`)
    .join('');
}

/**
 * What is wrong with the text as JSON, or null. The grammar first: a key repeated in an object is
 * said only of text that is JSON otherwise (as JSON.parse would refuse it first), and it is the
 * first one in reading order. No recursion: the open objects and arrays are a list of records.
 */
function scan(text: string): string | null {
  try {
    const duplicate = repeatedKey(text);
    return duplicate === null ? null : `duplicate key at ${duplicate}: a key may appear only once in an object`;
  } catch (error) {
    if (error instanceof Malformed) return malformedMessage(text, error.at);
    throw error;
  }
}

/** Reads the whole text: the JSON Pointer of the first key repeated in an object, or null; throws at what is wrong. */
function repeatedKey(text: string): string | null {
  let top: Open | null = null;
  /** The last key read in the object on top: the key of a value opened under it. */
  let key = '';
  let duplicate: string | null = null;
  let i = space(text, 0);
  for (;;) {
    // Inside an object (just after its brace or a comma): a member, its key and a colon, then its value.
    if (top?.keys) {
      expectChar(text, i, 0x22);
      const end = readString(text, i);
      const raw = text.slice(i + 1, end - 1);
      key = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
      // Once one key is found repeated, the others no longer matter (the first is the one told).
      if (duplicate === null && top.keys.has(key)) duplicate = `${pathOf(top)}/${pointerSegment(key)}`;
      top.keys.add(key);
      i = space(text, end);
      expectChar(text, i, 0x3a);
      i = space(text, i + 1);
    }

    // A value starts at i.
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      top = { keys: c === 0x7b ? new Set() : null, index: 0, parent: top, key };
      i = space(text, i + 1);
      if (text.charCodeAt(i) !== (c === 0x7b ? 0x7d : 0x5d)) continue;
      // Empty: closed at once.
      i++;
      top = top.parent;
    } else if (c === 0x22) i = readString(text, i);
    else if (c === 0x2d || isDigit(c)) i = readNumber(text, i);
    else if (text.startsWith('true', i) || text.startsWith('null', i)) i += 4;
    else if (text.startsWith('false', i)) i += 5;
    else throw new Malformed(i);

    // After a value: the end of open values, then a comma and the next value, or the end of the text.
    i = space(text, i);
    while (top !== null && text.charCodeAt(i) !== 0x2c) {
      expectChar(text, i, top.keys ? 0x7d : 0x5d);
      top = top.parent;
      i = space(text, i + 1);
    }
    if (top === null) {
      if (i < text.length) throw new Malformed(i);
      return duplicate;
    }
    if (!top.keys) top.index++;
    i = space(text, i + 1);
  }
}
