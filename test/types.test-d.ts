// Type-level tests of the generated types: conditional shapes are real unions, result codes narrow
// per operation. Checked by `vitest` (typecheck) and `npm run typecheck`.
import { describe, expectTypeOf, it } from 'vitest';
import type { RequestOf, ResponseOf, ResultCodeOf, Schemas } from '../src/index.js';
import { validate } from '../src/index.js';

describe('generated types', () => {
  it('a CARD_TOKEN card needs cardTokenInfo and expiry; a token-index card does not', () => {
    const tokenIndex: Schemas['CardInfo'] = { cardFlowType: 'TOKEN_INDEX_NO', cardUniqueId: 'TIN1', cvv: '123' };
    // @ts-expect-error cardTokenInfo is required for CARD_TOKEN
    const noTokenInfo: Schemas['CardInfo'] = {
      cardFlowType: 'CARD_TOKEN',
      cardUniqueId: '4111111111114321',
      cvv: '123',
      expiryMonth: '12',
      expiryYear: '2030',
    };
    // @ts-expect-error expiryMonth and expiryYear are required for NEW_CARD
    const newCardNoExpiry: Schemas['CardInfo'] = { cardFlowType: 'NEW_CARD', cardUniqueId: '4111111111111111', cvv: '123' };
    // @ts-expect-error not a card flow type
    const unknownFlow: Schemas['CardInfo'] = { cardFlowType: 'PAN', cardUniqueId: 'x', cvv: '123' };
    expectTypeOf(tokenIndex).toMatchTypeOf<Schemas['CardInfo']>();
    void noTokenInfo;
    void newCardNoExpiry;
    void unknownFlow;
  });

  it('a pay body requires the instrument of its payment mode', () => {
    type Body = RequestOf<'initiatePayment'>['body'];
    const upi: Body = { mid: 'M', orderId: 'O', requestType: 'PAYMENT', paymentMode: 'UPI', payerAccount: 'a@upi' };
    // @ts-expect-error UPI needs payerAccount
    const upiWithout: Body = { mid: 'M', orderId: 'O', requestType: 'PAYMENT', paymentMode: 'UPI' };
    // @ts-expect-error WALLET needs walletInfo
    const walletWithout: Body = { mid: 'M', orderId: 'O', requestType: 'PAYMENT', paymentMode: 'WALLET' };
    void upi;
    void upiWithout;
    void walletWithout;
  });

  it('each envelope is named <OperationId>Request or <OperationId>Response; the old names are the same types (D-79)', () => {
    expectTypeOf<Schemas['InitiatePaymentRequest']>().toEqualTypeOf<RequestOf<'initiatePayment'>>();
    expectTypeOf<Schemas['InitiatePaymentResponse']>().toEqualTypeOf<ResponseOf<'initiatePayment'>>();
    expectTypeOf<Schemas['PreAuthorizeRequest']>().toEqualTypeOf<RequestOf<'preAuthorize'>>();
    expectTypeOf<Schemas['PreAuthorizeResponse']>().toEqualTypeOf<ResponseOf<'preAuthorize'>>();
    // Deprecated aliases until the next major version of the contract: a merchant's code that names them compiles.
    expectTypeOf<Schemas['PaymentRequest']>().toEqualTypeOf<Schemas['InitiatePaymentRequest']>();
    expectTypeOf<Schemas['PaymentResponse']>().toEqualTypeOf<Schemas['InitiatePaymentResponse']>();
    expectTypeOf<Schemas['PreAuthRequest']>().toEqualTypeOf<Schemas['PreAuthorizeRequest']>();
    expectTypeOf<Schemas['PreAuthResponse']>().toEqualTypeOf<Schemas['PreAuthorizeResponse']>();
  });

  it('result codes narrow per operation', () => {
    expectTypeOf<ResultCodeOf<'modifyOrder'>>().toEqualTypeOf<
      '0000' | '1006' | '501' | '2013' | '2014' | '1011' | '2222' | '1001' | '1012' | '1111' | '2007' | '410' | '201'
    >();
    expectTypeOf<'1111'>().toMatchTypeOf<ResultCodeOf<'modifyOrder'>>();
    expectTypeOf<'1111'>().not.toMatchTypeOf<ResultCodeOf<'initiatePayment'>>();
    expectTypeOf<'SR_1004'>().toMatchTypeOf<ResultCodeOf<'preAuthorize'>>();
    type PayCode = ResponseOf<'initiatePayment'>['body']['resultInfo']['resultCode'];
    expectTypeOf<PayCode>().toEqualTypeOf<ResultCodeOf<'initiatePayment'>>();
  });

  it('a response result narrows its status by its code', () => {
    type Info = ResponseOf<'createSubscription'>['body']['resultInfo'];
    const info = {} as Info;
    if (info.resultCode === '1102') expectTypeOf(info.resultStatus).toEqualTypeOf<'TXN_FAILURE'>();
    if (info.resultCode === '0') expectTypeOf(info.resultStatus).toEqualTypeOf<'S'>();
  });

  it('validate() types its result code by operation', () => {
    const result = validate('modifyOrder', 'request', {});
    if (!result.valid && result.resultCode) expectTypeOf(result.resultCode.code).toEqualTypeOf<ResultCodeOf<'modifyOrder'>>();
  });
});
