// Where the proxy sends a request: the contract's paths (http/route.ts) to the gateway or the order
// router as each operation's host says, the webhook's path to the merchant; a path parameter a front
// could read as another path is refused (docs/decisions.md, D-87, D-112).
import type { OperationInfo } from '../../generated/operations.js';
import { matchOperation, type UnsafeMatch } from '../http/route.js';
import type { Destination } from './upstream.js';
import { NOTIFICATION, type WebhookPassThrough } from './webhook.js';

/** A request's operation and where it goes. */
export interface Route extends Destination {
  op: OperationInfo;
  /** The query as received (validate() reads it, a repeated parameter refused: D-109), and the path parameters. */
  params: { query?: string; path?: Record<string, string> };
}

/** The proxy's upstreams: the service's two hosts, and the merchant's webhook when there is one. */
export interface Upstreams {
  gateway: URL;
  router: URL;
  webhook: WebhookPassThrough | undefined;
}

/** The route of a request: an operation's (or the webhook's), a path parameter refused (D-112), another method, or none. */
export function routeRequest(
  upstreams: Upstreams,
  method: string,
  rawUrl: string,
): Route | UnsafeMatch | null | 'method' {
  const q = rawUrl.indexOf('?');
  const pathname = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const search = q < 0 ? '' : rawUrl.slice(q + 1);
  const match = matchOperation(pathname);
  if (match) {
    if (method !== 'POST') return 'method';
    if (match.kind === 'unsafe') return match;
    const upstream = match.operation.host === 'router' ? upstreams.router : upstreams.gateway;
    return {
      op: match.operation,
      upstream,
      path: `${upstream.pathname.replace(/\/$/, '')}${pathname}`,
      params: { query: search, ...(Object.keys(match.path).length ? { path: { ...match.path } } : {}) },
    };
  }
  const { webhook } = upstreams;
  if (webhook && pathname === webhook.path) {
    if (method !== 'POST') return 'method';
    return { op: NOTIFICATION, upstream: webhook.upstream, path: webhook.upstream.pathname, params: {} };
  }
  return null;
}
