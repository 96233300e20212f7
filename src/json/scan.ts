// Checking JSON text from users without building its value: the verdict of parseJson (invalid
// UTF-8, empty input, nesting deeper than a limit, the grammar of RFC 8259 as JSON.parse reads it,
// a key repeated in an object), read once, left to right, with almost nothing allocated. For a
// reader that answers untrusted text before deciding to build it: the webhook receiver checks a
// notification's signature over the body's bytes before it builds the body (building a flat
// megabyte of keys costs hundreds of milliseconds; reading it, a few).

import { decodeUtf8, depthExceeds, NOT_UTF8 } from './parse.js';
import { pointerSegment } from './pointer.js';

/** The text, decoded and checked, or a message that never quotes it (parseJson's, `tooDeep` included). */
export type CheckedJson = { ok: true; text: string } | { ok: false; message: string; tooDeep?: true };

/**
 * Whether the text, or its bytes (checked to be UTF-8), is JSON that parseJson accepts, with its
 * messages; the text (without a byte order mark) when it is. JSON.parse of that text cannot fail.
 */
export function checkJson(input: string | Uint8Array, { maxDepth }: { maxDepth?: number | undefined } = {}): CheckedJson {
  const decoded = typeof input === 'string' ? input : decodeUtf8(input);
  if (decoded === null) return { ok: false, message: NOT_UTF8 };
  let text = decoded;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (blank(text)) return { ok: false, message: 'the input is empty' };
  if (maxDepth !== undefined && depthExceeds(text, maxDepth))
    return { ok: false, message: `the input is nested deeper than ${maxDepth} levels`, tooDeep: true };
  const problem = scan(text);
  return problem === null ? { ok: true, text } : { ok: false, message: problem };
}

/** Whether the text holds nothing but white space (parseJson's reading of "empty"). */
function blank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return /^\s*$/.test(text.slice(i));
  }
  return true;
}

/** The index of the first character at or after `i` that is not JSON white space. */
function space(text: string, i: number): number {
  for (let c = text.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++i));
  return i;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);

/** Whether the string stringEnd read last holds an escape, and the hash of its text (FNV-1a over its code units, when it holds none). */
let escaped = false;
let stringHash = 0;

/**
 * The index just after the string that opens at `i`, or `~position` of what is wrong in it (a
 * control character, a bad escape, the end of the text). Read a character at a time: a loop of
 * charCodeAt costs less than a regular expression on the short strings a payload is made of.
 */
function stringEnd(text: string, i: number): number {
  escaped = false;
  let h = 0x811c9dc5;
  for (let j = i + 1; ; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x22) {
      stringHash = h | 0;
      return j + 1;
    }
    if (c === 0x5c) {
      escaped = true;
      const e = text.charCodeAt(j + 1);
      if (e === 0x75) {
        for (let k = j + 2; k < j + 6; k++) if (!isHex(text.charCodeAt(k))) return ~k;
        j += 5;
      } else if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) j++;
      else return ~(j + 1);
    } else if (c >= 0x20) h = Math.imul(h ^ c, 0x01000193);
    else return ~j; // a control character, or the end of the text (NaN)
  }
}

/** The index just after the number that starts at `i` (RFC 8259's grammar), or `~position` of what is wrong. */
function numberEnd(text: string, i: number): number {
  let j = i;
  if (text.charCodeAt(j) === 0x2d) j++;
  const first = text.charCodeAt(j);
  if (first === 0x30) j++;
  else if (first >= 0x31 && first <= 0x39) for (j++; isDigit(text.charCodeAt(j)); j++);
  else return ~j;
  if (text.charCodeAt(j) === 0x2e) {
    if (!isDigit(text.charCodeAt(++j))) return ~j;
    for (j++; isDigit(text.charCodeAt(j)); j++);
  }
  const e = text.charCodeAt(j);
  if (e === 0x65 || e === 0x45) {
    const sign = text.charCodeAt(++j);
    if (sign === 0x2b || sign === 0x2d) j++;
    if (!isDigit(text.charCodeAt(j))) return ~j;
    for (j++; isDigit(text.charCodeAt(j)); j++);
  }
  return j;
}

