// Where the members of a JSON object lie in its text, found without reading their values. The
// webhook receiver locates a notification's head and body this way and checks the signature
// before it reads anything else (docs/decisions.md, D-34, D-113): a forged notification then costs
// this pass and the signature check, whatever its body holds. One linear pass, no recursion:
// strings are skipped to their closing quote (String.prototype.indexOf, which runs at the speed
// of JSON.parse itself on a long string), objects and arrays by counting their brackets, and a
// key is compared with the wanted names where it stands, never decoded. This is not a check of JSON:
// only the object's own punctuation is read, never what lies inside its values (checkJson reads
// that, once the signature is known to be good).

import { scalarEnd } from './member.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Where a member's value starts, and the index just after it. */
export interface Span {
  start: number;
  end: number;
}

/**
 * An object's wanted members (the first of each name) and the index just after the object; or
 * where its own punctuation is wrong (`at`: a key, colon, comma or brace missing, a value missing or
 * never closed); or that its values nest deeper than the limit (`tooDeep`).
 */
export type Outline =
  | { ok: true; members: Map<string, Span>; end: number }
  | { ok: false; at: number }
  | { ok: false; tooDeep: true };

/** The index of the first character at or after `i` that is not JSON white space. */
export function jsonSpace(text: string, i: number): number {
  let j = i;
  for (let c = text.charCodeAt(j); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++j));
  return j;
}

/** The index just after the string that opens at `i`, or -1 when it is never closed. */
export function closedStringEnd(text: string, i: number): number {
  for (let from = i + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return -1;
    // The quote ends the string unless an odd run of backslashes escapes it.
    let backslashes = 0;
    for (let k = quote - 1; k > i && text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

const UNCLOSED = -1;
const TOO_DEEP = -2;

/**
 * The index just after the object or array that opens at `i`, found by counting brackets (of
 * either kind: which closes which is checkJson's concern); UNCLOSED, or TOO_DEEP when it nests
 * deeper than `levels` (itself included).
 */
function containerEnd(text: string, i: number, levels: number): number {
  let level = 0;
  for (let j = i; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) {
      const end = closedStringEnd(text, j);
      if (end === -1) return UNCLOSED;
      j = end - 1;
    } else if (c === 0x7b || c === 0x5b) {
      if (++level > levels) return TOO_DEEP;
    } else if ((c === 0x7d || c === 0x5d) && --level === 0) return j + 1;
  }
  return UNCLOSED;
}

/** Whether the value that starts at `i` nests deeper than `maxDepth` levels (itself included), its brackets counted as outlineObject counts them. */
export function nestsDeeper(text: string, i: number, maxDepth: number): boolean {
  const c = text.charCodeAt(i);
  return (c === 0x7b || c === 0x5b) && containerEnd(text, i, maxDepth) === TOO_DEEP;
}

/** The name among `names`, not yet `found`, that the key whose quotes are at `start` and `end - 1` spells; or undefined. */
function wantedName(
  text: string,
  start: number,
  end: number,
  names: readonly string[],
  found: Map<string, Span>,
): string | undefined {
  for (const name of names) if (!found.has(name) && spells(text, start + 1, end - 1, name)) return name;
  return undefined;
}

/**
 * Whether the characters of a key from `from` to `to` (its quotes excluded) spell `name`, written
 * plainly or with \u escapes ("bo\u0064y" is "body"), compared character by character: nothing is
 * decoded or copied, and the comparison stops at the first difference. For names of characters
 * that need no escape (letters, digits); any other escape is not one of them.
 */
function spells(text: string, from: number, to: number, name: string): boolean {
  let j = from;
  for (let k = 0; k < name.length; k++) {
    if (j >= to) return false;
    let c = text.charCodeAt(j);
    if (c === BACKSLASH) {
      if (text.charCodeAt(j + 1) !== 0x75 || j + 6 > to) return false;
      c = hexValue(text, j + 2);
      j += 6;
    } else j++;
    if (c !== name.charCodeAt(k)) return false;
  }
  return j === to;
}

/** The value of the four hexadecimal digits at `i`, or -1. */
function hexValue(text: string, i: number): number {
  let value = 0;
  for (let k = i; k < i + 4; k++) {
    const c = text.charCodeAt(k);
    const lower = c | 0x20; // a letter in lower case
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/**
 * The members named in `names` of the object that opens at `from` (the first of each name), with
 * the objects and arrays of its values nested at most `maxDepth` levels, the object itself
 * included. Reads the object's own punctuation only; linear in the length of the object.
 */
export function outlineObject(
  text: string,
  from: number,
  names: readonly string[],
  maxDepth = Number.POSITIVE_INFINITY,
): Outline {
  if (text.charCodeAt(from) !== 0x7b) return { ok: false, at: from };
  if (maxDepth < 1) return { ok: false, tooDeep: true };
  const members = new Map<string, Span>();
  let i = jsonSpace(text, from + 1);
  if (text.charCodeAt(i) === 0x7d) return { ok: true, members, end: i + 1 };
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return { ok: false, at: i };
    const keyEnd = closedStringEnd(text, i);
    if (keyEnd === -1) return { ok: false, at: text.length };
    const colon = jsonSpace(text, keyEnd);
    if (text.charCodeAt(colon) !== 0x3a) return { ok: false, at: colon };
    const start = jsonSpace(text, colon + 1);
    const first = text.charCodeAt(start);
    let end: number;
    if (first === QUOTE) end = closedStringEnd(text, start);
    else if (first === 0x7b || first === 0x5b) end = containerEnd(text, start, maxDepth - 1);
    else end = scalarEnd(text, start);
    if (end === TOO_DEEP) return { ok: false, tooDeep: true };
    if (end === UNCLOSED) return { ok: false, at: text.length };
    if (end === start) return { ok: false, at: start }; // no value
    const name = wantedName(text, i, keyEnd, names, members);
    if (name !== undefined) members.set(name, { start, end });
    i = jsonSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === 0x7d) return { ok: true, members, end: i + 1 };
    if (c !== 0x2c) return { ok: false, at: i };
    i = jsonSpace(text, i + 1);
  }
}
