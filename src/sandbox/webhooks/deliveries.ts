// The record of a notification's delivery (`WebhookDelivery`, records.ts): a union by the state of its
// latest attempt, whose type says which fields it has. Each transition below makes the whole next
// record from the one before; `show` writes it over the record the sandbox shows (the store's list,
// `deliveries()`, the control API), which stays one object from its creation to the end, as a
// program holding it expects (docs/decisions.md, D-133).
import { isPublicPlace, marker } from '../../json/publicValues.js';
import type { Schemas } from '../../types.js';
import type {
  AnsweredDelivery,
  FailedDelivery,
  PendingDelivery,
  SkippedDelivery,
  WebhookAttempt,
  WebhookDelivery,
} from '../records.js';
import type { AttemptOutcome } from './attempt.js';

/** A delivery whose latest attempt has ended: answered or failed. */
export type AttemptedDelivery = AnsweredDelivery | FailedDelivery;

/** What a new delivery is made of. */
export interface NewDelivery {
  id: string;
  mid: string;
  tokenInfo: Schemas['TokenInfo'];
  url: string | null;
  requestId: string;
  createdAt: string;
  /** The delivery a copy of duplicate-webhook repeats. */
  duplicateOf?: string | undefined;
  /** Held back by reorder-webhooks until the next notification has gone out. */
  reordered?: boolean | undefined;
}

/** A delivery not yet attempted. */
export function created(d: NewDelivery): PendingDelivery {
  return {
    id: d.id,
    tokenIndexNumber: d.tokenInfo.tokenIndexNumber,
    tokenStatus: d.tokenInfo.tokenStatus,
    mid: d.mid,
    url: d.url,
    requestId: d.requestId,
    createdAt: d.createdAt,
    state: 'pending',
    attempts: [],
    ...(d.duplicateOf === undefined ? {} : { duplicateOf: d.duplicateOf }),
    ...(d.reordered ? { reordered: true } : {}),
  };
}

/** An attempt on its way (or waiting for its turn): what an earlier attempt left stays shown until it ends. */
export function goingOut(d: WebhookDelivery): PendingDelivery {
  const { nextAttemptAt: _next, reason: _reason, ...rest } = d;
  return { ...rest, state: 'pending' };
}

/** Not sent, and why; what an earlier attempt left stays shown. */
export function skipped(d: WebhookDelivery, reason: string): SkippedDelivery {
  const { nextAttemptAt: _next, reason: _reason, ...rest } = d;
  return { ...rest, state: 'skipped', reason };
}

/** An attempt ended: one more entry in `attempts`, and its outcome in place of the one before. */
export function attempted(
  d: WebhookDelivery,
  outcome: AttemptOutcome,
  at: string,
  completedAt: string,
): AttemptedDelivery {
  const base = {
    id: d.id,
    tokenIndexNumber: d.tokenIndexNumber,
    tokenStatus: d.tokenStatus,
    mid: d.mid,
    url: d.url,
    requestId: d.requestId,
    createdAt: d.createdAt,
    ...(d.duplicateOf === undefined ? {} : { duplicateOf: d.duplicateOf }),
    ...(d.reordered ? { reordered: d.reordered } : {}),
  };
  if (outcome.state === 'failed') {
    const attempt: WebhookAttempt = { at, state: 'failed', error: outcome.error };
    return { ...base, state: 'failed', attempts: [...d.attempts, attempt], error: outcome.error, completedAt };
  }
  const { state, ...reply } = outcome;
  const attempt: WebhookAttempt = {
    at,
    state,
    httpStatus: reply.httpStatus,
    ...(reply.code === undefined ? {} : { code: reply.code }),
  };
  return { ...base, state, attempts: [...d.attempts, attempt], ...reply, completedAt };
}

/** Another attempt is due at `nextAttemptAt` (sandbox time, ISO 8601). */
export function retryDue(d: AttemptedDelivery, nextAttemptAt: string): AttemptedDelivery {
  const { reason: _reason, ...rest } = d;
  return { ...rest, nextAttemptAt };
}

/** No further attempt follows, and why. */
export function ended(d: AttemptedDelivery, reason: string): AttemptedDelivery {
  const { nextAttemptAt: _next, ...rest } = d;
  return { ...rest, reason };
}

/** Whether the latest attempt of a delivery has ended (it is answered or failed). */
export function isAttempted(d: WebhookDelivery): d is AttemptedDelivery {
  return d.state !== 'pending' && d.state !== 'skipped';
}

/**
 * Shows `next` in place of what `shown` held: the fields `next` lacks are gone, the others take its
 * values. The fields both have keep their place and new ones come last, so the record reads in the
 * order its fields arrived.
 */
export function show(shown: WebhookDelivery, next: WebhookDelivery): void {
  for (const key of Object.keys(shown)) if (!Object.hasOwn(next, key)) Reflect.deleteProperty(shown, key);
  Object.assign(shown, next);
}

/** A value of the notification as a log line shows it: in clear only where the contract marks it public (docs/decisions.md, D-102). */
const inLog = (pointer: string, value: string) =>
  isPublicPlace('notifyTokenStatus', 'request', pointer) ? value : marker(value);

/** The log line of an attempt that ended. */
export function attemptLine(d: AttemptedDelivery): string {
  const status = inLog('/body/tokenInfo/tokenStatus', d.tokenStatus);
  const token = inLog('/body/tokenInfo/tokenIndexNumber', d.tokenIndexNumber);
  return `webhook ${status} ${token} attempt ${d.attempts.length} -> ${d.state}${d.code ? ` (${d.code})` : ''}`;
}
