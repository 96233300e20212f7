// For each fault, a few calls that show it: each probe answers true when what it sees is the fault,
// and must answer false against the faithful front (the sandbox as it is). They check the answers
// with their own plain reading, not with verify's checks.
import { verifySignatureSync } from '../../../src/signing/checksumNode.js';
import { txnInfoChecksumText } from '../../../src/signing/txnInfoChecksum.js';
import type { Exchange } from '../../../src/verify/types.js';
import { FRONT_KEY, isObject, stringAt } from './envelopes.js';
import { type Harness, MID } from './harness.js';

export type Probe = (h: Harness) => Promise<boolean>;

const body = (x: Exchange): Record<string, unknown> => {
  const answer = x.answer;
  return isObject(answer) && isObject(answer.body) ? answer.body : {};
};
const head = (x: Exchange): Record<string, unknown> => {
  const answer = x.answer;
  return isObject(answer) && isObject(answer.head) ? answer.head : {};
};
const code = (x: Exchange): string | undefined =>
  stringAt(body(x), 'resultInfo', 'resultCode') ?? stringAt(body(x), 'statusCode');

const walletPay = (orderId: string, extra: Record<string, unknown> = {}) => ({
  mid: MID,
  orderId,
  requestType: 'PAYMENT',
  paymentMode: 'WALLET',
  walletInfo: { paymentFlow: 'PAY' },
  ...extra,
});

const cardPay = (orderId: string) => ({
  mid: MID,
  orderId,
  requestType: 'PAYMENT',
  paymentMode: 'CREDIT_CARD',
  cardInfo: {
    cardFlowType: 'NEW_CARD',
    cardUniqueId: '4111111111111111',
    cvv: '123',
    expiryMonth: '12',
    expiryYear: '2030',
  },
});

async function pay(h: Harness, extra: Record<string, unknown> = {}): Promise<Exchange> {
  const { orderId, txnToken } = await h.order();
  return h.call({ operationId: 'initiatePayment', token: txnToken, body: walletPay(orderId, extra) });
}

const modify = (h: Harness, order: { orderId: string; txnToken: string }, value = '120.00') =>
  h.call({
    operationId: 'modifyOrder',
    token: order.txnToken,
    query: { mid: MID, orderId: order.orderId },
    body: { txnAmount: { value, currency: 'INR' } },
  });

const preAuth = (h: Harness, extra: Record<string, unknown> = {}) =>
  h.call({
    operationId: 'preAuthorize',
    body: {
      mid: MID,
      orderId: h.fresh('P'),
      txnAmount: '150.00',
      paymentMode: 'BALANCE',
      svcSsoToken: 'sso-funded-wallet',
      userInfo: { custId: 'C1' },
      ...extra,
    },
  });

const subscription = (h: Harness, custId: string, extra: Record<string, unknown> = {}) => ({
  mid: MID,
  orderId: h.fresh('S'),
  requestType: 'SUBSCRIPTION',
  websiteName: 'WEBSTAGING',
  txnAmount: { value: '1.00', currency: 'INR' },
  userInfo: { custId },
  subscriptionAmountType: 'FIX',
  renewalAmount: '299.00',
  subscriptionFrequencyUnit: 'MONTH',
  subscriptionFrequency: '1',
  subscriptionStartDate: '2027-02-01',
  subscriptionGraceDays: '2',
  subscriptionExpiryDate: '2028-01-31',
  subscriptionPaymentMode: 'UPI',
  subscriptionEnableRetry: '1',
  subscriptionRetryCount: '2',
  ...extra,
});

const subscribe = (h: Harness, custId: string, extra: Record<string, unknown> = {}, signWith?: string) =>
  h.call({
    operationId: 'createSubscription',
    body: subscription(h, custId, extra),
    ...(signWith ? { signWith } : {}),
  });

const list = (h: Harness, custId: string, extra: Record<string, unknown> = {}, version = 'v2') =>
  h.call({
    operationId: 'listSubscriptions',
    token: h.fixtures.instruments.svcSsoToken,
    head: { version },
    body: { mid: MID, custId, ...extra },
  });

/** The subscription ids the list answered. */
const listed = (x: Exchange): string[] => {
  const details = body(x).subscriptionDetails;
  const entries = isObject(details) && Array.isArray(details.subscriptions) ? details.subscriptions : [];
  return entries.flatMap((e) => (isObject(e) && typeof e.subscriptionId === 'string' ? [e.subscriptionId] : []));
};

