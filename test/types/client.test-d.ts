// Type-level tests of the typed client and the webhook helpers: results narrow on each operation's
// own codes, requests keep the contract's conditional shapes, the receiver's verdict narrows to a
// typed event. Checked by `vitest` (typecheck) and `npm run typecheck`; never executed.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  CallResult,
  ClientOperationId,
  GatewayClient,
  GatewayError,
  GatewayNetworkError,
  GatewayTimeoutError,
  NextStep,
  NextStepAction,
  RawAnswer,
  RequestValidationError,
  ResultCodeOf,
  Schemas,
  SendTokenNotificationResult,
  TokenStatusEvent,
  TokenStatusReply,
  ValidationIssue,
  WebhookReceiver,
  WebhookVerdict,
} from '../../src/index.js';
import { createChecksumSigner, createChecksumVerifier, createGatewayClient, createWebhookReceiver, sendTokenNotification } from '../../src/index.js';

declare const client: GatewayClient;
declare const receiver: WebhookReceiver;
type PayBody = Parameters<GatewayClient['initiatePayment']>[0]['body'];

describe('the typed client', () => {
  it('has one method per operation of the index, and no other', () => {
    expectTypeOf<keyof GatewayClient>().toEqualTypeOf<ClientOperationId>();
  });

  it("narrows initiatePayment's result code to the pay table", () => {
    type Result = Awaited<ReturnType<GatewayClient['initiatePayment']>>;
    expectTypeOf<Result['code']>().toEqualTypeOf<ResultCodeOf<'initiatePayment'>>();
    expectTypeOf<Result['code']>().toEqualTypeOf<
      '0000' | '501' | '2013' | '2014' | '1001' | '1010' | '1006' | '1007' | '2006' | '1011' | '2222' | '1012' | '312' | '9999' | '324' | '317' | '410' | '201'
    >();
    expectTypeOf<'1111'>().not.toMatchTypeOf<Result['code']>();
    expectTypeOf<Result['data']['body']['resultInfo']['resultCode']>().toEqualTypeOf<ResultCodeOf<'initiatePayment'>>();
  });

  it('narrows outcome and code together', () => {
    const pay = {} as CallResult<'initiatePayment'>;
    if (pay.outcome === 'success') expectTypeOf(pay.code).toEqualTypeOf<'0000'>();
    if (pay.code === '201') expectTypeOf(pay.outcome).toEqualTypeOf<'failure'>();
    expectTypeOf(pay.outcome).toEqualTypeOf<'success' | 'failure'>();
    const preAuth = {} as CallResult<'preAuthorize'>;
    if (preAuth.outcome === 'pending') expectTypeOf(preAuth.code).toEqualTypeOf<'02'>();
    if (preAuth.outcome === 'success') expectTypeOf(preAuth.code).toEqualTypeOf<'01'>();
    const tokenize = {} as CallResult<'tokenizeCard'>;
    if (tokenize.code === '00') expectTypeOf(tokenize.status).toEqualTypeOf<'SUCCESS'>();
  });

  it('narrows the next step with the code and the outcome', () => {
    const pay = {} as CallResult<'initiatePayment'>;
    if (pay.code === '201') expectTypeOf(pay.nextStep.action).toEqualTypeOf<'already-paid'>();
    if (pay.code === '1006') expectTypeOf(pay.nextStep.action).toEqualTypeOf<'new-txn-token'>();
    if (pay.outcome === 'success') expectTypeOf(pay.nextStep).toEqualTypeOf<{ action: 'none'; decision: 'D-52' }>();
    expectTypeOf(pay.nextStep.action).toMatchTypeOf<NextStepAction>();
    const preAuth = {} as CallResult<'preAuthorize'>;
    if (preAuth.code === 'SR_1004') {
      expectTypeOf(preAuth.nextStep.action).toEqualTypeOf<'query-status'>();
      expectTypeOf(preAuth.nextStep.source).toBeString();
    }
    if (preAuth.code === 'WM_1006') expectTypeOf(preAuth.nextStep.action).toEqualTypeOf<'retry-new-order-id'>();
    // @ts-expect-error a pay code never asks for a new order id
    if (pay.nextStep.action === 'retry-new-order-id') void pay;
    expectTypeOf(pay.raw).toEqualTypeOf<RawAnswer>();
    expectTypeOf(pay.raw.headers).toEqualTypeOf<Readonly<Record<string, string>>>();
    expectTypeOf(pay.httpStatus).toEqualTypeOf<number>();
  });

  it("types each error's next step by what it can be", () => {
    expectTypeOf<RequestValidationError['nextStep']['action']>().toEqualTypeOf<'fix-request'>();
    expectTypeOf<GatewayTimeoutError['nextStep']['action']>().toEqualTypeOf<'query-status' | 'retry-later'>();
    expectTypeOf<GatewayNetworkError['sent']>().toEqualTypeOf<'no' | 'maybe'>();
    expectTypeOf<GatewayError['nextStep']>().toEqualTypeOf<NextStep>();
  });

  it('takes retries, hooks and a logger, all optional', () => {
    createGatewayClient({
      gatewayUrl: 'https://gateway.example',
      routerUrl: 'https://router.example',
      retry: { retries: 3, baseDelayMs: 50, maxDelayMs: 1000, jitter: true, maxElapsedMs: undefined },
      onRequest: (e) => expectTypeOf(e.operationId).toEqualTypeOf<ClientOperationId>(),
      onResponse: (e) => {
        expectTypeOf(e.code).toEqualTypeOf<string | null>();
        expectTypeOf(e.nextStep.action).toEqualTypeOf<NextStepAction>();
        expectTypeOf(e.durationMs).toEqualTypeOf<number>();
      },
      onError: (e) => expectTypeOf(e.error).toEqualTypeOf<GatewayError>(),
      logger: console,
    });
    createGatewayClient({ gatewayUrl: 'https://gateway.example', routerUrl: 'https://router.example', retry: true, logger: undefined });
    // @ts-expect-error retries is a number
    createGatewayClient({ gatewayUrl: 'https://gateway.example', routerUrl: 'https://router.example', retry: { retries: 'many' } });
  });

  it('keeps the card flow shapes in a client call', () => {
    const mid = 'MERCHANT0001';
    const orderId = 'ORDER-1001';
    const tokenIndex: PayBody = {
      mid,
      orderId,
      requestType: 'PAYMENT',
      paymentMode: 'CREDIT_CARD',
      cardInfo: { cardFlowType: 'TOKEN_INDEX_NO', cardUniqueId: 'TIN1', cvv: '123' },
    };
    void client.initiatePayment({ txnToken: 'TXN', body: tokenIndex });
    const withoutTokenInfo = { cardFlowType: 'CARD_TOKEN', cardUniqueId: '4111111111114321', cvv: '123', expiryMonth: '12', expiryYear: '2030' } as const;
    // @ts-expect-error a CARD_TOKEN card needs cardTokenInfo
    void client.initiatePayment({ txnToken: 'TXN', body: { mid, orderId, requestType: 'PAYMENT', paymentMode: 'CREDIT_CARD', cardInfo: withoutTokenInfo } });
    // @ts-expect-error a credit card payment needs cardInfo
    void client.initiatePayment({ txnToken: 'TXN', body: { mid, orderId, requestType: 'PAYMENT', paymentMode: 'CREDIT_CARD' } });
    // @ts-expect-error initiatePayment needs the order's transaction token
    void client.initiatePayment({ body: tokenIndex });
    expectTypeOf<Schemas['CardInfo']>().toMatchTypeOf<NonNullable<Extract<PayBody, { paymentMode: 'CREDIT_CARD' }>['cardInfo']>>();
  });

  const preAuth = { mid: 'M', orderId: 'O', txnAmount: '1.00', userInfo: { custId: 'C' } };

  it('R-4.3-sso-token: a BALANCE or SVC_DIGITAL_CREDIT pre-auth call needs svcSsoToken', () => {
    void client.preAuthorize({ body: { ...preAuth, paymentMode: 'BALANCE', svcSsoToken: 'SSO' } });
    // @ts-expect-error a BALANCE pre-auth needs svcSsoToken
    void client.preAuthorize({ body: { ...preAuth, paymentMode: 'BALANCE' } });
    // @ts-expect-error a SVC_DIGITAL_CREDIT pre-auth needs svcSsoToken
    void client.preAuthorize({ body: { ...preAuth, paymentMode: 'SVC_DIGITAL_CREDIT' } });
  });

  it('R-4.3-website-name: a UPI or card pre-auth call needs websiteName', () => {
    void client.preAuthorize({ body: { ...preAuth, paymentMode: 'UPI', websiteName: 'WEBSTAGING' } });
    void client.preAuthorize({ body: { ...preAuth, paymentMode: null } });
    // @ts-expect-error a UPI pre-auth needs websiteName
    void client.preAuthorize({ body: { ...preAuth, paymentMode: 'UPI' } });
    // @ts-expect-error a CREDIT_CARD pre-auth needs websiteName
    void client.preAuthorize({ body: { ...preAuth, paymentMode: 'CREDIT_CARD' } });
  });

  const token = { cardToken: '4111111111111111', tokenExpiry: '122030', cardSuffix: '1111', panUniqueReference: 'V001' };
  const card = { cardFlowType: 'CARD_TOKEN', cardUniqueId: '4111111111114321', cvv: '123', expiryMonth: '12', expiryYear: '2030' } as const;
  const pay = { mid: 'M', orderId: 'O', requestType: 'PAYMENT', paymentMode: 'DEBIT_CARD' } as const;

  it('R-2.8-tavv, R-2.8-token-unique-reference, R-2.8-merchant-token-requestor-id: a network token call without TAVV is a COFT token with both references', () => {
    const refs = { tokenUniqueReference: 'DNI1', merchantTokenRequestorId: 'R1' };
    void client.initiatePayment({ txnToken: 'T', body: { ...pay, cardInfo: { ...card, cardTokenInfo: { ...token, tokenType: 'COFT', ...refs } } } });
    void client.initiatePayment({ txnToken: 'T', body: { ...pay, cardInfo: { ...card, cardTokenInfo: { ...token, tokenType: 'ALTERNATE', TAVV: 'TAVV' } } } });
    // @ts-expect-error R-2.8-tavv: a guest-checkout token needs TAVV
    void client.initiatePayment({ txnToken: 'T', body: { ...pay, cardInfo: { ...card, cardTokenInfo: { ...token, tokenType: 'ALTERNATE', ...refs } } } });
    const withoutReference = { ...token, tokenType: 'COFT', merchantTokenRequestorId: 'R1' } as const;
    const withoutRequestor = { ...token, tokenType: 'COFT', tokenUniqueReference: 'DNI1' } as const;
    // @ts-expect-error R-2.8-token-unique-reference: without TAVV, tokenUniqueReference is required
    void client.initiatePayment({ txnToken: 'T', body: { ...pay, cardInfo: { ...card, cardTokenInfo: withoutReference } } });
    // @ts-expect-error R-2.8-merchant-token-requestor-id: without TAVV, merchantTokenRequestorId is required
    void client.initiatePayment({ txnToken: 'T', body: { ...pay, cardInfo: { ...card, cardTokenInfo: withoutRequestor } } });
  });

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
    subscriptionFrequencyUnit: 'MONTH',
  } as const;

  it('R-4.7-ondemand-no-grace-days: an on-demand subscription call takes no grace days', () => {
    void client.createSubscription({ body: { ...subscription, subscriptionFrequencyUnit: 'ONDEMAND', subscriptionEnableRetry: '1' } });
    const ondemand = { ...subscription, subscriptionFrequencyUnit: 'ONDEMAND', subscriptionEnableRetry: '1' } as const;
    // @ts-expect-error ONDEMAND takes no subscriptionGraceDays
    void client.createSubscription({ body: { ...ondemand, subscriptionGraceDays: '1' } });
  });

  it('R-4.7-mandate-no-grace-days, R-4.7-mandate-no-retry-count, R-4.7-mandate-no-retry: an eNACH subscription call takes no grace days and no retry', () => {
    const mandate = { ...subscription, subscriptionPaymentMode: 'BANK_MANDATE' } as const;
    void client.createSubscription({ body: { ...mandate, subscriptionEnableRetry: '0' } });
    // @ts-expect-error R-4.7-mandate-no-grace-days
    void client.createSubscription({ body: { ...mandate, subscriptionEnableRetry: '0', subscriptionGraceDays: '1' } });
    // @ts-expect-error R-4.7-mandate-no-retry-count
    void client.createSubscription({ body: { ...mandate, subscriptionEnableRetry: '0', subscriptionRetryCount: '1' } });
    // @ts-expect-error R-4.7-mandate-no-retry
    void client.createSubscription({ body: { ...mandate, subscriptionEnableRetry: '1' } });
  });

  it('R-8-card-grace-days: a card subscription call takes at most 3 grace days', () => {
    void client.createSubscription({ body: { ...subscription, subscriptionPaymentMode: 'CC', subscriptionEnableRetry: '1', subscriptionGraceDays: '3' } });
    // @ts-expect-error a card subscription takes at most 3 grace days
    void client.createSubscription({ body: { ...subscription, subscriptionPaymentMode: 'CC', subscriptionEnableRetry: '1', subscriptionGraceDays: '4' } });
  });

  it('R-3.3-pre-auth-pending-txn-token: a pre-auth result narrowed to 02 carries txnToken', async () => {
    const result = await client.preAuthorize({ body: { ...preAuth, paymentMode: 'UPI', websiteName: 'WEBSTAGING' } });
    if (result.code === '02') {
      expectTypeOf(result.data.body.txnToken).toEqualTypeOf<string>();
      expectTypeOf(result.data.body.statusCode).toEqualTypeOf<'02'>();
    }
    if (result.outcome === 'pending') expectTypeOf(result.data.body.txnToken).toEqualTypeOf<string>();
    if (result.code === '01') expectTypeOf(result.data.body.txnToken).toEqualTypeOf<string | undefined>();
    const paid = {} as CallResult<'initiatePayment'>;
    if (paid.code === '0000') expectTypeOf(paid.data.body.resultInfo.resultCode).toEqualTypeOf<'0000'>();
  });

  it('takes its options typed', () => {
    expectTypeOf(createGatewayClient).parameter(0).toHaveProperty('gatewayUrl').toEqualTypeOf<string>();
    // @ts-expect-error routerUrl is required
    createGatewayClient({ gatewayUrl: 'https://gateway.example' });
  });
});