/** The message of what is wrong at `position`: parseJson's words, a line and a column, never the text. */
function malformed(text: string, position: number): string {
  if (position >= text.length) return 'malformed JSON (it ends too early or holds an invalid character)';
  let line = 1;
  let lastNewline = -1;
  for (let n = text.indexOf('\n'); n !== -1 && n < position; n = text.indexOf('\n', n + 1)) {
    line++;
    lastNewline = n;
  }
  return `malformed JSON at line ${line}, column ${position - lastNewline}`;
}

/** Objects with more keys than this are checked with a table of the keys' hashes; smaller ones by comparing. */
const FEW_KEYS = 32;

// The state of scan, kept between calls (it runs to its end before it returns, and never calls
// itself), as duplicateKey keeps its own: lists that grow once cost nothing after.
/** Per key of the open objects: where its text starts and ends (inside the quotes), its decoded text when it holds escapes, its hash. */
const keyStart: number[] = [];
const keyEnd: number[] = [];
const keyText: (string | undefined)[] = [];
const keyHash: number[] = [];
/** Per open value, by depth: an object (or array), where its keys start, its item count, the key it stands under, its table when large. */
const isObject: boolean[] = [];
const firstKey: number[] = [];
const itemIndex: number[] = [];
const parentKey: number[] = [];
const tables: (KeyTable | undefined)[] = [];

/** The keys of a large object by hash: open addressing, each slot a key's index + 1 (0: empty), at most half full. */
interface KeyTable {
  slots: Int32Array;
  count: number;
}

/** Puts key `k` into the table: false when a key of the same text is there already (it is not put). */
function tableAdd(text: string, table: KeyTable, k: number): boolean {
  if ((table.count + 1) * 2 > table.slots.length) {
    const old = table.slots;
    table.slots = new Int32Array(old.length * 2);
    for (const slot of old) if (slot !== 0) place(table.slots, slot - 1);
  }
  const { slots } = table;
  const mask = slots.length - 1;
  const h = keyHash[k] as number;
  for (let s = (h ^ (h >>> 16)) & mask; ; s = (s + 1) & mask) {
    const m = slots[s] as number;
    if (m === 0) {
      slots[s] = k + 1;
      table.count++;
      return true;
    }
    if (keyHash[m - 1] === h && sameKey(text, m - 1, k)) return false;
  }
}

/** Puts key `k`, known to be new, into the first free slot of its hash. */
function place(slots: Int32Array, k: number): void {
  const mask = slots.length - 1;
  const h = keyHash[k] as number;
  let s = (h ^ (h >>> 16)) & mask;
  while (slots[s] !== 0) s = (s + 1) & mask;
  slots[s] = k + 1;
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

/** FNV-1a over the UTF-16 code units of a key's decoded text, as stringEnd hashes one without escapes. */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let n = 0; n < s.length; n++) h = Math.imul(h ^ s.charCodeAt(n), 0x01000193);
  return h | 0;
}

/** The JSON Pointer of key `k` of the object open at `depth`: the way down to it, keys shown as pointers show them. */
function pointerOf(text: string, depth: number, k: number): string {
  const segments: string[] = [];
  for (let d = 1; d <= depth; d++) segments.push(isObject[d - 1] ? pointerSegment(keyOf(text, parentKey[d] as number)) : String(itemIndex[d - 1]));
  segments.push(pointerSegment(keyOf(text, k)));
  return `/${segments.join('/')}`;
}

/** Lets go of what a reading kept: the decoded keys (when there were any) and the tables. */
function release(decoded: boolean): void {
  if (decoded) keyText.length = 0;
  tables.length = 0;
}

/**
 * What is wrong with the text as JSON, in parseJson's words, or null. The grammar first: a key
 * repeated in an object is said only of text that is JSON otherwise (as parseJson, which parses
 * before it looks for one), and it is the first one in reading order. One loop, no closure, so
 * that its state stays in registers.
 */
