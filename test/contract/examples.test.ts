// Every named example of the contract validates against its operation's schema with a strict
// JSON Schema 2020-12 AJV, and every operation has the examples users rely on.
import { describe, expect, it } from 'vitest';
import { contractAjv, operationsOf, resolve } from '../helpers/contract.js';

const { doc, validator } = await contractAjv();

describe('named examples', () => {
  for (const { operationId, op } of operationsOf(doc)) {
    const sides = [
      ['request', op.requestBody.content['application/json']],
      ['response', op.responses['200'].content['application/json']],
    ] as const;
    for (const [direction, media] of sides) {
      const schemaName = media.schema.$ref.split('/').pop();
      const validate = validator(schemaName);
      for (const [name, ref] of Object.entries<any>(media.examples)) {
        it(`${operationId} ${direction} example "${name}" is valid`, () => {
          const example = resolve(doc, ref.$ref);
          expect(example.summary, 'summary').toBeTruthy();
          const ok = validate(example.value);
          expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
          expect(ok).toBe(true);
        });
      }
    }
  }

  it('every operation has a success request and response example, and failure examples', () => {
    for (const { operationId, op } of operationsOf(doc)) {
      const responses = Object.keys(op.responses['200'].content['application/json'].examples);
      expect(Object.keys(op.requestBody.content['application/json'].examples).length, operationId).toBeGreaterThan(0);
      expect(responses.length, operationId).toBeGreaterThanOrEqual(3);
    }
  });

  it('has failure examples for the outcomes of section 3.3 and the named failures', () => {
    const codesOf = (operationId: string) => {
      const op = operationsOf(doc).find((o) => o.operationId === operationId)!.op;
      return Object.values<any>(op.responses['200'].content['application/json'].examples).map((r) => {
        const body = resolve(doc, r.$ref).value.body;
        return body.resultInfo?.resultCode ?? body.statusCode;
      });
    };
    expect(codesOf('modifyOrder')).toEqual(expect.arrayContaining(['0000', '1111', '410', '201']));
    expect(codesOf('initiatePayment')).toEqual(expect.arrayContaining(['0000', '324', '410', '201']));
    expect(codesOf('preAuthorize')).toEqual(expect.arrayContaining(['01', '02', 'SR_1004', 'WM_1006']));
    expect(codesOf('tokenizeCard')).toEqual(expect.arrayContaining(['00', '412']));
    expect(codesOf('createSubscription')).toEqual(expect.arrayContaining(['0', '1102']));
    expect(codesOf('listSubscriptions')).toEqual(expect.arrayContaining(['3006', '200', '400']));
    expect(codesOf('notifyTokenStatus')).toEqual(expect.arrayContaining(['00']));
  });
});
