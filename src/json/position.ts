// Where a field is in a JSON text: the line and column of the value a JSON Pointer names, so that
// reports can place a problem on the line of its field. Linear, no recursion, for text that
// JSON.parse has accepted (see parseJson); it does not check the grammar itself.
import { memberValueStart, skipSpace, valueEnd } from './member.js';
import { pointerSegments } from './pointer.js';

/**
 * Texts longer than this are not searched for the line of each field (problems get the line of
 * the payload): a search per problem stays short, and a reader need not keep a long text once it
 * is parsed.
 */
export const POSITIONED_TEXT_LIMIT = 256 * 1024;

/** A place in a text, both counted from 1. */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * The start of the member `name` of the object opening at `i`, or -1 (also when a key is not what
 * JSON.parse reads: this text is not searched further).
 */
function memberStart(text: string, i: number, name: string): number {
  try {
    return memberValueStart(text, i, name);
  } catch {
    return -1;
  }
}

/** The start of item `index` of the array opening at `i`, or -1. */
function itemStart(text: string, i: number, index: number): number {
  let j = skipSpace(text, i + 1);
  for (let k = 0; k < index; k++) {
    if (j >= text.length || text.charCodeAt(j) === 0x5d) return -1;
    j = skipSpace(text, valueEnd(text, j));
    if (text.charCodeAt(j) !== 0x2c) return -1;
    j = skipSpace(text, j + 1);
  }
  return j < text.length && text.charCodeAt(j) !== 0x5d ? j : -1;
}

/** Where the value `pointer` names starts (from `from` on), or where its closest existing ancestor starts, and whether it was found. */
function find(text: string, pointer: string, from: number): { offset: number; found: boolean } {
  let at = skipSpace(text, from);
  for (const segment of pointerSegments(pointer)) {
    const c = text.charCodeAt(at);
    let next = -1;
    if (c === 0x7b) next = memberStart(text, at, segment);
    else if (c === 0x5b && /^(0|[1-9][0-9]{0,8})$/.test(segment)) next = itemStart(text, at, Number(segment));
    if (next < 0) return { offset: at, found: false };
    at = next;
  }
  return { offset: at, found: true };
}

/**
 * The index where the value named by `pointer` starts in `text`, from `from` on; for a pointer to
 * a member or item that is not there (a missing field), where its closest existing ancestor starts.
 */
export function pointerOffset(text: string, pointer: string, from = 0): number {
  return find(text, pointer, from).offset;
}

/** The line and column of `offset` in `text`. */
export function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** The line and column of the value `pointer` names in `text` (or of its closest existing ancestor). */
export function pointerPosition(text: string, pointer: string): TextPosition {
  return positionAt(text, pointerOffset(text, pointer));
}

/**
 * The line of offsets of one text, counted on (or back) from the offset asked before: offsets that
 * mostly grow, such as the entries of a HAR file, cost one pass over the text in all, whatever the
 * order of the members within each entry, and nothing is kept per line. (Counting from the start
 * of the text for each offset took seconds on a large file; an index of every newline, an array
 * as long as the text has lines: 16 MiB of newlines took 300 MB.)
 */
export function lineCounter(text: string): (offset: number) => number {
  let at = 0;
  /** The line of `at`: one more than the newlines before it. */
  let line = 1;
  return (offset) => {
    const target = Math.max(0, Math.min(offset, text.length));
    for (; at < target; at++) if (text.charCodeAt(at) === 0x0a) line++;
    while (at > target) if (text.charCodeAt(--at) === 0x0a) line--;
    return line;
  };
}

/** The offsets where the items of the array at `pointer` start (none when it is not an array). */
export function arrayItemOffsets(text: string, pointer: string): number[] {
  const { offset: at, found } = find(text, pointer, 0);
  if (!found || text.charCodeAt(at) !== 0x5b) return [];
  const offsets: number[] = [];
  let j = skipSpace(text, at + 1);
  while (j < text.length && text.charCodeAt(j) !== 0x5d) {
    offsets.push(j);
    j = skipSpace(text, valueEnd(text, j));
    if (text.charCodeAt(j) !== 0x2c) break;
    j = skipSpace(text, j + 1);
  }
  return offsets;
}
