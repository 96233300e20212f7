// The validation API: verdicts, pointers, rules, result codes and the named checks, on the
// contract's own examples and on payloads broken on purpose.

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { namedChecks, validate } from '../../src/index.js';
import { amountInPaise } from '../../src/validation/amount.js';
import { fcParameters } from '../helpers/arbitraries.js';
import { contractExamples } from '../helpers/examples.js';

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const example = (name: string) => structuredClone(doc.components.examples[name].value);
const QUERY = { mid: 'MERCHANT0001', orderId: 'ORDER-1001' };

describe('validate()', () => {
  it('accepts every example of every operation in its direction, with the parameters a merchant sends', () => {
    for (const { operationId, direction, name, payload, query, path } of contractExamples()) {
      const result = validate(operationId, direction, payload, { query, path });
      expect(result, `${operationId} ${direction} ${name}`).toEqual({ valid: true });
    }
  });

  it('demands the required query and path parameters, unless told to judge the payload alone', () => {
    const pay = example('PayWithUpi');
    const none = validate('initiatePayment', 'request', pay);
    expect(!none.valid && none.errors.map((e) => [e.in, e.pointer, e.rule, e.resultCode])).toEqual([
      ['query', '/mid', 'requiredParameters', '1007'],
      ['query', '/orderId', 'requiredParameters', '1007'],
    ]);
    expect(!none.valid && none.resultCode?.code).toBe('1007');
    const tokenize = example('TokenizeCardRequest');
    const noPath = validate('tokenizeCard', 'request', tokenize, { query: { requestId: tokenize.head.requestId } });
    expect(!noPath.valid && noPath.errors.map((e) => [e.in, e.pointer, e.resultCode])).toEqual([
      ['path', '/mid', '1004'],
    ]);
    expect(validate('initiatePayment', 'request', pay, { parameters: false })).toEqual({ valid: true });
    // Given parameters are still compared with the body.
    const other = validate('initiatePayment', 'request', pay, { parameters: false, query: { mid: 'OTHER' } });
    expect(!other.valid && other.errors.map((e) => e.rule)).toEqual(['queryMatchesBody']);
    // Operations without parameters, and responses, are not concerned.
    expect(validate('preAuthorize', 'request', example('PreAuthWalletRequest')).valid).toBe(true);
    expect(validate('initiatePayment', 'response', example('PaySucceeded')).valid).toBe(true);
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
    expect(!mid.valid && mid.errors.map((e) => [e.pointer, e.rule, e.resultCode])).toEqual([
      ['/body/mid', 'queryMatchesBody', '2013'],
    ]);
    const order = validate('createSubscription', 'request', example('CreateFixedUpiSubscription'), {
      query: { mid: 'MERCHANT0001', orderId: 'OTHER' },
    });
    expect(!order.valid && order.errors.map((e) => [e.pointer, e.rule, e.resultCode])).toEqual([
      ['/body/orderId', 'queryMatchesBody', '2014'],
    ]);
    const missing = validate('initiatePayment', 'request', pay, { query: { mid: 'MERCHANT0001' } });
    expect(!missing.valid && missing.errors.map((e) => [e.in, e.pointer, e.rule, e.resultCode])).toEqual([
      ['query', '/orderId', 'requiredParameters', '1007'],
    ]);
  });

  it('keeps the first payment within the renewal amount for UPI and BANK_MANDATE', () => {
    const sub = example('CreateFixedUpiSubscription');
    sub.body.txnAmount.value = '300.00';
    const query = { mid: sub.body.mid, orderId: sub.body.orderId };
    const over = validate('createSubscription', 'request', sub, { query });
    expect(!over.valid && over.errors.map((e) => [e.pointer, e.rule, e.resultCode])).toEqual([
      ['/body/txnAmount/value', 'firstPaymentWithinRenewalAmount', '2007'],
    ]);
    // The row of section 7.7 that says what is wrong: the first payment's amount, not a subscription in progress.
    expect(!over.valid && over.resultCode).toEqual({ code: '2007', status: 'F', message: 'Txn amount is invalid' });
    sub.body.txnAmount.value = '299';
    expect(validate('createSubscription', 'request', sub, { query }).valid).toBe(true);
    delete sub.body.renewalAmount; // renewalAmount defaults to txnAmount
    expect(validate('createSubscription', 'request', sub, { query }).valid).toBe(true);
    sub.body.subscriptionPaymentMode = 'CC';
    sub.body.renewalAmount = '1.00';
    expect(validate('createSubscription', 'request', sub, { query }).valid).toBe(true);
  });

  it('compares amounts as the contract writes them, and only well-formed ones', () => {
    // The amounts of the contract (Amount): 0 or up to 12 digits without a leading zero, then 1 or 2 decimals.
    const AMOUNT = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,2})?$/;
    const hundredths = (a: string) => (AMOUNT.test(a) ? Math.round(Number(a) * 100) : null);
    const amounts = [
      '0',
      '1',
      '1.5',
      '1.50',
      '1.05',
      '10',
      '9.99',
      '0.01',
      '0.1',
      '999999999999.99',
      '999999999999.98',
      '01',
      '00',
      '1.',
      '.5',
      '1.234',
      '1e2',
      '+1',
      '-1',
      ' 1',
      '1 ',
      '',
      '1234567890123',
      '１',
    ];
    const check = namedChecks.firstPaymentWithinRenewalAmount;
    for (const first of amounts) {
      for (const renewal of amounts) {
        const payload = {
          body: { subscriptionPaymentMode: 'UPI', txnAmount: { value: first }, renewalAmount: renewal },
        };
        const a = hundredths(first);
        const b = hundredths(renewal);
        const expected = a !== null && b !== null && a > b ? ['firstPaymentWithinRenewalAmount'] : [];
        expect(
          check.run(payload, {}, { parameters: [] }).map((i) => i.rule),
          `${first} vs ${renewal}`,
        ).toEqual(expected);
      }
    }
  });

  it('wants the expiry date after the start date', () => {
    const sub = example('CreateFixedUpiSubscription');
    sub.body.subscriptionExpiryDate = sub.body.subscriptionStartDate;
    const result = validate('createSubscription', 'request', sub, { parameters: false });
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
    const query = { requestId: tokenize.head.requestId };
    const headless = { body: tokenize.body };
    expect((validate('tokenizeCard', 'request', headless, { path, query }) as any).resultCode.code).toBe('1006');
    const noType = example('TokenizeCardRequest');
    delete noType.head.signatureType;
    expect((validate('tokenizeCard', 'request', noType, { path, query }) as any).resultCode.code).toBe('1005');
    const badType = example('TokenizeCardRequest');
    badType.head.signatureType = 'JWT';
    expect((validate('tokenizeCard', 'request', badType, { path, query }) as any).resultCode.code).toBe('1400');
    const otherMid = example('TokenizeCardRequest');
    otherMid.body.mid = 'OTHER';
    const mismatch = validate('tokenizeCard', 'request', otherMid, { path, query });
    expect(!mismatch.valid && mismatch.errors.map((e) => [e.rule, e.resultCode])).toEqual([
      ['tokenizeMidMatchesPath', '407'],
    ]);
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

describe('amounts', () => {
  /** The plain form of amountInPaise: the contract's Amount pattern, then the number it spells. */
  const plain = (text: unknown): number | null => {
    const match = typeof text === 'string' ? /^(0|[1-9][0-9]{0,11})(?:\.([0-9]{1,2}))?$/.exec(text) : null;
    return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : null;
  };

  it('are read as whole paise exactly as the plain form reads them, and nothing else is an amount', () => {
    for (const text of [
      '0',
      '0.5',
      '0.05',
      '1.00',
      '299.00',
      '999999999999.99',
      '1000000000000',
      '01',
      '1.',
      '.5',
      '1.005',
      '-1',
      '1e3',
      ' 1',
      '1 ',
      '',
      '0x10',
    ])
      expect(amountInPaise(text), text).toBe(plain(text));
    expect(amountInPaise('999999999999.99')).toBe(99_999_999_999_999);
    expect(amountInPaise(12)).toBeNull();
    const amountLike = fc.stringMatching(/^-?[0-9]{0,14}(\.[0-9]{0,3})?$/);
    const anything = fc.string({ unit: fc.constantFrom(...'0123456789.-+e ٣'), maxLength: 18 });
    fc.assert(
      fc.property(fc.oneof(amountLike, anything), (text) => amountInPaise(text) === plain(text)),
      fcParameters(2000),
    );
  });
});
