// The exact text of one top-level member of a JSON object, as it was received. A signature covers
// the bytes of the envelope's "body" member, and re-serializing the parsed value need not give
// those bytes back (spacing, escapes, number forms), so the text is cut out, never rebuilt.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index of the first character at or after `i` that is not JSON whitespace (or a byte order mark). */
export function skipSpace(text: string, i: number): number {
  for (
    let c = text.charCodeAt(i);
    c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0xfeff;
    c = text.charCodeAt(++i)
  );
  return i;
}

/** The index just after the string that opens at `i`. */
export function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return text.length;
}

/** The index just after the value that starts at `i` (no recursion: nesting is counted). */
export function valueEnd(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return stringEnd(text, i);
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === QUOTE) j = stringEnd(text, j) - 1;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if ((c === 0x7d || c === 0x5d) && --depth === 0) return j + 1;
    }
    return text.length;
  }
  return scalarEnd(text, i);
}

/** The index just after a number, `true`, `false` or `null` (or any other run of characters) at `i`: up to the next delimiter. */
export function scalarEnd(text: string, i: number): number {
  let j = i;
  for (
    let c = text.charCodeAt(j);
    j < text.length && c !== 0x2c && c !== 0x7d && c !== 0x5d && c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d;
    c = text.charCodeAt(++j)
  );
  return j;
}

/**
 * Where the value of the member `name` of the object opening at `open` starts, or -1 when the
 * object has no such member. For text that JSON.parse accepted (see parseJson); an escaped key
 * that is no JSON string throws JSON.parse's SyntaxError. Linear time, no recursion.
 */
export function memberValueStart(text: string, open: number, name: string): number {
  let i = skipSpace(text, open + 1);
  while (text.charCodeAt(i) === QUOTE) {
    const keyEnd = stringEnd(text, i);
    const rawKey = text.slice(i, keyEnd);
    // An escaped key ("bo\u0064y") names the same member as its plain spelling.
    const key: string = rawKey.includes('\\') ? JSON.parse(rawKey) : rawKey.slice(1, -1);
    const start = skipSpace(text, skipSpace(text, keyEnd) + 1); // after the colon
    if (key === name) return start;
    i = skipSpace(text, valueEnd(text, start));
    if (text.charCodeAt(i) !== 0x2c) return -1; // the closing brace
    i = skipSpace(text, i + 1);
  }
  return -1;
}

/**
 * The raw text of the value of the top-level member `name`, or undefined when the root is not an
 * object or has no such member. For text that JSON.parse accepted with no repeated key (see
 * parseJson): it does not check the grammar itself. Linear time, no recursion.
 */
export function memberText(text: string, name: string): string | undefined {
  const open = skipSpace(text, 0);
  if (text.charCodeAt(open) !== 0x7b) return undefined;
  const start = memberValueStart(text, open, name);
  return start < 0 ? undefined : text.slice(start, valueEnd(text, start));
}
