// Which of an operation's result codes answers an issue (src/validation/resultCodeRules.ts): the
// index of each operation's table by the rule an issue breaks, built once, held against the plain
// form it replaces (the whole table scanned in order, first match wins) on generated pointers and
// rules: the pointers and rules the tables name, others, and names of Object.prototype.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CodeRule,
  codeRuleFor,
  codeRuleIndex,
  resultCodeFor,
  resultCodeRules,
} from '../../src/validation/resultCodeRules.js';
import { fcParameters } from '../helpers/arbitraries.js';

const OPERATIONS = [...Object.keys(resultCodeRules), 'toString', 'unknownOperation'];

/** The plain form: every rule of the operation's table in order, the first that matches. */
function plainRule(operationId: string, pointer: string, rule: string): CodeRule | undefined {
  const rules: readonly CodeRule[] = Object.hasOwn(resultCodeRules, operationId)
    ? (resultCodeRules[operationId as keyof typeof resultCodeRules] ?? [])
    : [];
  return rules.find((r) => (!r.pointer || r.pointer.test(pointer)) && (!r.rule || r.rule.includes(rule)));
}

const RULES = [
  'required',
  'requiredParameters',
  'type',
  'enum',
  'const',
  'discriminator',
  'pattern',
  'minLength',
  'maxLength',
  'additionalProperties',
  'queryMatchesBody',
  'constructor',
  '__proto__',
];
const POINTERS = [
  '',
  '/head',
  '/head/signature',
  '/head/signatureType',
  '/head/requestId',
  '/head/token',
  '/body',
  '/body/mid',
  '/body/orderId',
  '/body/txnAmount',
  '/body/txnAmount/currency',
  '/body/txnAmount/value',
  '/body/cardInfo',
  '/body/cardInfo/cardNumber',
  '/body/paymentMode',
  '/body/userInfo/custId',
  '/body/subscriptionFrequencyUnit',
  '/body/tokenInfo/tokenIndexNumber',
  '/mid',
  '/requestId',
];

describe('the result code of an issue', () => {
  it('is the first matching rule of the table, found through the index by rule', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OPERATIONS),
        fc.oneof(
          fc.constantFrom(...POINTERS),
          fc.string({ maxLength: 12 }).map((s) => `/body/${s}`),
        ),
        fc.oneof(fc.constantFrom(...RULES), fc.string({ maxLength: 8 })),
        (operationId, pointer, rule) => {
          const expected = plainRule(operationId, pointer, rule);
          expect(codeRuleFor(codeRuleIndex(operationId), pointer, rule)).toBe(expected);
          expect(resultCodeFor(operationId, { pointer, rule })).toEqual(
            expected && { code: expected.code, ...(expected.message ? { message: expected.message } : {}) },
          );
        },
      ),
      fcParameters(500),
    );
  });
});