describe('the webhook helpers', () => {
  it('receive() narrows to a typed event when accepted, to a 7.1 code when not', async () => {
    expectTypeOf(receiver.receive).parameter(0).toEqualTypeOf<string | Uint8Array>();
    const verdict = await receiver.receive('{}');
    expectTypeOf(verdict).toEqualTypeOf<WebhookVerdict>();
    if (verdict.accepted) {
      expectTypeOf(verdict.event).toEqualTypeOf<TokenStatusEvent>();
      expectTypeOf(verdict.event.body.tokenInfo.tokenStatus).toEqualTypeOf<'INIT' | 'SUSPENDED' | 'ACTIVE' | 'DEAD' | 'FAILED'>();
      expectTypeOf(verdict.event.head.requestId).toEqualTypeOf<string>();
      // @ts-expect-error an accepted verdict has no code
      void verdict.code;
    } else {
      expectTypeOf(verdict.code).toEqualTypeOf<ResultCodeOf<'notifyTokenStatus'>>();
      expectTypeOf(verdict.issues).toEqualTypeOf<ValidationIssue[]>();
      // @ts-expect-error a refused verdict has no event
      void verdict.event;
    }
    expectTypeOf(verdict.reply).toEqualTypeOf<TokenStatusReply>();
    expectTypeOf(verdict.reply.body.resultInfo.resultCode).toEqualTypeOf<ResultCodeOf<'notifyTokenStatus'>>();
  });

  it('types the adapters for node:http and the Fetch API', () => {
    const node = receiver.nodeHandler((event) => {
      expectTypeOf(event).toEqualTypeOf<TokenStatusEvent>();
    });
    // A listener node:http takes (createServer(node)), typed without Node's own types.
    expectTypeOf(node).toBeCallableWith({} as IncomingMessage, {} as ServerResponse);
    expectTypeOf(node).returns.toEqualTypeOf<void>();
    const fetchHandler = receiver.fetchHandler(async () => undefined);
    expectTypeOf(fetchHandler).toEqualTypeOf<(request: Request) => Promise<Response>>();
  });

  it('requires a verifier and types the options', () => {
    createWebhookReceiver({ verifier: createChecksumVerifier('k3yK3yk3yK3yk3yK'), replayWindowMs: 60_000, expectedMid: ['M1', 'M2'] });
    // @ts-expect-error the verifier is required
    createWebhookReceiver({ replayWindowMs: 60_000 });
    createWebhookReceiver({
      verifier: createChecksumVerifier('k3yK3yk3yK3yk3yK'),
      store: { claim: async () => 'claimed' as const, complete: async () => true, release: () => undefined },
    });
    // @ts-expect-error the `seen: { has, add }` store is removed (a replay store claims atomically)
    createWebhookReceiver({ verifier: createChecksumVerifier('k3yK3yk3yK3yk3yK'), seen: { has: () => false, add: (_id: string, _at: number) => undefined } });
    const wrongKey = { claim: (_key: number) => 'claimed' as const, complete: () => true, release: () => undefined };
    // @ts-expect-error a replay store's claim takes a key, a lease and an owner
    createWebhookReceiver({ verifier: createChecksumVerifier('k3yK3yk3yK3yk3yK'), store: wrongKey });
    // @ts-expect-error a store of the earlier shape: its claim answers a boolean, and it has no complete
    createWebhookReceiver({ verifier: createChecksumVerifier('k3yK3yk3yK3yk3yK'), store: { claim: async () => true, release: () => undefined } });
  });

  it("types the sender: the body is the contract's, the result carries the reply verdict", async () => {
    const body = {} as TokenStatusEvent['body'];
    const result = await sendTokenNotification({ url: 'http://127.0.0.1:3000/hook', body, signer: createChecksumSigner('k3yK3yk3yK3yk3yK') });
    expectTypeOf(result).toEqualTypeOf<SendTokenNotificationResult>();
    expectTypeOf(result.outcome).toEqualTypeOf<'success' | 'pending' | 'failure'>();
    // @ts-expect-error tokenInfo is mandatory in the body
    void sendTokenNotification({ url: 'http://127.0.0.1:3000/hook', body: { mid: 'M1' }, signer: createChecksumSigner('k3yK3yk3yK3yk3yK') });
  });
});
