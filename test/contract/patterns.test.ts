// Every `pattern` of the contract is free of catastrophic backtracking, as judged by recheck (a
// ReDoS checker), so that hostile input cannot stall a validator. Each pattern's worst case is
// timed in the benchmark (`npm run bench -- --only patterns`).

import formatsModule from 'ajv-formats/dist/formats.js';
import { checkSync } from 'recheck';
import { describe, expect, it } from 'vitest';
import { NAME_LIKE } from '../../src/json/pointer.js';
import { bundledContract, walk } from '../helpers/contract.js';

const doc = await bundledContract();
const patterns = new Map<string, string[]>();
const found = (pattern: string, pointer: string) => patterns.set(pattern, [...(patterns.get(pattern) ?? []), pointer]);
walk(doc, (node, pointer) => {
  // `pattern` wherever it stands (properties, items, if/then, propertyNames), and the keys of patternProperties.
  if (typeof node.pattern === 'string') found(node.pattern, pointer);
  if (node.patternProperties && typeof node.patternProperties === 'object')
    for (const key of Object.keys(node.patternProperties)) found(key, `${pointer}/patternProperties`);
});

describe('patterns', () => {
  it('exist in the contract', () => {
    expect(patterns.size).toBeGreaterThan(10);
  });

  for (const [pattern, where] of patterns) {
    it(`is safe from catastrophic backtracking: ${pattern}`, () => {
      const verdict = checkSync(pattern, 'u', { timeout: 10_000 });
      expect(
        verdict.status,
        `${where[0]}: ${JSON.stringify((verdict as any).attack ?? (verdict as any).error ?? '')}`,
      ).toBe('safe');
    });
  }

  it('include those inside conditionals and key rules', () => {
    const inConditionals = [...patterns.values()].flat().filter((p) => /\/(then|else|if)\//.test(p));
    expect(inConditionals.length).toBeGreaterThan(0);
    const keyRules = [...patterns.values()].flat().filter((p) => /\/(propertyNames|patternProperties)/.test(p));
    let expected = 0;
    walk(doc, (node) => {
      if (typeof node.propertyNames?.pattern === 'string') expected++;
      expected += Object.keys(node.patternProperties ?? {}).length;
    });
    expect(keyRules).toHaveLength(expected);
  });

  // The other regular expressions that meet untrusted text: the formats the contract uses that
  // ajv-formats checks with one regex, and the rule for showing a label (keys of a pointer are
  // looked up, never matched).
  const formats: Record<string, unknown> =
    (formatsModule as any).fullFormats ?? (formatsModule as any).default.fullFormats;
  const used = new Set<string>();
  walk(doc, (node) => {
    if (typeof node.format === 'string') used.add(node.format);
  });
  const others: [string, RegExp][] = [
    ...[...used]
      .filter((f) => formats[f] instanceof RegExp)
      .map((f): [string, RegExp] => [`format ${f}`, formats[f] as RegExp]),
    ['the rule for showing a label (NAME_LIKE)', NAME_LIKE],
  ];
  for (const [name, regex] of others) {
    it(`is safe from catastrophic backtracking: ${name}`, () => {
      expect(checkSync(regex.source, regex.flags, { timeout: 10_000 }).status).toBe('safe');
    });
  }

  it('recheck does flag a vulnerable pattern (the check can fail)', () => {
    expect(checkSync('^(a+)+$', '').status).toBe('vulnerable');
  });
});
