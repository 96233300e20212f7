// The step that gives the contract's if/then rules their types (scripts/lib/conditionalTypes.mjs,
// DECISIONS.md D-83): its rewrite leaves no if, means exactly what the contract means (the same
// verdict on every example, fixture, generated payload and single mutation of one), and it refuses
// every shape of conditional it cannot type exactly, naming where it is.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAjv, DOCUMENT_ID } from '../../scripts/lib/ajvBuild.mjs';
import { ABSENT, ConditionalTypeError, withTypedConditionals } from '../../scripts/lib/conditionalTypes.mjs';
import { buildTypes } from '../../scripts/lib/types.mjs';
import {
  applyMutation,
  type Direction,
  fcParameters,
  fcTimeout,
  mutationsOf,
  operationViews,
  sampleArbitrary,
} from '../helpers/arbitraries.js';
import { bundledContract, resolve } from '../helpers/contract.js';
import { loadFixtures } from '../helpers/fixtures.js';

const doc = await bundledContract();

/** Every node of a value that has `key`, with its pointer. */
function nodesWith(node: any, key: string, pointer = '#', found: string[] = []): string[] {
  if (node && typeof node === 'object') {
    if (!Array.isArray(node) && key in node) found.push(pointer);
    for (const [k, v] of Object.entries(node)) nodesWith(v, key, `${pointer}/${k}`, found);
  }
  return found;
}

/** The rewritten contract as JSON Schema: a forbidden property is `false` again. */
function asSchema(node: any): any {
  if (Array.isArray(node)) return node.map(asSchema);
  if (!node || typeof node !== 'object') return node;
  if (ABSENT in node) return false;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, asSchema(v)]));
}

const rewritten = asSchema(withTypedConditionals(doc));
const original = createAjv(doc);
const typed = createAjv(rewritten);
const schemaOf = (operationId: string, direction: Direction) =>
  operationViews.find((v) => v.operationId === operationId)!.schema(direction).$ref as string;
const verdicts = (ref: string, payload: unknown) => [
  original.getSchema(`${DOCUMENT_ID}${ref}`)!(payload),
  typed.getSchema(`${DOCUMENT_ID}${ref}`)!(payload),
];

