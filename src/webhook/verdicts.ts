// Where a verdict of the receiver goes besides the reply (docs/decisions.md, D-34, D-97): the event on
// `gateway-contract:webhook:verdict` when someone listens, and a refusal to the merchant's
// `onRejected`, whose failure never changes the reply. Codes and rules only, never a value.
import type { ValidationIssue } from '../validation/operationValidation.js';
import type { WebhookRejected } from './adapters.js';
import type { ReplyCode } from './reply.js';
import { verdictChannel, type WebhookVerdictEvent } from './tracing.js';

/** The merchant's logger of refusals (WebhookReceiverOptions.onRejected). */
export type OnRejected = ((rejection: { code: ReplyCode; issues: ValidationIssue[] }) => void) | undefined;

/** Publishes a notification's verdict, when someone listens. */
export function publishVerdict(
  verdict: WebhookVerdictEvent['verdict'],
  code: string,
  issues: ValidationIssue[] | undefined,
  handlerRan: boolean,
  startedAt: number,
): void {
  if (!verdictChannel?.hasSubscribers) return;
  const rule = issues?.[0]?.rule;
  const event: WebhookVerdictEvent = {
    verdict,
    code,
    ...(rule === undefined ? {} : { rule }),
    handlerRan,
    durationMs: performance.now() - startedAt,
  };
  verdictChannel.publish(event);
}

/** A refusal of the adapters: published, and given to `onRejected`. */
export function reportRejected(
  onRejected: OnRejected,
  verdict: WebhookRejected,
  startedAt = performance.now(),
  handlerRan = false,
): void {
  publishVerdict(handlerRan ? 'handlerFailed' : 'rejected', verdict.code, verdict.issues, handlerRan, startedAt);
  try {
    onRejected?.({ code: verdict.code, issues: verdict.issues });
  } catch {
    /* a failing logger must not change the reply */
  }
}