/** Tokenizes the fixtures' card with notifications on, moves its token to DEAD, and answers what came. */
async function notified(h: Harness): Promise<Harness['notifications']> {
  const before = h.notifications.length;
  await h.listen();
  const tokenized = await h.call({ operationId: 'tokenizeCard', body: await h.tokenizeBody() });
  await h.front.sandbox.idle();
  const tin = stringAt(body(tokenized), 'tokenIndexNumber');
  if (tin) await h.fixtures.moveToken?.(tin, 'DEAD');
  await h.front.sandbox.idle();
  return h.notifications.slice(before);
}

const signatureHolds = (envelope: { head: Record<string, unknown>; body: unknown }): boolean =>
  verifySignatureSync(JSON.stringify(envelope.body), FRONT_KEY, envelope.head.signature);

export const PROBES: Record<string, Probe> = {
  'pay-without-resultMsg': async (h) => stringAt(body(await pay(h)), 'resultInfo', 'resultMsg') === undefined,
  'pay-without-checksumHash': async (h) => {
    const txnInfo = body(await pay(h)).txnInfo;
    return isObject(txnInfo) && txnInfo.checksumHash === undefined;
  },
  'preauth-pending-without-txnToken': async (h) => {
    const x = await preAuth(h, { paymentMode: 'UPI', svcSsoToken: undefined, websiteName: 'WEBSTAGING' });
    return code(x) === '02' && body(x).txnToken === undefined;
  },
  'pay-success-without-outcome': async (h) => {
    const x = await pay(h);
    return code(x) === '0000' && body(x).txnInfo === undefined;
  },
  'modify-code-not-in-table': async (h) => code(await modify(h, await h.order())) === '0001',
  'list-status-not-with-code': async (h) => {
    const custId = h.fresh('C');
    await subscribe(h, custId);
    const x = await list(h, custId);
    return code(x) === '3006' && stringAt(body(x), 'resultInfo', 'resultStatus') === 'FAILURE';
  },
  'subscription-wrong-signature': async (h) => {
    const x = await subscribe(h, h.fresh('C'));
    return (
      isObject(x.answer) && isObject(x.answer.head) && !signatureHolds({ head: x.answer.head, body: x.answer.body })
    );
  },
  'pay-wrong-checksumHash': async (h) => {
    const txnInfo = body(await pay(h)).txnInfo;
    return isObject(txnInfo) && !verifySignatureSync(txnInfoChecksumText(txnInfo), FRONT_KEY, txnInfo.checksumHash);
  },
  'preauth-http-500': async (h) => (await preAuth(h, { orderId: 'O'.repeat(51) })).status === 500,
  'tokenize-text-plain': async (h) =>
    (await h.call({ operationId: 'tokenizeCard', body: await h.tokenizeBody() })).answerHeaders[
      'content-type'
    ]?.startsWith('text/plain') === true,
  'tokenize-requestId-not-echoed': async (h) => {
    const x = await h.call({ operationId: 'tokenizeCard', body: await h.tokenizeBody() });
    return head(x).requestId !== x.request.head.requestId;
  },
  'list-version-not-echoed': async (h) => head(await list(h, h.fresh('C'))).version !== 'v2',
  'pay-orderID-of-another-order': async (h) => {
    await pay(h);
    const x = await pay(h);
    return stringAt(body(x), 'txnInfo', 'orderID') !== stringAt(x.request.body, 'orderId');
  },
  'pay-query-body-mismatch-accepted': async (h) => {
    const [a, b] = [await h.order(), await h.order()];
    return (
      code(
        await h.call({
          operationId: 'initiatePayment',
          token: a.txnToken,
          query: { mid: MID, orderId: b.orderId },
          body: walletPay(a.orderId),
        }),
      ) === '0000'
    );
  },
  'preauth-any-signature-accepted': async (h) =>
    code(
      await h.call({
        operationId: 'preAuthorize',
        signWith: 'WrongMerchantKey',
        body: {
          mid: MID,
          orderId: h.fresh('P'),
          txnAmount: '15.00',
          userInfo: { custId: 'C1' },
          paymentMode: 'BALANCE',
          svcSsoToken: 'sso-funded-wallet',
        },
      }),
    ) === '01',
  'subscription-any-signature-accepted': async (h) =>
    code(await subscribe(h, h.fresh('C'), {}, 'WrongMerchantKey')) === '0',
  'preauth-long-orderId-truncated': async (h) =>
    code(await preAuth(h, { orderId: `${h.fresh('P')}${'L'.repeat(50)}` })) === '01',
  'subscription-websiteName-defaulted': async (h) =>
    code(await subscribe(h, h.fresh('C'), { websiteName: undefined })) === '0',
  'pay-paymentMode-any-case': async (h) => code(await pay(h, { paymentMode: 'wallet' })) === '0000',
  'pay-refuses-txnNote': async (h) => code(await pay(h, { txnNote: 'A gift' })) === '1001',
  'preauth-refuses-50-character-orderId': async (h) =>
    code(await preAuth(h, { orderId: h.fresh('P').padEnd(50, '0') })) === '332',
  'list-refuses-status-filter': async (h) =>
    code(await list(h, h.fresh('C'), { subsStatusFilter: 'ACTIVE' })) === '400',
  'tokenize-refuses-authRefId': async (h) =>
    code(await h.call({ operationId: 'tokenizeCard', body: await h.tokenizeBody({ authRefId: '123456789012' }) })) ===
    '400',
  'paid-twice': async (h) => {
    const { orderId, txnToken } = await h.order();
    await h.call({ operationId: 'initiatePayment', token: txnToken, body: walletPay(orderId) });
    return code(await h.call({ operationId: 'initiatePayment', token: txnToken, body: walletPay(orderId) })) === '0000';
  },
  'modified-while-payment-in-process': async (h) => {
    const order = await h.order();
    await h.call({ operationId: 'initiatePayment', token: order.txnToken, body: cardPay(order.orderId) });
    return code(await modify(h, order)) === '0000';
  },
  'modified-once-paid': async (h) => {
    const order = await h.order();
    await h.call({ operationId: 'initiatePayment', token: order.txnToken, body: walletPay(order.orderId) });
    return code(await modify(h, order)) === '0000';
  },
  'modified-once-closed': async (h) => {
    const order = await h.order();
    await h.fixtures.closeOrder?.(order.orderId);
    return code(await modify(h, order)) === '0000';
  },
  'block-of-another-amount': async (h) => {
    const orderId = h.fresh('P');
    const answer = body(
      await preAuth(h, { orderId, txnAmount: '100.00', paymentMode: 'BALANCE', cardPreAuthType: 'STANDARD_AUTH' }),
    );
    return answer.blockedAmount === '101.00';
  },
  'sixth-modification-accepted': async (h) => {
    const order = await h.order();
    for (let i = 0; i < 5; i++) await modify(h, order, `${110 + i}.00`);
    return code(await modify(h, order, '200.00')) === '0000';
  },
  'duplicate-block-accepted': async (h) => {
    const orderId = h.fresh('P');
    await preAuth(h, { orderId });
    return code(await preAuth(h, { orderId })) === '01';
  },
  'amount-not-conserved': async (h) => stringAt(body(await pay(h)), 'txnInfo', 'txnAmount') !== '100.00',
  'first-payment-above-renewal': async (h) =>
    code(await subscribe(h, h.fresh('C'), { txnAmount: { value: '300.00', currency: 'INR' } })) === '0',
  'subscription-missing-from-list': async (h) => {
    const custId = h.fresh('C');
    const id = stringAt(body(await subscribe(h, custId)), 'subscriptionId');
    return !listed(await list(h, custId)).includes(id ?? '');
  },
  'subscription-extra-in-list': async (h) => {
    const custId = h.fresh('C');
    await subscribe(h, custId);
    return listed(await list(h, custId)).length > 1;
  },
  'notification-wrong-signature': async (h) => (await notified(h)).some((n) => !signatureHolds(n)),
  'notification-without-tokenStatus': async (h) =>
    (await notified(h)).some((n) => stringAt(n.body, 'tokenInfo', 'tokenStatus') === undefined),
  'notification-wrong-mid': async (h) => (await notified(h)).some((n) => n.body.mid !== MID),
  'notification-dead-then-active': async (h) => {
    const statuses = (await notified(h)).map((n) => stringAt(n.body, 'tokenInfo', 'tokenStatus'));
    const dead = statuses.indexOf('DEAD');
    return dead >= 0 && statuses.includes('ACTIVE', dead + 1);
  },
  'notification-never-sent': async (h) => (await notified(h)).length === 0,
};
