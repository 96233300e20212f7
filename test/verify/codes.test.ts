// What verify shows of an answer's result code and status: the service's own words when they read
// like a code (at most 64 characters), never a long or strange text a faulty service put there.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../src/verify/checks.js';
import { stepLine } from '../../src/verify/report.js';
import type { Exchange } from '../../src/verify/types.js';
import { fcParameters } from '../helpers/arbitraries.js';

const answerWith = (resultCode: unknown, resultStatus: unknown) => ({
  head: {},
  body: { resultInfo: { resultCode, resultStatus, resultMsg: 'm' } },
});

describe('the code verify shows', () => {
  it('is the service code when it reads like one, and a word otherwise', () => {
    expect(codeOf('initiatePayment', answerWith('0000', 'S'))).toEqual({ code: '0000', status: 'S' });
    expect(codeOf('preAuthorize', { body: { statusCode: 'GE_1041', status: 'TXN_FAILURE' } })).toMatchObject({
      code: 'GE_1041',
    });
    expect(codeOf('initiatePayment', answerWith('4111111111111111'.repeat(5), 'S'))).toEqual({
      code: '<not a code>',
      status: 'S',
    });
    expect(codeOf('initiatePayment', answerWith(7, null))).toEqual({});
  });

  it('keeps every step line bounded, whatever the answer carries', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5000 }), fc.string({ maxLength: 5000 }), (code, status) => {
        const exchange: Exchange = {
          operationId: 'initiatePayment',
          note: 'pay',
          url: 'http://127.0.0.1/',
          requestHeaders: {},
          requestText: '{}',
          request: { head: {}, body: {} },
          started: 0,
          durationMs: 1,
          status: 200,
          answerHeaders: {},
          answerText: '',
          answer: answerWith(code, status),
        };
        const line = stepLine(exchange, 0);
        expect(line.length).toBeLessThan(200);
        if (code.length > 64) expect(line).not.toContain(code);
      }),
      fcParameters(200),
    );
  });
});
