// The contract's patterns as the validators run them (scripts/lib/formats.mjs, patternRegExp): a
// pattern of the form `^[^...]+$` (printable text) is a loop over the text, any other a RegExp.
// Each of the contract's patterns gives the RegExp's verdict (the plain form, with the `u` flag AJV
// uses) on generated text: every range's edges and their neighbours, printable ASCII, astral
// characters, lone surrogates and the empty string.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { patternRegExp } from '../../scripts/lib/formats.mjs';
import { fcParameters } from '../helpers/arbitraries.js';

const contract = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));

function patternsOf(node: unknown, out = new Set<string>()): Set<string> {
  if (node && typeof node === 'object') {
    const { pattern } = node as { pattern?: unknown };
    if (typeof pattern === 'string') out.add(pattern);
    for (const value of Object.values(node)) patternsOf(value, out);
  }
  return out;
}
const patterns = [...patternsOf(contract)];
const looped = patterns.filter((p) => !(patternRegExp(p, 'u') instanceof RegExp));

/** Characters at and beside each edge of every range any looped pattern names, and a few others. */
const edges = looped.flatMap((p) =>
  [...p.matchAll(/\\u([0-9A-Fa-f]{4})/g)].flatMap(([, hex]) => {
    const code = Number.parseInt(hex ?? '0', 16);
    return [code - 1, code, code + 1].filter((c) => c >= 0 && c <= 0xffff).map((c) => String.fromCharCode(c));
  }),
);
const char = fc.oneof(
  fc.constantFrom(...edges, '\ud800', '\udfff', '\ud83d\ude00', '😀', '~', ' ', '\u007f'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
);
const text = fc.array(char, { maxLength: 8 }).map((parts) => parts.join(''));

describe('patterns as the validators run them', () => {
  it('loop the printable-text pattern of the contract, and leave every other pattern a RegExp', () => {
    expect(looped.length).toBeGreaterThan(0);
    for (const p of looped) expect(p.startsWith('^[^')).toBe(true);
    expect(patternRegExp('^[0-9]{10}$', 'u')).toBeInstanceOf(RegExp);
    // A range that reaches surrogates stays a RegExp: code points and UTF-16 units would differ there.
    expect(patternRegExp('^[^\\u0000-\\u001F\\uD800-\\uDFFF]+$', 'u')).toBeInstanceOf(RegExp);
  });

  it("give the RegExp's verdict on generated text, for every pattern of the contract", () => {
    const matchers = patterns.map((p) => [patternRegExp(p, 'u'), new RegExp(p, 'u')] as const);
    fc.assert(
      fc.property(text, (value) => {
        for (const [mine, plain] of matchers) expect([value, mine.test(value)]).toEqual([value, plain.test(value)]);
      }),
      fcParameters(3000),
    );
    for (const [mine, plain] of matchers) expect(mine.test('')).toBe(plain.test(''));
  });

  it('name the same pattern, so that AJV keeps one matcher per pattern', () => {
    for (const p of patterns) expect(String(patternRegExp(p, 'u'))).toBe(String(new RegExp(p, 'u')));
  });
});
