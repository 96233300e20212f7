// The proxy's options and their defaults, checked once before it listens: the upstreams' addresses,
// the webhook's pass-through, the merchant key, and the bounds of an exchange (request body and time
// as the sandbox's, src/http/limits.ts; the upstream's answer and time; a stop's grace: D-111).
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_REQUEST_TIMEOUT_MS } from '../http/limits.js';
import type { Upstreams } from './routes.js';
import { upstreamUrl } from './upstream.js';
import { webhookPassThrough } from './webhook.js';

export const DEFAULT_PROXY_PORT = 4030;
/** Answers larger than this are not forwarded (a 502 problem): a list of subscriptions with details stays far below it. */
export const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;
/** How long the upstream may take to answer (the client's own default). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;
/**
 * How long stop() waits for the exchanges in flight before it cuts them off: below the 10 s a
 * container runtime gives a process between SIGTERM and SIGKILL (D-111).
 */
export const DEFAULT_GRACE_MS = 5_000;

export interface ProxyOptions {
  /** The gateway's address, `{base_url}` (any base path is kept). */
  gatewayUpstream: string;
  /** The order router's address, `{router_url}`. */
  routerUpstream: string;
  /** The merchant's webhook address: notifications posted to `webhookPath` go there. */
  webhookUpstream?: string | undefined;
  /** The path the proxy receives the token notification at (default: the path of `webhookUpstream`). */
  webhookPath?: string | undefined;
  host?: string | undefined;
  port?: number | undefined;
  /** The merchant key: signatures and txnInfo.checksumHash are checked with it. Never printed. */
  merchantKey?: string | undefined;
  /** Answer a request that breaks the contract with a 422 problem, never forwarding it. */
  enforce?: boolean | undefined;
  /** Record every exchange, redacted, as HAR 1.2 in this file. */
  harFile?: string | undefined;
  /** After this many exchanges `finished` resolves. */
  maxExchanges?: number | undefined;
  maxBodyBytes?: number | undefined;
  maxAnswerBytes?: number | undefined;
  upstreamTimeoutMs?: number | undefined;
  requestTimeoutMs?: number | undefined;
  /** How long stop() waits for the exchanges in flight (default DEFAULT_GRACE_MS); those still open then are cut off. */
  graceMs?: number | undefined;
  /** One line per exchange: operation, verdict, code, time. Never a value. */
  onLog?: ((line: string) => void) | undefined;
}

/** What the exchanges of a proxy need of its options, checked and with every default filled in. */
export interface ProxySettings {
  readonly upstreams: Upstreams;
  /** The merchant key (16 bytes), or none. */
  readonly key: string | undefined;
  readonly enforce: boolean;
  readonly maxBodyBytes: number;
  readonly maxAnswerBytes: number;
  readonly upstreamTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly graceMs: number;
}

/** The options checked (a TypeError names the first one that is wrong) and their defaults filled in. */
export function proxySettings(options: ProxyOptions): ProxySettings {
  const gateway = upstreamUrl(options.gatewayUpstream, 'gatewayUpstream');
  const router = upstreamUrl(options.routerUpstream, 'routerUpstream');
  const webhook = webhookPassThrough(options.webhookUpstream, options.webhookPath);
  const key = options.merchantKey;
  if (key !== undefined && new TextEncoder().encode(key).length !== 16)
    throw new TypeError('The merchant key must be 16 bytes.');
  return {
    upstreams: { gateway, router, webhook },
    key,
    enforce: Boolean(options.enforce),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxAnswerBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
    upstreamTimeoutMs: options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    graceMs: options.graceMs ?? DEFAULT_GRACE_MS,
  };
}
