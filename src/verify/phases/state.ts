// The state phase: the rules that hold across calls (3.1, 3.3, 4.4, 4.7, 8 and the state decisions
// D-39 to D-43): orders paid once and not modified once payment started, at most five
// modifications, amounts conserved, a duplicate block and a block beyond the balance refused, a
// subscription's first payment within its renewal amount, the list of a customer's subscriptions,
// and a token's changes with their notifications, received by verify's own receiver. Each is a property of fast-check; orders
// and tokens are model-based, so a finding shrinks to the shortest sequence that shows it.
import type { PhaseContext } from '../context.js';
import { NotificationReceiver } from '../notifications.js';
import { fixtureCall } from './fixtureCall.js';
import type { Phase } from './phase.js';
import { checkDuplicateBlock, checkInsufficientBalance, checkOrders, ORDER_CHANGES } from './stateOrders.js';
import { checkRenewalAmount, checkSubscriptionList, SUBSCRIPTION_CHANGES } from './stateSubscriptions.js';
import { checkTokens, TOKEN_CHANGES } from './stateTokens.js';

export interface StatePhaseOptions {
  /** How long a change verify drove may take to be notified (ms, default 3 000). */
  notificationWaitMs?: number | undefined;
}

export const STATE_CHANGES: readonly string[] = [...ORDER_CHANGES, ...TOKEN_CHANGES, ...SUBSCRIPTION_CHANGES];

/** Notifications that belong to no trial (unreadable, or of a token verify did not make): a finding each, with no steps. */
function keepStrays(ctx: PhaseContext, receiver: NotificationReceiver): void {
  for (const stray of receiver.takeStrays())
    for (const problem of stray.problems)
      ctx.keep({
        kind: 'notification',
        rule: problem.rule,
        operationId: 'notifyTokenStatus',
        message: problem.message,
        pointer: problem.pointer,
        steps: [],
        check: 'state.token',
      });
}

/** Starts verify's receiver and points the service's notifications at it, when the fixtures can. */
async function startReceiver(ctx: PhaseContext): Promise<NotificationReceiver | undefined> {
  const notifyTo = ctx.fixtures.notifyTo;
  if (!notifyTo) {
    ctx.note('state: the fixtures have no notifyTo(): token notifications were not checked.');
    return undefined;
  }
  const receiver = await NotificationReceiver.start(ctx.target, ctx.coverage);
  try {
    await fixtureCall('notifyTo()', () => notifyTo(receiver.url));
  } catch (error) {
    await receiver.close();
    throw error;
  }
  return receiver;
}

/** The tokens and their notifications, within a receiver that is always closed at the end. */
async function checkTokensAndNotifications(ctx: PhaseContext, waitMs: number): Promise<void> {
  let receiver: NotificationReceiver | undefined;
  try {
    receiver = await startReceiver(ctx);
    if (!ctx.fixtures.moveToken)
      ctx.note("state: the fixtures have no moveToken(): only tokenize's notifications were checked.");
    // What came before verify made a token was on its way before the receiver was named (a token of
    // an earlier phase): not a notification of this phase's tokens, and not held against the service.
    receiver?.takeStrays();
    await checkTokens(ctx, receiver, waitMs);
  } catch (error) {
    ctx.note(
      `state: token notifications stopped: ${(error instanceof Error ? error.message : String(error)).slice(0, 300)}`,
    );
  } finally {
    if (receiver) {
      const notifyTo = ctx.fixtures.notifyTo;
      if (notifyTo)
        await fixtureCall('notifyTo()', () => notifyTo(null)).catch(() =>
          ctx.note('state: the fixtures could not stop the notifications to verify (notifyTo(null) failed).'),
        );
      await receiver.close();
      keepStrays(ctx, receiver);
    }
  }
}

/** The state phase, with its wait for notifications. */
export function createStatePhase(options: StatePhaseOptions = {}): Phase {
  const waitMs = options.notificationWaitMs ?? 3_000;
  return {
    name: 'state',
    changes: STATE_CHANGES,
    async run(ctx) {
      if (!ctx.fixtures.completePayment)
        ctx.note('state: the fixtures have no completePayment(): payments in process were not ended.');
      await checkOrders(ctx);
      await checkDuplicateBlock(ctx);
      await checkInsufficientBalance(ctx);
      await checkRenewalAmount(ctx);
      await checkSubscriptionList(ctx);
      await checkTokensAndNotifications(ctx, waitMs);
    },
  };
}

export const statePhase: Phase = createStatePhase();
