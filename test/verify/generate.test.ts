// The requests verify generates: valid drafts reach the contract's length bounds, amounts are
// written in the forms the contract takes, and the kinds of rule a draft's mutations break.
import formatsModule from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftArbitrary, rupees, SENT_OPERATIONS } from '../../src/verify/generate.js';
import { eachNode, mutationsOf } from '../../src/verify/mutations.js';
import { operationView } from '../../src/verify/operationSamples.js';
import { formatHolds } from '../../src/verify/schema.js';
import { edited } from '../helpers/arbitraries.js';

const fullFormats: Record<string, any> = (formatsModule as any).fullFormats;
/** ajv-formats' full verdict on a string, as the validators give it (generated/formats.js holds them to it). */
const fullHolds = (name: string, text: string): boolean => {
  const f = fullFormats[name];
  if (f instanceof RegExp) return f.test(text);
  if (typeof f === 'function') return f(text);
  return f.validate instanceof RegExp ? f.validate.test(text) : f.validate(text);
};

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
    expect([rupees(100, 0), rupees(150, 1), rupees(101, 1), rupees(10000, 2), rupees(9999, 0)]).toEqual([
      '1',
      '1.5',
      '1.01',
      '100.00',
      '99.99',
    ]);
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

describe("the generator's formats", () => {
  const samples: Record<string, fc.Arbitrary<string>> = {
    date: fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    'date-time': fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    email: fc.emailAddress(),
    uri: fc.webUrl({ withQueryParameters: true, withFragments: true }),
    ipv4: fc.ipV4(),
    ipv6: fc.ipV6(),
  };
  for (const [name, valid] of Object.entries(samples)) {
    it(`${name}: accept no string that the validators refuse, and most that they take`, () => {
      let taken = 0;
      let both = 0;
      fc.assert(
        fc.property(
          fc.oneof(valid, edited(valid, fc.constantFrom('-', ':', '.', 'T', 'Z', '%', '@', ' ', '9', 'a'), 12)),
          (text) => {
            const mine = formatHolds(name, text);
            const theirs = fullHolds(name, text);
            if (mine) expect(theirs, text).toBe(true);
            if (theirs) taken += 1;
            if (mine && theirs) both += 1;
          },
        ),
        { seed: 3, numRuns: 1000 },
      );
      expect(both * 10).toBeGreaterThan(taken * 8);
    });
  }
});