describe('the typed conditionals', () => {
  it('leave no if in the types, and the contract itself untouched', () => {
    expect(nodesWith(doc.components.schemas, 'if').length).toBeGreaterThanOrEqual(7);
    expect(nodesWith(rewritten, 'if')).toEqual([]);
    expect(nodesWith(rewritten, 'then')).toEqual([]);
    expect(resolve(doc, '#/components/schemas/CardTokenInfo').if).toBeDefined();
  });

  it('mean what the contract means: the same verdict on every example and fixture', () => {
    const views = operationViews.flatMap((v) =>
      (['request', 'response'] as const).map((d) => ({ operationId: v.operationId, direction: d })),
    );
    let checked = 0;
    for (const [name, example] of Object.entries<any>(doc.components.examples))
      for (const { operationId, direction } of views) {
        const [a, b] = verdicts(schemaOf(operationId, direction), example.value);
        expect(b, `${name} as ${operationId} ${direction}`).toBe(a);
        checked++;
      }
    for (const f of loadFixtures()) {
      const [a, b] = verdicts(schemaOf(f.operationId, f.direction), f.payload);
      expect(b, f.file).toBe(a);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  for (const view of operationViews)
    for (const direction of ['request', 'response'] as const)
      it(
        `mean what the contract means on generated payloads and their mutations: ${view.operationId} ${direction}`,
        () => {
          const ref = view.schema(direction).$ref as string;
          fc.assert(
            fc.property(sampleArbitrary(view, direction), (sample) => {
              for (const payload of [
                sample.payload,
                ...mutationsOf(view, direction, sample).map((m) => applyMutation(sample, m).payload),
              ]) {
                const [a, b] = verdicts(ref, payload);
                if (a !== b)
                  throw new Error(
                    `the contract says ${a}, the typed schema ${b}: ${JSON.stringify(payload).slice(0, 2000)}`,
                  );
              }
            }),
            fcParameters(20),
          );
        },
        fcTimeout(20),
      );

  it('narrow a pattern to the strings it leaves: at most 3 grace days for cards', () => {
    const body = rewritten.components.schemas.CreateSubscriptionRequestBody;
    const cards = body.allOf
      .flatMap((m: any) => m.oneOf ?? [])
      .find((b: any) => b.properties.subscriptionPaymentMode?.enum?.includes('CC'));
    expect(cards.properties.subscriptionGraceDays.enum).toEqual([
      '0',
      '1',
      '2',
      '3',
      '00',
      '01',
      '02',
      '03',
      '000',
      '001',
      '002',
      '003',
    ]);
  });
});

describe('a conditional the types cannot carry exactly', () => {
  /** The contract with one conditional changed, and what the step says of it. */
  function refusal(at: string, change: (schema: any) => void): string {
    const copy = structuredClone(doc);
    change(resolve(copy, at));
    try {
      withTypedConditionals(copy);
    } catch (error) {
      expect(error).toBeInstanceOf(ConditionalTypeError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  }
  const preAuthGuard = '#/components/schemas/PreAuthRequestBody/allOf/0';

  it('is refused with the location of the part that has no exact type', () => {
    expect(refusal(preAuthGuard, (m) => (m.then.properties.svcSsoToken = { maxLength: 3 }))).toMatch(
      /^#\/components\/schemas\/PreAuthRequestBody\/allOf\/0\/then\/properties\/svcSsoToken: "maxLength" has no exact type/,
    );
    expect(refusal(preAuthGuard, (m) => (m.then.minProperties = 2))).toMatch(
      /^#\/components\/schemas\/PreAuthRequestBody\/allOf\/0\/then: "minProperties"/,
    );
    expect(refusal(preAuthGuard, (m) => (m.if.properties.paymentMode = { pattern: '^B' }))).toMatch(
      /^#\/components\/schemas\/PreAuthRequestBody\/allOf\/0\/if: only a guard/,
    );
    expect(refusal(preAuthGuard, (m) => (m.if.required = []))).toMatch(
      /^#\/components\/schemas\/PreAuthRequestBody\/allOf\/0\/if: only a guard/,
    );
    expect(refusal(preAuthGuard, (m) => (m.if = { anyOf: [{ required: ['svcSsoToken'] }] }))).toMatch(
      /allOf\/0\/if: only a guard/,
    );
    expect(refusal(preAuthGuard, (m) => (m.then.required = ['nowhere']))).toMatch(
      /allOf\/0\/then\/required: "nowhere" is not a property/,
    );
    expect(refusal(preAuthGuard, (m) => (m.minProperties = 1))).toMatch(
      /allOf\/0: an if beside other keywords \(minProperties\)/,
    );
    expect(refusal('#/components/schemas/CardTokenInfo', (s) => (s.if.not.required = ['TAVV', 'cardToken']))).toMatch(
      /^#\/components\/schemas\/CardTokenInfo\/if: only "not: \{required: \[one property\]\}"/,
    );
  });

  it('is refused when the values the if leaves out are not a finite list', () => {
    expect(
      refusal('#/components/schemas/PreAuthRequestBody', (s) => {
        s.properties.paymentMode = { type: 'string' };
      }),
    ).toMatch(/allOf\/0\/if: the values of "paymentMode" are not a finite list/);
  });

  it('is refused for a pattern with more strings than a short list', () => {
    expect(
      refusal('#/components/schemas/CreateSubscriptionRequestBody/allOf/2', (m) => {
        m.then.properties.subscriptionGraceDays.pattern = '^[0-9]+$';
      }),
    ).toMatch(
      /allOf\/2\/then\/properties\/subscriptionGraceDays: the strings matching "\^\[0-9\]\+\$" and "\^\[0-9\]\{1,3\}\$" are not a list of at most 64/,
    );
  });

  it('fails the generation of the types with that message', async () => {
    const copy = structuredClone(doc);
    resolve(copy, preAuthGuard).then.properties.svcSsoToken = { maxLength: 3 };
    await expect(buildTypes(copy, 'header')).rejects.toThrow(
      /PreAuthRequestBody\/allOf\/0\/then\/properties\/svcSsoToken/,
    );
  });
});