function scan(text: string): string | null {
  let depth = -1;
  let keys = 0;
  let duplicate: string | null = null;
  let decoded = false;
  /** Whether the next thing to read is a key of the object open at `depth` (then its colon). */
  let wantKey = false;
  let i = space(text, 0);
  for (;;) {
    if (wantKey) {
      wantKey = false;
      if (text.charCodeAt(i) !== 0x22) break;
      const end = stringEnd(text, i);
      if (end < 0) {
        i = ~end;
        break;
      }
      const k = keys++;
      keyStart[k] = i + 1;
      keyEnd[k] = end - 1;
      if (escaped) {
        // The same hash as a key spelled without escapes: over the decoded text.
        const unescaped = JSON.parse(text.slice(i, end)) as string;
        decoded = true;
        keyText[k] = unescaped;
        keyHash[k] = hashOf(unescaped);
      } else {
        keyText[k] = undefined;
        keyHash[k] = stringHash;
      }
      // Once one key is found repeated, the others no longer matter (the first is the one told).
      if (duplicate === null) {
        const table = tables[depth];
        if (table) {
          if (!tableAdd(text, table, k)) duplicate = pointerOf(text, depth, k);
        } else {
          const first = firstKey[depth] as number;
          const h = keyHash[k] as number;
          for (let m = first; m < k; m++)
            if (keyHash[m] === h && sameKey(text, m, k)) {
              duplicate = pointerOf(text, depth, k);
              break;
            }
          if (duplicate === null && k + 1 - first > FEW_KEYS) {
            const built: KeyTable = { slots: new Int32Array(256), count: 0 };
            for (let m = first; m <= k; m++) tableAdd(text, built, m);
            tables[depth] = built;
          }
        }
      }
      i = space(text, end);
      if (text.charCodeAt(i) !== 0x3a) break;
      i = space(text, i + 1);
    }

    // A value starts at i.
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      // { or [
      const object = c === 0x7b;
      depth++;
      isObject[depth] = object;
      firstKey[depth] = keys;
      itemIndex[depth] = 0;
      parentKey[depth] = depth > 0 && isObject[depth - 1] ? keys - 1 : -1;
      tables[depth] = undefined;
      i = space(text, i + 1);
      if (text.charCodeAt(i) !== (object ? 0x7d : 0x5d)) {
        wantKey = object;
        continue;
      }
      // Empty: closed at once.
      i++;
      keys = firstKey[depth] as number;
      depth--;
    } else if (c === 0x22) {
      const end = stringEnd(text, i);
      if (end < 0) {
        i = ~end;
        break;
      }
      i = end;
    } else if (c === 0x2d || isDigit(c)) {
      const end = numberEnd(text, i);
      if (end < 0) {
        i = ~end;
        break;
      }
      i = end;
    } else if (text.startsWith('true', i) || text.startsWith('null', i)) i += 4;
    else if (text.startsWith('false', i)) i += 5;
    else break;

    // After a value: the end of the text, the end of open values, or a comma and the next value.
    let next = true;
    for (;;) {
      i = space(text, i);
      if (depth < 0) {
        if (i < text.length) next = false;
        else {
          release(decoded);
          return duplicate === null ? null : `duplicate key at ${duplicate}: a key may appear only once in an object`;
        }
        break;
      }
      const after = text.charCodeAt(i);
      if (after === 0x2c) {
        i = space(text, i + 1);
        if (isObject[depth]) wantKey = true;
        else itemIndex[depth] = (itemIndex[depth] as number) + 1;
        break;
      }
      if (after !== (isObject[depth] ? 0x7d : 0x5d)) {
        next = false;
        break;
      }
      i++;
      keys = firstKey[depth] as number;
      tables[depth] = undefined;
      depth--;
    }
    if (!next) break;
  }
  // Every way out of the loop but the end of the text is a break at what is wrong, at i.
  release(decoded);
  return malformed(text, i);
}
