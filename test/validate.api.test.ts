// The validation API: verdicts, pointers, rules, result codes and the named checks, on the
// contract's own examples and on payloads broken on purpose.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operations, validate } from '../src/index.js';

const doc = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8'));
const example = (name: string) => structuredClone(doc.components.examples[name].value);
const QUERY = { mid: 'MERCHANT0001', orderId: 'ORDER-1001' };

describe('validate()', () => {
  it('accepts every example of every operation in its direction', () => {
    for (const op of operations) {
      for (const [direction, side] of [
        ['request', op.request],
        ['response', op.response],
      ] as const) {
        for (const name of side.examples) {
          const media = (op.kind === 'webhook' ? doc.webhooks[op.webhook!] : doc.paths[op.path!]).post;
          const ref = (direction === 'request' ? media.requestBody : media.responses['200']).content['application/json'].examples[name].$ref;
          const value = structuredClone(doc.components.examples[ref.split('/').pop()].value);
          const query = value.body?.mid && value.body?.orderId ? { mid: value.body.mid, orderId: value.body.orderId } : undefined;
          const result = validate(op.operationId, direction, value, query && direction === 'request' ? { query } : {});
          expect(result, `${op.operationId} ${direction} ${name}`).toEqual({ valid: true });
        }
      }
    }
  });

  it('points at a missing conditional field, names its rule and the result code', () => {
    const pay = example('PayWithNetworkToken');
    delete pay.body.cardInfo.cardTokenInfo;
    const result = validate('initiatePayment', 'request', pay, { query: QUERY });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors).toEqual([
      expect.objectContaining({
        in: 'body',
        pointer: '/body/cardInfo/cardTokenInfo',
        rule: 'required',
        condition: 'Network token (CARD_TOKEN)',
        schemaPath: '#/components/schemas/CardInfo/oneOf/1/required',
        resultCode: '1007',
      }),
    ]);
    expect(result.resultCode).toEqual({ code: '1007', status: 'F', message: 'Missing mandatory element' });
  });

  it('compares the query with the body (2013, 2014)', () => {
    const pay = example('PayWithUpi');
    const mid = validate('initiatePayment', 'request', pay, { query: { ...QUERY, mid: 'OTHER' } });
    expect(!mid.valid && mid.errors.map((e) => [e.pointer, e.rule, e.resultCode])).toEqual([['/body/mid', 'queryMatchesBody', '2013']]);
    const order = validate('createSubscription', 'request', example('CreateFixedUpiSubscription'), { query: { mid: 'MERCHANT0001', orderId: 'OTHER' } });
    expect(!order.valid && order.errors.map((e) => [e.pointer, e.rule, e.resultCode])).toEqual([['/body/orderId', 'queryMatchesBody', '2014']]);
    const missing = validate('initiatePayment', 'request', pay, { query: { mid: 'MERCHANT0001' } });
    expect(!missing.valid && missing.errors.map((e) => [e.in, e.pointer, e.rule, e.resultCode])).toEqual([['query', '/orderId', 'requiredParameters', '1007']]);
  });

  it('keeps the first payment within the renewal amount for UPI and BANK_MANDATE', () => {
    const sub = example('CreateFixedUpiSubscription');
    sub.body.txnAmount.value = '300.00';
    const over = validate('createSubscription', 'request', sub);
    expect(!over.valid && over.errors.map((e) => [e.pointer, e.rule, e.resultCode])).toEqual([
      ['/body/txnAmount/value', 'firstPaymentWithinRenewalAmount', '2007'],
    ]);
    // The row of section 7.7 that says what is wrong: the first payment's amount, not a subscription in progress.
    expect(!over.valid && over.resultCode).toEqual({ code: '2007', status: 'F', message: 'Txn amount is invalid' });
    sub.body.txnAmount.value = '299';
    expect(validate('createSubscription', 'request', sub).valid).toBe(true);
    delete sub.body.renewalAmount; // renewalAmount defaults to txnAmount
    expect(validate('createSubscription', 'request', sub).valid).toBe(true);
    sub.body.subscriptionPaymentMode = 'CC';
    sub.body.renewalAmount = '1.00';
    expect(validate('createSubscription', 'request', sub).valid).toBe(true);
  });

  it('wants the expiry date after the start date', () => {
    const sub = example('CreateFixedUpiSubscription');
    sub.body.subscriptionExpiryDate = sub.body.subscriptionStartDate;
    const result = validate('createSubscription', 'request', sub);
    expect(!result.valid && result.errors.map((e) => e.rule)).toEqual(['expiryAfterStart']);
  });

  it('answers with the pre-auth codes of the description (801 to 806, 332)', () => {
    const cases: [(b: any) => void, string, string][] = [
      [(b) => delete b.body.orderId, '/body/orderId', '802'],
      [(b) => delete b.body.txnAmount, '/body/txnAmount', '803'],
      [(b) => delete b.head.signature, '/head/signature', '804'],
      [
        (b) => {
          b.body.paymentMode = 'UPI';
        },
        '/body/websiteName',
        '805',
      ],
      [(b) => delete b.body.userInfo.custId, '/body/userInfo/custId', '806'],
      [(b) => delete b.body.svcSsoToken, '/body/svcSsoToken', '801'],
      [
        (b) => {
          b.body.orderId = 'A'.repeat(51);
        },
        '/body/orderId',
        '332',
      ],
    ];
    for (const [breakIt, pointer, code] of cases) {
      const request = example('PreAuthWalletRequest');
      breakIt(request);
      const result = validate('preAuthorize', 'request', request);
      expect(result.valid, pointer).toBe(false);
      if (result.valid) continue;
      expect(
        result.errors.map((e) => [e.pointer, e.resultCode]),
        pointer,
      ).toContainEqual([pointer, code]);
      expect(result.resultCode?.code, pointer).toBe(code);
    }
  });

  it('answers the token-service codes: head missing 1006, signature type missing 1005, invalid 1400', () => {
    const tokenize = example('TokenizeCardRequest');
    const path = { mid: 'MERCHANT0001' };
    const headless = { body: tokenize.body };
    expect((validate('tokenizeCard', 'request', headless, { path }) as any).resultCode.code).toBe('1006');
    const noType = example('TokenizeCardRequest');
    delete noType.head.signatureType;
    expect((validate('tokenizeCard', 'request', noType, { path }) as any).resultCode.code).toBe('1005');
    const badType = example('TokenizeCardRequest');
    badType.head.signatureType = 'JWT';
    expect((validate('tokenizeCard', 'request', badType, { path }) as any).resultCode.code).toBe('1400');
    const otherMid = example('TokenizeCardRequest');
    otherMid.body.mid = 'OTHER';
    const mismatch = validate('tokenizeCard', 'request', otherMid, { path });
    expect(!mismatch.valid && mismatch.errors.map((e) => [e.rule, e.resultCode])).toEqual([['tokenizeMidMatchesPath', '407']]);
  });

  it('validates responses against their own table without result-code guesses', () => {
    const response = example('PaySucceeded');
    response.body.resultInfo.resultStatus = 'F';
    const result = validate('initiatePayment', 'response', response);
    expect(result.valid).toBe(false);
    expect(result.valid ? undefined : result.resultCode).toBeUndefined();
  });

  it('never puts a sensitive value into an error', () => {
    const pay = example('PayWithNetworkToken');
    pay.body.cardInfo.cardUniqueId = '4111111111111111x';
    pay.body.cardInfo.cvv = '98765';
    pay.body.cardInfo.cardTokenInfo.TAVV = 17;
    pay.head.token = 42;
    const text = JSON.stringify(validate('initiatePayment', 'request', pay, { query: QUERY }));
    for (const secret of ['4111111111111111', '98765', '17', '42']) expect(text).not.toContain(secret);
  });

  it('rejects non-object payloads with a clear error, and unknown operations with a TypeError', () => {
    for (const payload of [null, 'text', 42, [], true]) {
      const result = validate('modifyOrder', 'request', payload);
      expect(result.valid).toBe(false);
      expect(!result.valid && result.errors[0]).toMatchObject({ pointer: '', rule: 'type' });
    }
    expect(() => validate('pay' as any, 'request', {})).toThrow(TypeError);
    expect(() => validate('modifyOrder', 'both' as any, {})).toThrow(TypeError);
  });
});
