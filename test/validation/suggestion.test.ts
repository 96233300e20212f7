// "Did you mean" (src/validation/suggestion.ts) names the same field as the plain search: the
// first field of the list at the smallest edit distance from the unknown key, folded, within a
// third of the key's length (at least one edit). The search passes over a field whose letters
// alone take more edits than allowed; these tests hold it to the plain form on generated keys and
// field lists, most of them near each other (typos, case and separators changed).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closestField, fieldWord } from '../../src/validation/suggestion.js';
import { edited, fcParameters } from '../helpers/arbitraries.js';

const folded = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Edit distance, the textbook table. */
function plainDistance(a: string, b: string): number {
  const table = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      table[i]![j] = Math.min(
        table[i - 1]![j]! + 1,
        table[i]![j - 1]! + 1,
        table[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
  return table[a.length]![b.length]!;
}

/** The plain search: every field's distance, the first of the smallest within the limit. */
function plainClosest(sent: string, fields: string[]): string | undefined {
  if (sent.length > 64 || fields.length === 0) return undefined;
  const key = folded(sent);
  const limit = Math.max(1, Math.floor(key.length / 3));
  let found: string | undefined;
  let best = limit + 1;
  for (const field of fields) {
    const d = plainDistance(key, folded(field));
    if (d < best) {
      best = d;
      found = field;
    }
  }
  return found;
}

const char = fc.constantFrom(...'abcdeinorstuyzABCDEINORSTUYZ0123456789_-'.split(''));
const word = fc.string({ unit: char, minLength: 1, maxLength: 24 });
const fieldList = fc.uniqueArray(word, { minLength: 1, maxLength: 40 });
/** A key near one of the fields (up to three edits), or any word. */
const keyAndFields = fieldList.chain((fields) =>
  fc.tuple(fc.oneof(edited(fc.constantFrom(...fields), char, 24), word), fc.constant(fields)),
);

describe('did you mean', () => {
  it('names the field the plain search names, for keys near the fields and for any key', () => {
    fc.assert(
      fc.property(keyAndFields, ([sent, fields]) => {
        expect(closestField(sent, fields.map(fieldWord))).toBe(plainClosest(sent, fields));
      }),
      fcParameters(2000),
    );
  });

  it('names the documented spelling of a sample spelling or a typo', () => {
    const fields = ['mid', 'orderId', 'requestType', 'paymentMode', 'cardPreAuthType', 'txnAmount'].map(fieldWord);
    expect(closestField('ORDER_ID', fields)).toBe('orderId');
    expect(closestField('carPreAuthType', fields)).toBe('cardPreAuthType');
    expect(closestField('requestTyep', fields)).toBe('requestType');
    expect(closestField('unknownKey', fields)).toBeUndefined();
    expect(closestField('x'.repeat(65), fields)).toBeUndefined();
    expect(closestField(7, fields)).toBeUndefined();
  });
});
