// Type-level tests of the generated types: conditional shapes are real unions, the contract's
// if/then rules are compile errors when broken (each test names its rule in openapi/traceability.yaml),
// result codes narrow per operation. Checked by `vitest` (typecheck) and `npm run typecheck`.
import { describe, expectTypeOf, it } from 'vitest';
import { preAuthorizeRequest } from '../../generated/validators/preAuthorizeRequest.js';
import { preAuthorizeResponse } from '../../generated/validators/preAuthorizeResponse.js';
import { initiatePaymentRequest } from '../../generated/validators.js';
import type { BodyOf, RequestOf, ResponseOf, ResultCodeOf, Schemas } from '../../src/index.js';
import { validate } from '../../src/index.js';

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

  const head = { clientId: 'C11', signature: 'SIGNATURE' };
  const preAuth = { mid: 'M', orderId: 'O', txnAmount: '1.00', userInfo: { custId: 'C' } };

  it('R-4.3-sso-token: a BALANCE or SVC_DIGITAL_CREDIT pre-auth needs svcSsoToken', () => {
    const balance: RequestOf<'preAuthorize'> = { head, body: { ...preAuth, paymentMode: 'BALANCE', svcSsoToken: 'SSO' } };
    const credit: BodyOf<'preAuthorize'> = { ...preAuth, paymentMode: 'SVC_DIGITAL_CREDIT', svcSsoToken: 'SSO' };
    // @ts-expect-error a BALANCE pre-auth needs svcSsoToken
    const balanceWithout: RequestOf<'preAuthorize'> = { head, body: { ...preAuth, paymentMode: 'BALANCE' } };
    // @ts-expect-error a SVC_DIGITAL_CREDIT pre-auth needs svcSsoToken
    const creditWithout: BodyOf<'preAuthorize'> = { ...preAuth, paymentMode: 'SVC_DIGITAL_CREDIT' };
    // @ts-expect-error the schema's own type carries the rule too
    const schemaWithout: Schemas['PreAuthRequestBody'] = { ...preAuth, paymentMode: 'BALANCE' };
    void [balance, credit, balanceWithout, creditWithout, schemaWithout];
  });

  it('R-4.3-website-name: a UPI or card pre-auth needs websiteName; no payment mode needs neither field', () => {
    const upi: RequestOf<'preAuthorize'> = { head, body: { ...preAuth, paymentMode: 'UPI', websiteName: 'WEBSTAGING' } };
    const card: BodyOf<'preAuthorize'> = { ...preAuth, paymentMode: 'DEBIT_CARD', websiteName: 'WEBSTAGING' };
    const noMode: BodyOf<'preAuthorize'> = { ...preAuth, paymentMode: null };
    const absentMode: BodyOf<'preAuthorize'> = preAuth;
    // @ts-expect-error a UPI pre-auth needs websiteName
    const upiWithout: RequestOf<'preAuthorize'> = { head, body: { ...preAuth, paymentMode: 'UPI' } };
    // @ts-expect-error a CREDIT_CARD pre-auth needs websiteName
    const creditCardWithout: BodyOf<'preAuthorize'> = { ...preAuth, paymentMode: 'CREDIT_CARD' };
    // @ts-expect-error a DEBIT_CARD pre-auth needs websiteName
    const debitCardWithout: BodyOf<'preAuthorize'> = { ...preAuth, paymentMode: 'DEBIT_CARD', svcSsoToken: 'SSO' };
    void [upi, card, noMode, absentMode, upiWithout, creditCardWithout, debitCardWithout];
  });

  type Token = Schemas['CardTokenInfo'];
  const token = { cardToken: '4111111111111111', tokenExpiry: '122030', cardSuffix: '1111', panUniqueReference: 'V001' };
  const payToken = (cardTokenInfo: Token): RequestOf<'initiatePayment'>['body'] => ({
    mid: 'M',
    orderId: 'O',
    requestType: 'PAYMENT',
    paymentMode: 'DEBIT_CARD',
    cardInfo: { cardFlowType: 'CARD_TOKEN', cardUniqueId: '4111111111114321', cvv: '123', expiryMonth: '12', expiryYear: '2030', cardTokenInfo },
  });

  it('R-2.8-tavv: a token without TAVV is a COFT token', () => {
    const withTavv: Token = { ...token, TAVV: 'TAVV', tokenType: 'ALTERNATE' };
    const savedCard: Token = { ...token, tokenType: 'COFT', tokenUniqueReference: 'DNI1', merchantTokenRequestorId: 'R1' };
    // @ts-expect-error a guest-checkout token needs TAVV
    const alternateWithout: Token = { ...token, tokenType: 'ALTERNATE', tokenUniqueReference: 'DNI1', merchantTokenRequestorId: 'R1' };
    const body: RequestOf<'initiatePayment'>['body'] = {
      mid: 'M',
      orderId: 'O',
      requestType: 'PAYMENT',
      paymentMode: 'DEBIT_CARD',
      cardInfo: {
        cardFlowType: 'CARD_TOKEN',
        cardUniqueId: '4111111111114321',
        cvv: '123',
        expiryMonth: '12',
        expiryYear: '2030',
        // @ts-expect-error the rule holds inside a pay request's card
        cardTokenInfo: { ...token, tokenType: 'ALTERNATE', tokenUniqueReference: 'DNI1', merchantTokenRequestorId: 'R1' },
      },
    };
    void [withTavv, savedCard, alternateWithout, body, payToken(savedCard)];
  });

  it('R-2.8-token-unique-reference: a token without TAVV carries tokenUniqueReference', () => {
    // @ts-expect-error without TAVV, tokenUniqueReference is required
    const without: Token = { ...token, tokenType: 'COFT', merchantTokenRequestorId: 'R1' };
    const withTavv: Token = { ...token, tokenType: 'COFT', TAVV: 'TAVV', merchantTokenRequestorId: 'R1' };
    void [without, withTavv];
  });

  it('R-2.8-merchant-token-requestor-id: a token without TAVV carries merchantTokenRequestorId', () => {
    // @ts-expect-error without TAVV, merchantTokenRequestorId is required
    const without: Token = { ...token, tokenType: 'COFT', tokenUniqueReference: 'DNI1' };
    const withTavv: Token = { ...token, tokenType: 'COFT', TAVV: 'TAVV', tokenUniqueReference: 'DNI1' };
    void [without, withTavv];
  });

  type SubscriptionBody = BodyOf<'createSubscription'>;
  const subscription = {
    mid: 'M',
    orderId: 'O',
    requestType: 'SUBSCRIPTION',
    websiteName: 'WEBSTAGING',
    txnAmount: { value: '1.00', currency: 'INR' },
    userInfo: { custId: 'C' },
    subscriptionAmountType: 'FIX',
    subscriptionStartDate: '2026-02-01',
    subscriptionExpiryDate: '2027-01-31',
  } as const;

  it('R-4.7-ondemand-no-grace-days: an on-demand subscription takes no grace days', () => {
    const ondemand: SubscriptionBody = { ...subscription, subscriptionFrequencyUnit: 'ONDEMAND', subscriptionEnableRetry: '1' };
    const monthly: SubscriptionBody = { ...subscription, subscriptionFrequencyUnit: 'MONTH', subscriptionEnableRetry: '1', subscriptionGraceDays: '5' };
    // @ts-expect-error ONDEMAND takes no subscriptionGraceDays
    const withGrace: SubscriptionBody = { ...subscription, subscriptionFrequencyUnit: 'ONDEMAND', subscriptionEnableRetry: '1', subscriptionGraceDays: '1' };
    const request: RequestOf<'createSubscription'> = {
      head: { requestTimeStamp: '1768971330000', signature: 'S', channelId: 'WEB' },
      // @ts-expect-error the rule holds in the request envelope
      body: { ...subscription, subscriptionFrequencyUnit: 'ONDEMAND', subscriptionEnableRetry: '1', subscriptionGraceDays: '1' },
    };
    void [ondemand, monthly, withGrace, request];
  });

  const mandate = { ...subscription, subscriptionFrequencyUnit: 'MONTH', subscriptionPaymentMode: 'BANK_MANDATE' } as const;

  it('R-4.7-mandate-no-grace-days: an eNACH subscription takes no grace days', () => {
    const ok: SubscriptionBody = { ...mandate, subscriptionEnableRetry: '0' };
    // @ts-expect-error BANK_MANDATE takes no subscriptionGraceDays
    const withGrace: SubscriptionBody = { ...mandate, subscriptionEnableRetry: '0', subscriptionGraceDays: '1' };
    void [ok, withGrace];
  });

  it('R-4.7-mandate-no-retry-count: an eNACH subscription takes no retry count', () => {
    // @ts-expect-error BANK_MANDATE takes no subscriptionRetryCount
    const withCount: SubscriptionBody = { ...mandate, subscriptionEnableRetry: '0', subscriptionRetryCount: '2' };
    const upi: SubscriptionBody = { ...mandate, subscriptionPaymentMode: 'UPI', subscriptionEnableRetry: '1', subscriptionRetryCount: '2' };
    void [withCount, upi];
  });

  it('R-4.7-mandate-no-retry: an eNACH subscription has retry disabled', () => {
    // @ts-expect-error BANK_MANDATE needs subscriptionEnableRetry "0"
    const retrying: SubscriptionBody = { ...mandate, subscriptionEnableRetry: '1' };
    void retrying;
  });

  it('R-8-card-grace-days: a card subscription takes at most 3 grace days', () => {
    const card: SubscriptionBody = {
      ...subscription,
      subscriptionFrequencyUnit: 'MONTH',
      subscriptionPaymentMode: 'CC',
      subscriptionEnableRetry: '1',
      subscriptionGraceDays: '3',
    };
    const padded: SubscriptionBody = {
      ...subscription,
      subscriptionFrequencyUnit: 'MONTH',
      subscriptionPaymentMode: 'DC',
      subscriptionEnableRetry: '1',
      subscriptionGraceDays: '003',
    };
    // @ts-expect-error a card subscription takes at most 3 grace days
    const four: SubscriptionBody = {
      ...subscription,
      subscriptionFrequencyUnit: 'MONTH',
      subscriptionPaymentMode: 'DC',
      subscriptionEnableRetry: '1',
      subscriptionGraceDays: '4',
    };
    const upi: SubscriptionBody = {
      ...subscription,
      subscriptionFrequencyUnit: 'MONTH',
      subscriptionPaymentMode: 'UPI',
      subscriptionEnableRetry: '1',
      subscriptionGraceDays: '10',
    };
    void [card, padded, four, upi];
  });

  it('R-3.3-pre-auth-pending-txn-token: a pre-auth answered 02 carries txnToken', () => {
    const signed = { signature: 'S' };
    const pending: ResponseOf<'preAuthorize'> = { head: signed, body: { statusCode: '02', status: 'PENDING', txnToken: 'T' } };
    // @ts-expect-error a pending (02) pre-auth answer carries txnToken
    const pendingWithout: ResponseOf<'preAuthorize'> = { head: signed, body: { statusCode: '02', status: 'PENDING' } };
    const blocked: ResponseOf<'preAuthorize'> = { head: signed, body: { statusCode: '01', status: 'TXN_SUCCESS', blockedAmount: '1.00' } };
    const answer = {} as ResponseOf<'preAuthorize'>;
    if (answer.body.statusCode === '02') expectTypeOf(answer.body.txnToken).toEqualTypeOf<string>();
    else expectTypeOf(answer.body.txnToken).toEqualTypeOf<string | undefined>();
    void [pending, pendingWithout, blocked];
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

  it("a compiled validator's true proves the payload's generated type, conditional rules included", () => {
    const payload: unknown = JSON.parse('{}');
    if (preAuthorizeRequest(payload)) {
      expectTypeOf(payload).toEqualTypeOf<RequestOf<'preAuthorize'>>();
      // A BALANCE pre-auth that passed the validator carries its svcSsoToken: no further check.
      if (payload.body.paymentMode === 'BALANCE') expectTypeOf(payload.body.svcSsoToken).toEqualTypeOf<string>();
    }
    if (preAuthorizeResponse(payload) && payload.body.statusCode === '02') expectTypeOf(payload.body.txnToken).toEqualTypeOf<string>();
    if (initiatePaymentRequest(payload)) expectTypeOf(payload).toEqualTypeOf<RequestOf<'initiatePayment'>>();
  });
});
