// The retries of notifications on the sandbox clock (docs/decisions.md, D-60): a notification not
// answered 00 is sent again with growing waits, up to webhookRetry.retries times; a copy of
// duplicate-webhook never is; a retry refused 406 ends them (an earlier attempt reached the
// merchant); and once a status is delivered, no older status of its token is sent again. Retries do
// not hold later notifications back: each waits on the scheduler, apart from the order of first
// attempts.
import type { Clock } from '../clock.js';
import type { WebhookRetry } from '../config.js';
import type { WebhookDelivery } from '../records.js';
import type { Scheduler } from '../scheduler.js';
import { type AttemptedDelivery, ended, isAttempted, retryDue, show } from './deliveries.js';

/** A notification as the retries know it. */
export interface Retriable {
  /** Order of creation (a copy has its original's): a later delivered status ends the retries of earlier ones. */
  readonly seq: number;
  /** A copy of duplicate-webhook: never sent again. */
  readonly duplicate: boolean;
  /** Its record, as the sandbox shows it. */
  readonly record: WebhookDelivery;
}

/** What follows an attempt that was not delivered: another, due at a time, or none (and the reason shown, if any). */
export type NextAttempt = { due: number } | { due?: never; reason?: string };

/** Whether another attempt follows one that ended not delivered, and when (`now` is when it ended). */
export function nextAttempt(
  record: AttemptedDelivery,
  duplicate: boolean,
  retry: WebhookRetry,
  now: number,
): NextAttempt {
  // A copy is sent once: its refusal (406, a replay) is what it is there to show.
  if (duplicate) return {};
  const made = record.attempts.length;
  if (made > 1 && record.code === '406')
    return {
      reason:
        'No further attempt: the merchant refuses the repeated requestId (406), so an earlier attempt reached it.',
    };
  const { retries, firstDelayMs, factor } = retry;
  if (made > retries)
    return retries > 0
      ? { reason: `No further attempt: ${made} attempts made (webhookRetry.retries is ${retries}).` }
      : {};
  return { due: now + Math.round(firstDelayMs * factor ** (made - 1)) };
}

export interface Retries<N extends Retriable> {
  /** After an attempt of `n` that ended as `record` (shown already): ends the retries it makes stale, or schedules its next. */
  after(n: N, record: AttemptedDelivery): void;
  /** Its record was forgotten: its retry, if one is scheduled, is cancelled. */
  forget(n: N): void;
  /** Forgets every retry (a reset: the scheduler forgets their jobs). */
  clear(): void;
  /** How many notifications wait for a retry. */
  waiting(): number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function createRetries<N extends Retriable>({
  scheduler,
  clock,
  retry,
  send,
}: {
  scheduler: Scheduler;
  clock: Clock;
  retry: WebhookRetry;
  /** Sends the retry of `n` when it falls due; what it returns, the scheduler's runDue() waits for. */
  send: (n: N) => unknown;
}): Retries<N> {
  /** Per token, its notifications waiting for a retry, each with the cancel of its scheduled job. */
  const byToken = new Map<string, Map<N, () => void>>();

  function leave(token: string, ofToken: Map<N, () => void>, n: N): void {
    ofToken.delete(n);
    if (ofToken.size === 0 && byToken.get(token) === ofToken) byToken.delete(token);
  }

  /** A status of the token was delivered (`by`): no status as old or older is sent again. */
  function endOlder(token: string, n: N, by: string): void {
    const ofToken = byToken.get(token);
    if (!ofToken) return;
    for (const [older, cancel] of ofToken) {
      if (older.seq > n.seq) continue;
      cancel();
      const reason =
        older.seq === n.seq
          ? `No further attempt: its copy ${by} was delivered.`
          : `No further attempt: ${by}, a later status of this token, was delivered.`;
      if (isAttempted(older.record)) show(older.record, ended(older.record, reason));
      leave(token, ofToken, older);
    }
  }

  function schedule(n: N, record: AttemptedDelivery, due: number): void {
    const token = record.tokenIndexNumber;
    show(n.record, retryDue(record, iso(due)));
    const ofToken = byToken.get(token) ?? new Map<N, () => void>();
    byToken.set(token, ofToken);
    const cancel = scheduler.at(due, () => {
      // Ended meanwhile (a later status delivered, or a reset): nothing to send.
      if (!ofToken.has(n)) return undefined;
      leave(token, ofToken, n);
      return send(n);
    });
    ofToken.set(n, cancel);
  }

  return {
    after(n, record) {
      // An older status is not sent after a newer one reached the merchant.
      if (record.state === 'delivered') return endOlder(record.tokenIndexNumber, n, record.id);
      const next = nextAttempt(record, n.duplicate, retry, clock.now());
      if (next.due !== undefined) schedule(n, record, next.due);
      else if (next.reason) show(n.record, ended(record, next.reason));
    },
    forget(n) {
      const token = n.record.tokenIndexNumber;
      const ofToken = byToken.get(token);
      const cancel = ofToken?.get(n);
      if (!ofToken || !cancel) return;
      cancel();
      leave(token, ofToken, n);
    },
    clear: () => byToken.clear(),
    waiting() {
      let count = 0;
      for (const ofToken of byToken.values()) count += ofToken.size;
      return count;
    },
  };
}
