// The merchant's webhook behind the proxy: the token notification posted to the proxy's webhook path
// goes on to the merchant's address, and the merchant's reply is checked as notifyTokenStatus's
// answer. The path is the proxy's own, so it may be none of the contract's paths.
import { type OperationInfo, operations } from '../../generated/operations.js';
import { matchOperation } from '../http/route.js';
import { upstreamUrl } from './upstream.js';

/** Where the proxy receives notifications, and the merchant's address it forwards them to. */
export interface WebhookPassThrough {
  readonly upstream: URL;
  /** The proxy's path for notifications (by default the path of `upstream`). */
  readonly path: string;
}

function notifyTokenStatus(): OperationInfo {
  const op = operations.find((o) => o.operationId === 'notifyTokenStatus');
  if (!op) throw new Error('The contract has no notifyTokenStatus webhook.');
  return op;
}

/** The operation a notification is checked as. */
export const NOTIFICATION: OperationInfo = notifyTokenStatus();

/** The webhook's pass-through of the options, checked: none without the merchant's address. */
export function webhookPassThrough(
  upstream: string | undefined,
  path: string | undefined,
): WebhookPassThrough | undefined {
  const url = upstream === undefined ? undefined : upstreamUrl(upstream, 'webhookUpstream');
  const at = path ?? url?.pathname;
  if (at === undefined) return undefined;
  if (!url) throw new TypeError('webhookPath needs webhookUpstream: the address notifications are forwarded to.');
  if (!/^\/[^\s?#]*$/.test(at)) throw new TypeError('webhookPath must be a URL path, e.g. /webhooks/token.');
  if (matchOperation(at) !== undefined) throw new TypeError("webhookPath is one of the contract's paths.");
  return { upstream: url, path: at };
}
