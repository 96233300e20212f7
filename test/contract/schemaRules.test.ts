// The change gate's table of schema rules (scripts/lib/schemaRules.mjs, DECISIONS.md D-45): every
// rule says what it reads, its class, why and where a decision says so; none is hidden behind the
// rules above it; a field that holds a secret never has its values in what a rule says. The gate's
// verdicts on edited contracts are in breaking.process.test.ts.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  classifySchemaChange,
  LEVELS,
  SCHEMA_RULES,
  type SchemaChange,
  schemaRuleOf,
} from '../../scripts/lib/schemaRules.mjs';
import { fcParameters } from '../helpers/arbitraries.js';

const SENDERS = ['merchant', 'service'] as const;
const ACTIONS = ['add', 'remove', 'replace', 'rename'] as const;
/** Every keyword a rule names, an extension, an annotation, and keywords no rule reads. */
const KEYWORDS = [
  'x-sensitive',
  'description',
  'deprecated',
  'readOnly',
  'properties',
  'required',
  'enum',
  'const',
  'type',
  'pattern',
  'format',
  'maxLength',
  'minimum',
  'additionalProperties',
  'unevaluatedItems',
  'oneOf',
  'anyOf',
  'allOf',
  'dependentRequired',
  'if',
  'then',
  'dependentSchemas',
  'not',
  'propertyNames',
  'default',
  'multipleOf',
  'items',
];
/** Values that tell the rules apart: absent, a pattern every string matches and one that does not, numbers, closed and open, types. */
const VALUES = [undefined, '', '^[0-9]+$', 1, 5, false, true, { type: 'string' }, 'string', ['string', 'null']];

/** Every combination of the above. */
function* everyChange(): Generator<SchemaChange> {
  for (const sender of SENDERS)
    for (const keyword of KEYWORDS)
      for (const action of ACTIONS)
        for (const before of VALUES)
          for (const after of VALUES)
            for (let flags = 0; flags < 16; flags += 1)
              yield {
                sender,
                keyword,
                action,
                before,
                after,
                item: (flags & 1) > 0,
                nested: (flags & 2) > 0,
                wasClosed: (flags & 4) > 0,
                required: (flags & 8) > 0,
              };
}

describe('the table of schema rules', () => {
  it('every rule says the change it reads, its class, why, and the decision that says so', () => {
    expect(new Set(SCHEMA_RULES.map((r) => r.change)).size).toBe(SCHEMA_RULES.length);
    for (const rule of SCHEMA_RULES) {
      expect(rule.change.length, rule.change).toBeGreaterThan(10);
      expect(rule.why.length, rule.change).toBeGreaterThan(10);
      expect(rule.source, rule.change).toMatch(/\bD-\d+\b/);
      if (rule.level === 'library') {
        expect(rule.source, rule.change).toContain('D-47');
      } else if (typeof rule.level === 'string') {
        expect(LEVELS, rule.change).toContain(rule.level);
      } else {
        // A class by direction: what narrows breaks what the merchant sends, what widens what they receive.
        expect([rule.level.merchant, rule.level.service].sort(), rule.change).toEqual(['breaking', 'notable']);
      }
    }
  });

  it('every rule decides some change: none is hidden behind the rules above it', () => {
    const reached = new Set<string>();
    for (const change of everyChange()) {
      const rule = schemaRuleOf(change);
      if (rule) reached.add(rule.change);
    }
    expect(SCHEMA_RULES.map((r) => r.change).filter((c) => !reached.has(c))).toEqual([]);
  });

  it('a field that holds a secret never has its values in what a rule says', () => {
    const secret = fc.string({ minLength: 1, maxLength: 12 }).map((s) => `SECRET${s}`);
    const value = fc.oneof(
      secret,
      fc.array(secret, { minLength: 1, maxLength: 3 }),
      fc.dictionary(fc.constantFrom('a', 'b'), secret),
      fc.constant(undefined),
    );
    const valueKeywords = [
      'enum',
      'const',
      'pattern',
      'format',
      'contentEncoding',
      'contentMediaType',
      'default',
      'properties',
      'oneOf',
      'allOf',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...SENDERS),
        fc.constantFrom(...valueKeywords),
        fc.constantFrom(...ACTIONS),
        value,
        value,
        fc.boolean(),
        fc.boolean(),
        (sender, keyword, action, before, after, item, nested) => {
          const verdict = classifySchemaChange({ sender, keyword, action, before, after, item, nested, secret: true });
          if (verdict === null) return;
          expect(LEVELS).toContain(verdict.level);
          expect(verdict.text).not.toContain('SECRET');
        },
      ),
      fcParameters(500),
    );
  });
});
