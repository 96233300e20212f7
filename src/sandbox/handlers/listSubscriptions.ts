// List a customer's subscriptions (section 4.4) with the description's filters. subscriptionDetails
// is one object (4.4): the most recent match, with every match in its `subscriptions` list
// (docs/decisions.md). No match: 200 NO CONTENT FOUND.
import type { Schemas } from '../../types.js';
import { clientIdMatches, signatureMatches } from '../auth.js';
import { type SubscriptionDetail, type SubscriptionSummary, statusAt, subscriptionView } from '../subscriptions.js';
import type { HandlerContext, HandlerResult, SandboxRequest } from './context.js';

type SubscriptionView = SubscriptionSummary | SubscriptionDetail;

/** The open subscriptionDetails of the answer as the sandbox fills it. */
type ListedSubscriptions = Schemas['SubscriptionDetails'] & SubscriptionView & { subscriptions: SubscriptionView[] };

export function listSubscriptions(
  ctx: HandlerContext,
  req: SandboxRequest<'listSubscriptions'>,
): HandlerResult<'listSubscriptions'> {
  const { config, store, clock } = ctx;
  const { head, body } = req;
  if (!config.mids.includes(body.mid)) return { code: '400', note: 'body.mid is not a merchant the sandbox serves.' };
  if (!clientIdMatches(config, head.clientId) || !signatureMatches(config, req, head.signature)) {
    return {
      code: '400',
      note: 'head.signature is not the CHECKSUM of the body under the merchant key (or head.clientId selects no key).',
    };
  }
  const now = clock.now();
  // subsStatusFilter is free text (D-10): one status or several separated by commas, any case.
  const statuses =
    typeof body.subsStatusFilter === 'string' && body.subsStatusFilter.trim() !== ''
      ? new Set(body.subsStatusFilter.split(',').map((s) => s.trim().toUpperCase()))
      : undefined;
  // Most recent first: the store keeps each customer's subscriptions in creation order.
  const matches = store
    .subscriptionsOf(body.mid, body.custId)
    .reverse()
    .filter((s) => body.subscriptionId === undefined || s.subscriptionId === body.subscriptionId)
    .filter((s) => body.frequencyUnit === undefined || s.subscriptionFrequencyUnit === body.frequencyUnit)
    .filter((s) => !statuses || statuses.has(statusAt(s, now)));
  const detail = body.detailRequired === true;
  const views = matches.map((s) => subscriptionView(s, now, detail));
  const latest = views[0];
  if (latest === undefined) return { code: '200' };
  const subscriptionDetails: ListedSubscriptions = { ...latest, subscriptions: views };
  return { code: '3006', fields: { subscriptionDetails } };
}
