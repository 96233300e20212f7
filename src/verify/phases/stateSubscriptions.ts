// Subscriptions across calls (4.4, 4.7, 8): a first payment of a UPI or e-mandate subscription above
// its renewal amount is refused with 2007 (DECISIONS.md D-56), one at or below it is not; and the
// list of a customer's subscriptions, for a custId fresh to the run, holds exactly the ones verify
// created: none is "200 NO CONTENT FOUND", some are 3006 with one of them (and, where the answer
// lists them all, all of them and no other).
import fc from 'fast-check';
import { type PhaseContext, runProperty, type Trial } from '../context.js';
import { at, codeText, expectRefusal, rupees, succeeded } from './stateExpect.js';

export const SUBSCRIPTION_CHANGES = ['subscription: created'] as const;

const DAY_MS = 86_400_000;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A FIX subscription of `mode` whose first payment is `first` paise and renewal `renewal` paise, for `custId`. */
export function fixSubscription(
  ctx: PhaseContext,
  mode: 'UPI' | 'BANK_MANDATE',
  first: number,
  renewal: number,
  custId: string,
) {
  const now = Date.now();
  return {
    mid: ctx.target.mid,
    orderId: ctx.fresh('VU'),
    requestType: 'SUBSCRIPTION',
    websiteName: 'WEBSTAGING',
    txnAmount: { value: rupees(first), currency: 'INR' },
    userInfo: { custId },
    subscriptionAmountType: 'FIX',
    renewalAmount: rupees(renewal),
    subscriptionFrequencyUnit: 'MONTH',
    subscriptionFrequency: '1',
    subscriptionStartDate: isoDate(now + 2 * DAY_MS),
    // e-mandate (BANK_MANDATE) takes no grace days (4.7).
    ...(mode === 'UPI' ? { subscriptionGraceDays: '2' } : {}),
    subscriptionExpiryDate: isoDate(now + 400 * DAY_MS),
    subscriptionPaymentMode: mode,
    subscriptionEnableRetry: '0',
  };
}

const create = (trial: Trial, body: ReturnType<typeof fixSubscription>, note: string) =>
  trial.call({ operationId: 'createSubscription', body, note });

/** The first payment and the renewal amount (4.7): above it refused with 2007, at or below it accepted. */
export async function checkRenewalAmount(ctx: PhaseContext): Promise<void> {
  const arbitrary = fc.record({
    mode: fc.constantFrom('UPI' as const, 'BANK_MANDATE' as const),
    renewal: fc.integer({ min: 100, max: 500_000 }),
    over: fc.integer({ min: 1, max: 100_000 }),
    under: fc.integer({ min: 0, max: 99 }),
  });
  await runProperty(
    ctx,
    'state.renewalAmount',
    arbitrary,
    async ({ mode, renewal, over, under }, trial) => {
      const custId = ctx.fresh('C');
      const above = await create(
        trial,
        fixSubscription(ctx, mode, renewal + over, renewal, custId),
        `a ${mode} subscription whose first payment is above its renewal amount`,
      );
      expectRefusal(trial, above, {
        code: '2007',
        rule: 'renewalAmount',
        why: `The first payment of a ${mode} subscription is above its renewal amount`,
      });
      const within = Math.max(1, renewal - under);
      const accepted = await create(
        trial,
        fixSubscription(ctx, mode, within, renewal, custId),
        `a ${mode} subscription whose first payment is within its renewal amount`,
      );
      if (succeeded(accepted)) ctx.coverage.change('subscription: created');
      else
        trial.fail(
          'acceptance',
          'renewalAmount',
          'createSubscription',
          `A ${mode} subscription whose first payment is ${within === renewal ? 'its renewal amount' : 'below its renewal amount'} is refused with ${codeText(accepted)}.`,
        );
    },
    { runs: Math.min(ctx.runs, 4) },
  );
}

/** What the list answer names: the subscription of subscriptionDetails, and every one of `subscriptions` when it lists them. */
function listed(answer: unknown): { one: unknown; all: unknown[] | undefined } {
  const details = at(answer, 'body', 'subscriptionDetails');
  const all = at(details, 'subscriptions');
  return {
    one: at(details, 'subscriptionId'),
    all: Array.isArray(all) ? all.map((s) => at(s, 'subscriptionId')) : undefined,
  };
}

/** Lists every run tries first: a customer with none (200 NO CONTENT FOUND), and one with two. */
const LIST_EXAMPLES: readonly ('UPI' | 'BANK_MANDATE')[][] = [[], ['UPI', 'BANK_MANDATE']];

/** The list of a fresh customer's subscriptions holds exactly those created. */
export async function checkSubscriptionList(ctx: PhaseContext): Promise<void> {
  await runProperty(
    ctx,
    'state.subscriptionList',
    fc.array(fc.constantFrom('UPI' as const, 'BANK_MANDATE' as const), { maxLength: 3 }),
    async (modes, trial) => {
      const custId = ctx.fresh('C');
      const created: unknown[] = [];
      for (const mode of modes) {
        const answer = await create(
          trial,
          fixSubscription(ctx, mode, 100, 29_900, custId),
          `create a ${mode} subscription for the customer`,
        );
        if (!succeeded(answer)) return;
        ctx.coverage.change('subscription: created');
        created.push(at(answer.answer, 'body', 'subscriptionId'));
      }
      const list = await trial.call({
        operationId: 'listSubscriptions',
        token: ctx.fixtures.instruments.svcSsoToken,
        body: { mid: ctx.target.mid, custId },
        note: `list the customer's subscriptions (${created.length} created)`,
      });
      checkListed(trial, list.answer, created, codeText(list));
    },
    { runs: Math.min(ctx.runs, 4), examples: LIST_EXAMPLES },
  );
}

function checkListed(trial: Trial, answer: unknown, created: unknown[], code: string): void {
  const fail = (message: string, pointer?: string) =>
    trial.fail('state', 'subscriptionList', 'listSubscriptions', message, pointer);
  if (created.length === 0) {
    if (code !== '200')
      fail(`The customer has no subscription: the description's answer is 200 NO CONTENT FOUND, not ${code}.`);
    return;
  }
  if (code !== '3006') {
    fail(`The customer has ${created.length} subscription(s): the description's answer is 3006, not ${code}.`);
    return;
  }
  const { one, all } = listed(answer);
  if (!created.includes(one))
    fail(
      'subscriptionDetails is not one of the subscriptions created for the customer.',
      '/body/subscriptionDetails/subscriptionId',
    );
  if (all && (all.length !== created.length || !created.every((id) => all.includes(id))))
    fail(
      `The list holds ${all.length} subscription(s); the customer has exactly the ${created.length} created.`,
      '/body/subscriptionDetails/subscriptions',
    );
}
