// The copy of the contract the validators are compiled from (scripts/lib/ajvBuild.mjs,
// prepareDocument): under a discriminator, a branch's property whose schema is its object's own is
// left to the object (D-143). Held against the plain form, where each branch keeps it: the same
// verdicts and the same issues (pointer, rule, message, schema path, condition) on payloads generated
// from the contract of every operation and direction, valid and with each single rule broken,
// while the problems of a card's fields are found once instead of twice.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAjv, prepareDocument } from '../../scripts/lib/ajvBuild.mjs';
import { issuesFromAjv } from '../../src/validation/errors.js';
import {
  applyMutation,
  type Direction,
  fcParameters,
  fcTimeout,
  mutationsOf,
  type OperationView,
  operationViews,
  type Sample,
  sampleArbitrary,
} from '../helpers/arbitraries.js';

const contract = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const options = { allErrors: true, messages: false };
const dropped = createAjv(contract, options);
const repeated = createAjv(contract, options, undefined, { branchesRepeat: true });

function compiled(ajv: typeof dropped, schema: string) {
  const validator = ajv.getSchema(`openapi.json#/components/schemas/${schema}`);
  if (!validator) throw new Error(`${schema} is not compiled`);
  return validator;
}

/** The verdict and the issues of one payload under one form. */
function outcome(ajv: typeof dropped, schema: string, payload: unknown) {
  const validator = compiled(ajv, schema);
  const valid = validator(payload);
  const errors = validator.errors ?? [];
  return {
    valid,
    count: errors.length,
    issues: issuesFromAjv(errors, contract, `#/components/schemas/${schema}`, payload, Number.MAX_SAFE_INTEGER),
  };
}

/** The schema a view validates in one direction, by name. */
const schemaOf = (view: OperationView, direction: Direction) =>
  (view.schema(direction).$ref as string).split('/').pop() as string;

const cases = operationViews.flatMap((view) =>
  (['request', 'response'] as Direction[]).map((direction) => ({ view, direction, schema: schemaOf(view, direction) })),
);

describe("a discriminated branch leaves its object's own fields to the object", () => {
  it('drops exactly the properties a branch repeats from its object', () => {
    const plain = prepareDocument(contract, { branchesRepeat: true }).components.schemas;
    const prepared = prepareDocument(contract).components.schemas;
    const removed: string[] = [];
    for (const [name, schema] of Object.entries<any>(plain))
      (schema.oneOf ?? []).forEach((branch: any, i: number) => {
        for (const property of Object.keys(branch.properties ?? {}))
          if (!(property in (prepared[name].oneOf[i].properties ?? {}))) removed.push(`${name}.${property}`);
      });
    expect(removed).toEqual(
      expect.arrayContaining(['PaymentRequestBody.cardInfo', 'CreateSubscriptionRequestBody.subscriptionMaxAmount']),
    );
    // The tag of each branch and what it requires stay.
    expect(prepared.PaymentRequestBody.oneOf.map((b: any) => b.required)).toEqual(
      plain.PaymentRequestBody.oneOf.map((b: any) => b.required),
    );
  });

  for (const { view, direction, schema } of cases) {
    it(
      `gives the plain form's verdicts and issues: ${view.operationId} ${direction}`,
      () => {
        fc.assert(
          fc.property(sampleArbitrary(view, direction), (sample: Sample) => {
            for (const payload of [
              sample.payload,
              ...mutationsOf(view, direction, sample).map((m) => applyMutation(sample, m).payload),
            ]) {
              const mine = outcome(dropped, schema, payload);
              const plain = outcome(repeated, schema, payload);
              expect([mine.valid, mine.issues]).toEqual([plain.valid, plain.issues]);
            }
          }),
          fcParameters(40),
        );
      },
      fcTimeout(40),
    );
  }

  it('finds each problem of a card once', () => {
    const pay = operationViews.find((v) => v.operationId === 'initiatePayment');
    if (!pay) throw new Error('no pay operation');
    const [sample] = fc.sample(
      sampleArbitrary(pay, 'request').filter((s) => s.payload.body.paymentMode === 'CREDIT_CARD'),
      { seed: fcParameters(1).seed, numRuns: 1 },
    );
    const payload = structuredClone(sample?.payload);
    payload.body.cardInfo.unknownKey = 1;
    const mine = outcome(dropped, schemaOf(pay, 'request'), payload);
    const plain = outcome(repeated, schemaOf(pay, 'request'), payload);
    expect(mine.issues).toEqual(plain.issues);
    expect(mine.count).toBeLessThan(plain.count);
  });
});
