// Property-based conformance of validate() to the contract, for every operation and direction:
// payloads generated from the contract's own schemas are accepted, and each single mutation that
// breaks one rule is rejected with an error at the field it breaks (and nowhere unrelated).
// The seed is fixed; FC_SEED and FC_NUM_RUNS explore further (test/README.md).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import {
  applyMutation,
  type Direction,
  fcParameters,
  fcTimeout,
  type Mutation,
  mutationsOf,
  type OperationView,
  operationViews,
  ruleLocations,
  type Sample,
  sampleArbitrary,
} from '../helpers/arbitraries.js';

const DIRECTIONS: Direction[] = ['request', 'response'];
const cases = operationViews.flatMap((view) =>
  DIRECTIONS.map((direction) => ({ view, direction, name: `${view.operationId} ${direction}` })),
);

function verdict(view: OperationView, direction: Direction, sample: Sample) {
  return validate(view.operationId as any, direction, sample.payload, {
    ...(sample.query ? { query: sample.query } : {}),
    ...(sample.path ? { path: sample.path } : {}),
  });
}

/** One pointer is the other, or lies inside it. */
const related = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

/** Throws, with what went wrong, unless validate() rejects the mutated sample at the mutated field only. */
function expectRejected(view: OperationView, direction: Direction, sample: Sample, m: Mutation) {
  const result = verdict(view, direction, applyMutation(sample, m));
  const describeIt = () => `${m.kind} at ${m.in} ${m.pointer} (${m.rules[0]}) -> ${JSON.stringify(result)}`;
  if (result.valid) throw new Error(`accepted: ${describeIt()}`);
  if (!result.errors.some((e) => e.in === m.in && e.pointer === m.pointer))
    throw new Error(`no error at the field: ${describeIt()}`);
  const unrelated = result.errors.filter(
    (e) => !(e.in === m.in && related(e.pointer, m.pointer)) && e.rule !== 'moreProblems',
  );
  if (unrelated.length) throw new Error(`errors elsewhere: ${describeIt()}`);
}

describe('payloads generated from the contract', () => {
  it('cover every operation and the webhook, in both directions', () => {
    expect(cases.map((c) => c.name)).toHaveLength(14);
    expect(new Set(operationViews.map((v) => v.operationId))).toEqual(
      new Set([
        'tokenizeCard',
        'preAuthorize',
        'listSubscriptions',
        'initiatePayment',
        'modifyOrder',
        'createSubscription',
        'notifyTokenStatus',
      ]),
    );
  });

  for (const { view, direction, name } of cases) {
    it(
      `are valid: ${name}`,
      () => {
        fc.assert(
          fc.property(sampleArbitrary(view, direction), (sample) => {
            const result = verdict(view, direction, sample);
            if (!result.valid) throw new Error(`rejected: ${JSON.stringify(result.errors)}`);
          }),
          fcParameters(200),
        );
      },
      fcTimeout(200),
    );
  }
});

describe('single mutations of a valid payload', () => {
  for (const { view, direction, name } of cases) {
    it(
      `are rejected at the field they break: ${name}`,
      () => {
        const kinds = new Set<string>();
        fc.assert(
          fc.property(sampleArbitrary(view, direction), (sample) => {
            for (const m of mutationsOf(view, direction, sample)) {
              kinds.add(m.kind);
              expectRejected(view, direction, sample, m);
            }
          }),
          fcParameters(60),
        );
        // Every operation has closed or typed fields, mandatory fields and listed values to break.
        for (const kind of ['type', 'required', 'enum']) expect(kinds, kind).toContain(kind);
        if (direction === 'request') expect(kinds).toContain('unknownField');
      },
      fcTimeout(60),
    );
  }

  it('reach every pattern, format, length, closed object, key rule, mandatory field and conditional of the contract', () => {
    const { seed } = fcParameters(1);
    const missing: string[] = [];
    for (const { view, direction, name } of cases) {
      const expected = ruleLocations(view.schema(direction));
      const reached = new Set<string>();
      const pending = () =>
        [...expected].flatMap(([kind, places]) =>
          [...places].filter((p) => !reached.has(`${kind}@${p}`)).map((p) => `${kind}@${p}`),
        );
      // Samples until every rule has been broken once (bounded): rarer branches need more samples.
      for (let round = 0; round < 20 && pending().length; round++) {
        for (const sample of fc.sample(sampleArbitrary(view, direction), { seed: seed + round, numRuns: 25 })) {
          for (const m of mutationsOf(view, direction, sample)) {
            const fresh = m.rules.filter((r) => !reached.has(`${m.kind}@${r}`));
            if (!fresh.length) continue;
            expectRejected(view, direction, sample, m);
            for (const r of m.rules) reached.add(`${m.kind}@${r}`);
          }
        }
      }
      missing.push(...pending().map((p) => `${name}: ${p}`));
    }
    expect(missing).toEqual([]);
  });

  it('include the named checks and the parameters of the requests that have them', () => {
    const seen = new Map<string, Set<string>>();
    for (const view of operationViews) {
      const rules = new Set<string>();
      for (const sample of fc.sample(sampleArbitrary(view, 'request'), { seed: fcParameters(1).seed, numRuns: 60 })) {
        for (const m of mutationsOf(view, 'request', sample))
          if (m.kind === 'namedCheck' || m.kind === 'parameter') {
            rules.add(m.rules[0]);
            expectRejected(view, 'request', sample, m);
          }
      }
      seen.set(view.operationId, rules);
      expect([...rules].sort(), view.operationId).toEqual([...view.namedChecks].sort());
    }
    expect(seen.get('createSubscription')?.size).toBe(4);
  });
});
