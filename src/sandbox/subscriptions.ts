// Subscription records and how the list shows them. Subscription statuses are not shown in the
// description (D-26); the sandbox's are INIT (created, first payment not done), ACTIVE (first
// payment succeeded), FAILED (first payment failed) and EXPIRED (after subscriptionExpiryDate).
import type { Schemas } from '../types.js';
import { isoDate } from './clock.js';
import { formatPaise } from './money.js';
import type { Subscription } from './records.js';

export type SubscriptionStatus = Subscription['status'] | 'EXPIRED';

/** A subscription as list subscriptions answers it without detailRequired. */
export interface SubscriptionSummary {
  subscriptionId: string;
  status: SubscriptionStatus;
  custId: string;
  subscriptionAmountType: Subscription['subscriptionAmountType'];
  renewalAmount?: string;
  subscriptionMaxAmount?: string;
  subscriptionFrequencyUnit: Subscription['subscriptionFrequencyUnit'];
  subscriptionFrequency: string;
  subscriptionExpiryDate: string;
}

/** Every detail of a subscription, with detailRequired. */
export interface SubscriptionDetail extends SubscriptionSummary {
  orderId: string;
  requestType: Subscription['requestType'];
  txnAmount: Schemas['Money'];
  subscriptionStartDate: string;
  subscriptionGraceDays?: string;
  subscriptionPaymentMode?: NonNullable<Subscription['subscriptionPaymentMode']>;
  subscriptionEnableRetry: Subscription['subscriptionEnableRetry'];
  subscriptionRetryCount?: string;
  autoRenewal?: boolean;
  autoRetry?: boolean;
  websiteName: string;
  /** ISO 8601. */
  createdDate: string;
}

/** The status of a subscription at `now`. */
export function statusAt(subscription: Subscription, now: number): SubscriptionStatus {
  if (
    (subscription.status === 'ACTIVE' || subscription.status === 'INIT') &&
    isoDate(now) > subscription.subscriptionExpiryDate
  )
    return 'EXPIRED';
  return subscription.status;
}

/** A subscription as the list answers it: the summary, or every detail with detailRequired. */
export function subscriptionView(
  s: Subscription,
  now: number,
  detail: boolean,
): SubscriptionSummary | SubscriptionDetail {
  const summary: SubscriptionSummary = {
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
