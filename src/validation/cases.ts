// What a batch reads and how its cases are named: the defaults of validateMany's bounds, and a case's
// name as a report line may show it. Apart from validateMany, so that the command reads them
// without importing every operation's validators a second time (it imports those through
// `gateway-contract/validation`'s file, D-144).

export const BATCH_DEFAULTS = Object.freeze({ maxCases: 100_000, maxKeptIssues: 20_000 });

const NAME_LIMIT = 200;

/** The characters that set the direction of the text around them (embeddings, overrides, isolates, marks). */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
/** A character caseName replaces: a control character, a line or paragraph separator, or one of BIDI. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
const NOT_PLAIN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

/**
 * A name fit for one line of a report: no control characters, at most 200 characters. A
 * character that sets the direction of text is written as its escape (`\u202E`): shown as itself,
 * it reorders what a reader sees (`invoice_<U+202E>nosj.pdf` reads as a JSON file), in every
 * report format and on a terminal.
 */
export function caseName(name: string): string {
  // Most names (a file, `file:line`, `record 12`) need neither: they are kept as they are (for
  // bench/batch.mjs's JUnit target, 1 000 payloads to a report in at most 3x a bare start).
  if (name.length <= NAME_LIMIT && !NOT_PLAIN.test(name)) return name;
  const clean = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?')
    .replace(BIDI, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  return clean.length > NAME_LIMIT ? `${clean.slice(0, NAME_LIMIT - 3)}...` : clean;
}
