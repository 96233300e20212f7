// The count of an input's JSON bounds (src/inputs/limits.ts, jsonBoundPassed) passes over a text no
// longer than the smallest limit: each level, value and member takes a character of its own. Held
// to the whole count on generated texts of JSON's punctuation, strings, numbers and literals, with
// small limits: the same text with spaces after it (which the count does not count) is read whole.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonBoundPassed } from '../../src/inputs/limits.js';
import { fcParameters } from '../helpers/arbitraries.js';

const token = fc.constantFrom(
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  ' ',
  '"',
  '""',
  '"a"',
  '"k":',
  '1',
  '-2.5e3',
  'true',
  'null',
  '\\',
);
const text = fc.array(token, { maxLength: 30 }).map((parts) => parts.join(''));
const limits = fc.record({
  depth: fc.integer({ min: 0, max: 12 }),
  values: fc.integer({ min: 0, max: 12 }),
  members: fc.integer({ min: 0, max: 12 }),
});

describe('the bounds of an input', () => {
  it('are those the whole count finds, for a text of any length against any limits', () => {
    fc.assert(
      fc.property(text, limits, (value, bounds) => {
        const whole = `${value}${' '.repeat(64)}`;
        expect(jsonBoundPassed(value, bounds)).toBe(jsonBoundPassed(whole, bounds));
      }),
      fcParameters(5000),
    );
  });

  it('are found in a text one character past the smallest limit', () => {
    expect(jsonBoundPassed('[[[', { depth: 2, values: 10, members: 10 })).toBe('maxDepth');
    expect(jsonBoundPassed('[[', { depth: 2, values: 10, members: 10 })).toBeNull();
    expect(jsonBoundPassed('{"a":1,"b":2}', { depth: 5, values: 10, members: 1 })).toBe('maxMembers');
  });
});
