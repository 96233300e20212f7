// The strings a regular expression of the contract matches, when they are few: what an if/then rule's
// `pattern` allows, as a list of literal types (conditionalTypes.mjs, DECISIONS.md D-83).

/** Patterns that match more strings than this have no list of them. */
const MAX_CANDIDATES = 10_000;

/**
 * Every string a simple anchored pattern matches, shortest first, or undefined when the pattern is
 * not of the simple kind (literals, classes and `\d`, each at most `{m,n}` times, with `?`) or
 * matches more than MAX_CANDIDATES strings.
 * @param {string} pattern @returns {string[] | undefined}
 */
export function enumerate(pattern) {
  if (!pattern.startsWith('^') || !pattern.endsWith('$')) return undefined;
  const body = pattern.slice(1, -1);
  /** @type {{ chars: string[], min: number, max: number }[]} */
  const atoms = [];
  let i = 0;
  while (i < body.length) {
    /** @type {string[]} */
    let chars;
    if (body[i] === '[') {
      const end = body.indexOf(']', i);
      if (end < 0) return undefined;
      const inner = body.slice(i + 1, end);
      if (inner.startsWith('^') || inner.includes('\\')) return undefined;
      chars = [];
      for (let j = 0; j < inner.length; j++) {
        if (inner[j + 1] === '-' && j + 2 < inner.length) {
          for (let code = inner.charCodeAt(j); code <= inner.charCodeAt(j + 2); code++)
            chars.push(String.fromCharCode(code));
          j += 2;
        } else chars.push(inner[j]);
      }
      i = end + 1;
    } else if (body[i] === '\\' && body[i + 1] === 'd') {
      chars = [...'0123456789'];
      i += 2;
    } else if (/[A-Za-z0-9_ -]/.test(body[i])) {
      chars = [body[i]];
      i += 1;
    } else return undefined;
    let min = 1;
    let max = 1;
    const quantifier = /^(?:\{(\d+)(?:,(\d+))?\}|\?)/.exec(body.slice(i));
    if (quantifier) {
      if (quantifier[0] === '?') [min, max] = [0, 1];
      else [min, max] = [Number(quantifier[1]), Number(quantifier[2] ?? quantifier[1])];
      i += quantifier[0].length;
    }
    atoms.push({ chars: [...new Set(chars)], min, max });
  }
  /** @type {string[]} */
  let strings = [''];
  for (const { chars, min, max } of atoms) {
    /** @type {string[]} */
    const next = [];
    let run = [''];
    for (let n = 0; n <= max; n++) {
      if (n >= min) for (const s of strings) for (const r of run) next.push(s + r);
      if (next.length > MAX_CANDIDATES) return undefined;
      if (n < max) run = run.flatMap((r) => chars.map((ch) => r + ch));
      if (run.length > MAX_CANDIDATES) return undefined;
    }
    strings = next;
  }
  return [...new Set(strings)].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
}
