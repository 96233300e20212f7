// Subscription records and how the list shows them. Subscription statuses are not shown in the
// description (D-26); the sandbox's are INIT (created, first payment not done), ACTIVE (first
// payment succeeded), FAILED (first payment failed) and EXPIRED (after subscriptionExpiryDate).
import { isoDate } from './clock.js';
import { formatPaise } from './money.js';

/** The status of a subscription at `now`. @param {any} subscription @param {number} now */
export function statusAt(subscription, now) {
  if ((subscription.status === 'ACTIVE' || subscription.status === 'INIT') && isoDate(now) > subscription.subscriptionExpiryDate) return 'EXPIRED';
  return subscription.status;
}

/**
 * A subscription as the list answers it: the summary, or every detail with detailRequired.
 * @param {any} s @param {number} now @param {boolean} detail
 */
export function subscriptionView(s, now, detail) {
  const summary = {
    subscriptionId: s.subscriptionId,
    status: statusAt(s, now),
    custId: s.custId,
    subscriptionAmountType: s.subscriptionAmountType,
    ...(s.renewalAmount !== undefined ? { renewalAmount: formatPaise(s.renewalAmount) } : {}),
    ...(s.subscriptionMaxAmount !== undefined ? { subscriptionMaxAmount: formatPaise(s.subscriptionMaxAmount) } : {}),
    subscriptionFrequencyUnit: s.subscriptionFrequencyUnit,
    subscriptionFrequency: s.subscriptionFrequency,
    subscriptionExpiryDate: s.subscriptionExpiryDate,
  };
  if (!detail) return summary;
  return {
    ...summary,
    orderId: s.orderId,
    requestType: s.requestType,
    txnAmount: { value: formatPaise(s.txnAmount), currency: 'INR' },
    subscriptionStartDate: s.subscriptionStartDate,
    ...(s.subscriptionGraceDays !== undefined ? { subscriptionGraceDays: s.subscriptionGraceDays } : {}),
    ...(s.subscriptionPaymentMode !== undefined ? { subscriptionPaymentMode: s.subscriptionPaymentMode } : {}),
    subscriptionEnableRetry: s.subscriptionEnableRetry,
    ...(s.subscriptionRetryCount !== undefined ? { subscriptionRetryCount: s.subscriptionRetryCount } : {}),
    ...(s.autoRenewal !== undefined ? { autoRenewal: s.autoRenewal } : {}),
    ...(s.autoRetry !== undefined ? { autoRetry: s.autoRetry } : {}),
    websiteName: s.websiteName,
    createdDate: new Date(s.createdAt).toISOString(),
  };
}
