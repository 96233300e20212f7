// Text in the JUnit report (src/report/junit.ts, xmlText): text that needs no escape is written as
// it is, and any other is the plain form's, the five entities escaped and each character XML 1.0
// cannot hold replaced; held to the plain form on generated text of every kind of character.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { xmlText } from '../../src/report/junit.js';
import { fcParameters } from '../helpers/arbitraries.js';

/** The plain form: every replacement applied to every text. */
const plain = (text: string) =>
  text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 cannot hold
    .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '?')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

const special = fc.constantFrom(
  '&',
  '<',
  '>',
  '"',
  "'",
  '\u0000',
  '\u0008',
  '\u000b',
  '\ufffe',
  '\uffff',
  '\ud800',
  '\udfff',
  '\t',
  '\n',
  '\r',
  '😀',
);
const text = fc
  .array(fc.oneof(fc.string({ unit: 'grapheme-composite', maxLength: 4 }), special, fc.string({ maxLength: 4 })), {
    maxLength: 12,
  })
  .map((parts) => parts.join(''));

describe('xmlText', () => {
  it("is the plain form's text on generated text, escaped or not", () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(xmlText(value)).toBe(plain(value));
      }),
      fcParameters(3000),
    );
  });

  it('writes plain text as it is and escapes the rest', () => {
    expect(xmlText('/body/mid pattern: "mid" has the wrong format.')).toBe(
      '/body/mid pattern: &quot;mid&quot; has the wrong format.',
    );
    expect(xmlText('case 12 — ünïcode ✓')).toBe('case 12 — ünïcode ✓');
    expect(xmlText("a\u0000b<c>&'")).toBe('a?b&lt;c&gt;&amp;&apos;');
  });
});
