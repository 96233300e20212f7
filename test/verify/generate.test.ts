// The requests verify generates: valid drafts reach the contract's length bounds, amounts are
// written in the forms the contract takes, and the kinds of rule a draft's mutations break.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftArbitrary, rupees, SENT_OPERATIONS } from '../../src/verify/generate.js';
import { eachNode, mutationsOf } from '../../src/verify/mutations.js';
import { operationView } from '../../src/verify/operationSamples.js';

describe('the drafts of valid requests', () => {
  it('carry strings exactly at their maxLength and at their minLength', () => {
    const atMax = new Set<string>();
    const atMin = new Set<string>();
    const bounded = new Set<string>();
    for (const operationId of SENT_OPERATIONS) {
      const view = operationView(operationId);
      for (const draft of fc.sample(draftArbitrary(operationId), { seed: 1, numRuns: 150 })) {
        eachNode(view, 'request', draft.sample, ({ f, value, pointer }) => {
          if (typeof value !== 'string' || f.values || f.formats.length) return;
          const place = `${operationId} ${pointer.replace(/\/[0-9]+/g, '/*')}`;
          if (Number.isFinite(f.maxLength)) bounded.add(place);
          if ([...value].length === f.maxLength) atMax.add(place);
          if (f.minLength > 0 && [...value].length === f.minLength) atMin.add(place);
        });
      }
    }
    expect(bounded.size).toBeGreaterThan(5);
    // Most places with a maximum length meet it exactly in 150 drafts.
    expect(atMax.size * 2).toBeGreaterThan(bounded.size);
    expect(atMin.size).toBeGreaterThan(0);
  });

  it('write amounts as the contract takes them: whole rupees, one decimal or two', () => {
    expect([rupees(100, 0), rupees(150, 1), rupees(101, 1), rupees(10000, 2), rupees(9999, 0)]).toEqual(['1', '1.5', '1.01', '100.00', '99.99']);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 0, max: 2 }), (paise, decimals) => {
        const text = rupees(paise, decimals);
        expect(text).toMatch(/^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/);
        expect(Math.round(Number(text) * 100)).toBe(paise);
      }),
      { seed: 1, numRuns: 300 },
    );
  });

  it('have mutations of every kind of rule the contract states for a request', () => {
    const kinds = new Set<string>();
    for (const operationId of SENT_OPERATIONS)
      for (const draft of fc.sample(draftArbitrary(operationId), { seed: 2, numRuns: 10 }))
        for (const m of mutationsOf(operationView(operationId), 'request', draft.sample)) kinds.add(m.kind);
    expect([...kinds].sort()).toEqual(
      [
        'conditional',
        'enum',
        'format',
        'maxLength',
        'minLength',
        'namedCheck',
        'parameter',
        'pattern',
        'propertyNames',
        'required',
        'type',
        'unknownField',
      ].sort(),
    );
  });
});
