// Each contract pattern against hostile input: 100 000 characters that keep the regex busy, then
// one that makes it fail; the characters are single ones repeated, and texts the pattern itself
// matches, pumped (repeated). Reference: a linear scan of the same text by a one-character regex.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { nsPerOp } from './stats.mjs';

const doc = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8'));

function patternsOf(/** @type {any} */ node, /** @type {Set<string>} */ out = new Set()) {
  if (node && typeof node === 'object') {
    if (typeof node.pattern === 'string') out.add(node.pattern);
    if (node.patternProperties && typeof node.patternProperties === 'object')
      for (const key of Object.keys(node.patternProperties)) out.add(key);
    for (const v of Object.values(node)) patternsOf(v, out);
  }
  return out;
}

export async function patternFigures() {
  const figures = [];
  const inputs = ['0', 'a', 'A', '@', '.', ' ', '|'].map((c) => `${c.repeat(100_000)}\u0000`);
  // A linear scan of the whole text: what any regex that must look at every character costs.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a character no input holds, so the scan reads every one
  const scan = /\u0001/u;
  const reference = nsPerOp(() => scan.test(inputs[0]), { rounds: 3, roundMs: 30 });
  for (const source of patternsOf(doc)) {
    const regex = new RegExp(source, 'u');
    // Texts the pattern matches, repeated to 100 kB: they walk the pattern's own loops.
    const pumped = fc
      .sample(
        fc.stringMatching(regex).filter((t) => t.length > 0),
        { seed: 1, numRuns: 3 },
      )
      .map((t) => `${t.repeat(Math.ceil(100_000 / t.length))}\u0000`);
    let worst = null;
    for (const input of [...inputs, ...pumped]) {
      const m = nsPerOp(() => regex.test(input), { rounds: 3, roundMs: 20 });
      if (!worst || m.median > worst.median) worst = m;
    }
    figures.push({
      group: 'patterns',
      name: `worst case of ${source.length > 48 ? `${source.slice(0, 45)}...` : source} (100 kB)`,
      subject: worst,
      reference,
      ratio: {
        value: /** @type {any} */ (worst).median / reference.median,
        spread: /** @type {any} */ (worst).spread + reference.spread,
      },
      unit: 'ns',
    });
  }
  return figures;
}
