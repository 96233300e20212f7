// A case's name as reports show it (src/validation/cases.ts, caseName): a name with nothing to
// replace and at most 200 characters is kept as it is; any other is the plain form's, control
// characters and separators as `?`, characters that set the direction of text as their escapes,
// cut to 200 characters. Held to the plain form on generated names of every kind of character.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseName } from '../../src/validation/cases.js';
import { fcParameters } from '../helpers/arbitraries.js';

/** The plain form: both replacements, then the cut, for every name. */
function plain(name: string): string {
  const clean = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?')
    .replace(
      /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
    );
  return clean.length > 200 ? `${clean.slice(0, 197)}...` : clean;
}

const special = fc.constantFrom(
  '\u0000',
  '\u001f',
  '\u007f',
  '\u009f',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
  '\u061b',
  '\u2027',
  '\u202f',
);
const name = fc.oneof(
  fc
    .array(fc.oneof(fc.string({ maxLength: 6 }), special, fc.string({ unit: 'grapheme', maxLength: 3 })), {
      maxLength: 10,
    })
    .map((p) => p.join('')),
  fc.tuple(fc.integer({ min: 195, max: 205 }), fc.option(special)).map(([n, c]) => `${'a'.repeat(n)}${c ?? ''}`),
);

describe('caseName', () => {
  it("is the plain form's name on generated names", () => {
    fc.assert(
      fc.property(name, (value) => {
        expect(caseName(value)).toBe(plain(value));
      }),
      fcParameters(3000),
    );
  });
});
