// The contract's own example notifications, one per token status: what the development sender and
// the conformance run start from.
import { examples } from '../../generated/examples.js';
import type { Schemas } from '../types.js';

export const TOKEN_STATUSES: readonly Schemas['TokenStatus'][] = ['INIT', 'SUSPENDED', 'ACTIVE', 'DEAD', 'FAILED'];

type NotificationBody = Schemas['TokenStatusNotificationBody'];

/** A copy of the body of the contract's example notification for a status (TokenStatusActive, ...). */
export function notificationBody(status: Schemas['TokenStatus']): NotificationBody {
  const name = `TokenStatus${status[0]}${status.slice(1).toLowerCase()}`;
  const example = examples[name] as { value: { body: NotificationBody } } | undefined;
  if (!example) throw new Error(`the contract has no example ${name}`);
  const body = structuredClone(example.value.body);
  body.tokenInfo.tokenStatus = status;
  return body;
}
