// Create a subscription (section 4.7): the merchant's signature, then the rules the schema cannot
// say, with the codes and messages of section 7.7. The subscription's first payment is an order
// paid with the returned txnToken (requestType SUBSCRIPTION); its success makes the subscription ACTIVE.
import type { BodyOf } from '../../types.js';
import { signatureMatches } from '../auth.js';
import { isoDate } from '../clock.js';
import { newSubscriptionId } from '../ids.js';
import { checkedPaise, formatPaise } from '../money.js';
import type { PaymentMode } from '../records.js';
import type { HandlerContext, HandlerResult, SandboxRequest } from './context.js';

/** Which pay modes can make the first payment of each subscription payment mode. */
const FIRST_PAYMENT_MODES: Readonly<
  Record<NonNullable<BodyOf<'createSubscription'>['subscriptionPaymentMode']>, PaymentMode[]>
> = {
  CC: ['CREDIT_CARD'],
  DC: ['DEBIT_CARD'],
  UPI: ['UPI', 'UPI_INTENT'],
  BANK_MANDATE: ['NET_BANKING'],
};

export function createSubscription(
  ctx: HandlerContext,
  req: SandboxRequest<'createSubscription'>,
): HandlerResult<'createSubscription'> {
  const { config, store, clock, instruments, orders } = ctx;
  const { head, body } = req;
  if (!config.mids.includes(body.mid)) return { code: '2006', note: 'body.mid is not a merchant the sandbox serves.' };
  if (!signatureMatches(config, req, head.signature)) {
    return {
      code: '2006',
      note: 'head.signature is not the CHECKSUM of the body under the key of this mid (the table has no signature code; D-38).',
    };
  }
  if (store.order(body.mid, body.orderId))
    return { code: '1102', message: 'Subscription already in progress', note: 'This orderId is already used.' };
  const today = isoDate(clock.now());
  if (body.subscriptionStartDate < today)
    return {
      code: '1102',
      message: 'Invalid subscription start date',
      note: 'subscriptionStartDate is in the past (sandbox clock, UTC).',
    };
  const first = checkedPaise(body.txnAmount.value);
  if (first === 0) return { code: '2007', note: 'The first payment (txnAmount) must be more than zero.' };
  const renewal =
    body.subscriptionAmountType === 'FIX'
      ? body.renewalAmount === undefined
        ? first
        : checkedPaise(body.renewalAmount)
      : undefined;
  const max = body.subscriptionAmountType === 'VARIABLE' ? checkedPaise(body.subscriptionMaxAmount) : undefined;
  if (renewal === 0)
    return { code: '1102', message: 'Invalid renewal amount', note: 'renewalAmount must be more than zero.' };
  if (max !== undefined && (max === 0 || max < first))
    return {
      code: '4001',
      message: 'Invalid Max Amount',
      note: 'subscriptionMaxAmount must be more than zero and not below the first payment.',
    };
  // FIX has a renewal amount, VARIABLE a maximum: the most one cycle can charge.
  const cycle = renewal ?? max ?? first;
  if (body.subscriptionPaymentMode === 'UPI' && cycle > instruments.limits.upiSubscriptionMaxAmount) {
    return {
      code: '4001',
      message: 'Subscription Amount Limit For UPI Breached',
      note: `UPI subscriptions take at most ${formatPaise(instruments.limits.upiSubscriptionMaxAmount)} per cycle.`,
    };
  }
  if (cycle > instruments.limits.subscriptionMaxAmount) {
    return {
      code: '1102',
      message: 'Maximum Subscription Amount limit breached',
      note: `Subscriptions take at most ${formatPaise(instruments.limits.subscriptionMaxAmount)} per cycle.`,
    };
  }

  const subscriptionId = newSubscriptionId();
  const now = clock.now();
  store.putSubscription({
    subscriptionId,
    mid: body.mid,
    custId: body.userInfo.custId,
    orderId: body.orderId,
    requestType: body.requestType,
    status: 'INIT',
    subscriptionAmountType: body.subscriptionAmountType,
    txnAmount: first,
    ...(renewal !== undefined ? { renewalAmount: renewal } : {}),
    ...(max !== undefined ? { subscriptionMaxAmount: max } : {}),
    subscriptionFrequencyUnit: body.subscriptionFrequencyUnit,
    subscriptionFrequency: body.subscriptionFrequency ?? '1',
    subscriptionStartDate: body.subscriptionStartDate,
    subscriptionExpiryDate: body.subscriptionExpiryDate,
    subscriptionGraceDays: body.subscriptionGraceDays,
    subscriptionPaymentMode: body.subscriptionPaymentMode,
    subscriptionEnableRetry: body.subscriptionEnableRetry,
    subscriptionRetryCount: body.subscriptionRetryCount,
    autoRenewal: body.autoRenewal,
    autoRetry: body.autoRetry,
    websiteName: body.websiteName,
    createdAt: now,
  });
  const { txnToken } = orders.create({
    mid: body.mid,
    orderId: body.orderId,
    amount: first,
    kind: 'SUBSCRIPTION',
    custId: body.userInfo.custId,
    subscriptionId,
    ...(body.userInfo.svcSsoToken && store.wallets.has(body.userInfo.svcSsoToken)
      ? { svcSsoToken: body.userInfo.svcSsoToken }
      : {}),
    ...(body.subscriptionPaymentMode ? { paymentModes: FIRST_PAYMENT_MODES[body.subscriptionPaymentMode] } : {}),
  });
  return { code: '0', fields: { txnToken, subscriptionId } };
}
