// "Did you mean": the documented field an unknown key most likely meant, by edit distance over the
// folded spellings (case and separators ignored). The key itself is never shown: it may hold data.

/** Lower case, letters and digits only: `ORDER_ID` and `orderId` are the same word. */
const folded = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A declared field, its folded spelling and the characters in it (`letters`). */
export interface FieldWord {
  field: string;
  folded: string;
  letters: number;
}

/**
 * The characters of a folded word as a set of 32 bits: `a`-`z` one bit each, the ten digits
 * sharing the six bits left (a shared bit stands for any of its digits).
 */
function lettersOf(word: string): number {
  let set = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    set |= 1 << (c >= 97 ? c - 97 : 26 + ((c - 48) % 6));
  }
  return set;
}

/** A field and what the search compares of it, computed once. */
export function fieldWord(field: string): FieldWord {
  const word = folded(field);
  return { field, folded: word, letters: lettersOf(word) };
}

/** How many bits a set holds. */
function bitCount(set: number): number {
  let n = set - ((set >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * At most the edit distance of two words, from their sets of characters: each character of one
 * that the other lacks takes an edit of its own (a substitution serves one of each side).
 */
function fewestEdits(a: number, b: number): number {
  return Math.max(bitCount(a & ~b), bitCount(b & ~a));
}

/** Two rows of numbers for `distance`, each at least one longer than the longer word. */
interface Rows {
  previous: Uint16Array;
  current: Uint16Array;
}

/**
 * Edit distance, bounded: `limit + 1` as soon as it is more than `limit` (in the two rows given,
 * which one search shares over every field: no other allocation).
 */
function distance(a: string, b: string, limit: number, rows: Rows): number {
  let { previous, current } = rows;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let best = i;
    const c = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (c === b.charCodeAt(j - 1) ? 0 : 1),
      );
      current[j] = value;
      if (value < best) best = value;
    }
    // Every way on is already longer than allowed.
    if (best > limit) return limit + 1;
    const done = previous;
    previous = current;
    current = done;
  }
  return previous[b.length] as number;
}

/**
 * The documented field an unknown key most likely meant (the description's own sample spellings,
 * such as `ORDER_ID` or `carPreAuthType`, and typos), named instead of the key itself, which may
 * hold data. None for keys longer than any field name.
 */
export function closestField(sent: unknown, fields: FieldWord[]): string | undefined {
  if (typeof sent !== 'string' || sent.length > 64 || fields.length === 0) return undefined;
  const key = folded(sent);
  const letters = lettersOf(key);
  let found: string | undefined;
  let best = Math.max(1, Math.floor(key.length / 3)) + 1;
  let rows: Rows | undefined;
  for (const field of fields) {
    // Target of bench/validation.mjs (ten problems at most 5x JSON.parse): a field whose length
    // or letters alone already take more edits than allowed is passed over without computing the
    // distance, which could only put it over the limit (test/validation/suggestion.test.ts).
    const word = field.folded;
    if (Math.abs(key.length - word.length) >= best || fewestEdits(letters, field.letters) >= best) continue;
    rows ??= rowsFor(key, fields);
    const d = distance(key, word, best - 1, rows);
    if (d < best) {
      best = d;
      found = field.field;
    }
  }
  return found;
}

/** The rows `distance` needs for a key against any of the fields. */
function rowsFor(key: string, fields: FieldWord[]): Rows {
  let longest = key.length;
  for (const { folded: word } of fields) longest = Math.max(longest, word.length);
  return { previous: new Uint16Array(longest + 1), current: new Uint16Array(longest + 1) };
}
