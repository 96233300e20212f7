// Each format the validators check with our own code (generated/formats.js, docs/decisions.md D-62)
// alone, against ajv-formats' full check of the same text, in the same rounds: a typical valid
// value of the contract's examples and a typical refused one.
import { fullFormats as full } from 'ajv-formats/dist/formats.js';
import { exactFormats as exact } from '../generated/formats.js';
import { pairedNsPerOp } from './stats.mjs';

const exactFormats = /** @type {Record<string, any>} */ (exact);
const fullFormats = /** @type {Record<string, any>} */ (full);

/** A format as a function of the text. @param {any} f @returns {(s: string) => boolean} */
const check = (f) =>
  typeof f === 'function'
    ? f
    : f instanceof RegExp
      ? (s) => f.test(s)
      : typeof f.validate === 'function'
        ? f.validate
        : (s) => f.validate.test(s);

/** @type {[string, string, boolean][]} */
const CASES = [
  ['date', '2026-02-01', true],
  ['date', '2026-02-30', false],
  ['date-time', '2026-01-21T10:15:30+05:30', true],
  ['time', '10:15:30.123Z', true],
  ['uri', 'https://merchant.example.com/subscription/callback', true],
  ['uri', 'https://merchant.example.com/a b', false],
  ['ipv6', '2001:db8::1', true],
  ['ipv6', '203.0.113.10', false],
];

export function formatFigures() {
  return CASES.map(([name, text, valid]) => {
    const ours = check(exactFormats[name]);
    const theirs = check(fullFormats[name]);
    if (ours(text) !== valid || theirs(text) !== valid) throw new Error(`${name} ${text}: not the expected verdict`);
    const m = pairedNsPerOp(
      () => ours(text),
      () => theirs(text),
      { rounds: 7, roundMs: 30 },
    );
    return {
      group: 'formats',
      name: `${name}, ${valid ? 'valid' : 'refused'} ${JSON.stringify(text)}: ours vs ajv-formats full`,
      ...m,
      unit: 'ns',
      target: 'measured only',
    };
  });
}
