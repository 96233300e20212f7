// The merchant the sandbox serves and its own settings, with the documented defaults for local use.
// The default merchant key is a published test key for the sandbox only: never a real secret.
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_REQUEST_TIMEOUT_MS } from '../http/limits.js';
import type { SendTokenNotificationOptions, SendTokenNotificationResult } from '../webhook/send.js';

/** The sandbox's default merchant id. */
export const DEFAULT_MID = 'MERCHANT0001';
/** The sandbox's default merchant key: a published test key, never a real secret. */
export const DEFAULT_MERCHANT_KEY = 'SandboxTestKey01';
export const DEFAULT_CLIENT_ID = 'C11';
export const DEFAULT_PORT = 4020;
/** Transaction tokens live 15 minutes (section 4.7 and 8). */
export const TXN_TOKEN_TTL_MS = 900_000;
/** How long an INIT token waits before it becomes ACTIVE or FAILED (sandbox time). */
export const DEFAULT_TOKEN_ACTIVATION_DELAY_MS = 5_000;
/** How long a webhook delivery may take before it is recorded as failed. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** Notifications sent at once; the others wait their turn, oldest first (docs/decisions.md, D-58). */
export const DEFAULT_WEBHOOK_CONCURRENCY = 16;
/** The most webhookConcurrency may be. */
export const MAX_WEBHOOK_CONCURRENCY = 1_000;
/** Records of each kind kept, and as many more in use: about 10 to 20 MB of state at most (docs/decisions.md, D-58, D-67). */
export const DEFAULT_RETENTION = 10_000;

/** How a notification not answered 00 is sent again, in sandbox time (docs/decisions.md, D-60). */
export interface WebhookRetry {
  /** Attempts after the first, 0 to 10 (0: none). */
  retries: number;
  /** The wait before the first retry, in milliseconds. */
  firstDelayMs: number;
  /** Each wait is this many times the one before, 1 to 10. */
  factor: number;
}

/** Five retries, 1, 2, 4, 8 and 16 minutes apart: the last about half an hour after the first attempt. */
export const DEFAULT_WEBHOOK_RETRY: Readonly<WebhookRetry> = Object.freeze({
  retries: 5,
  firstDelayMs: 60_000,
  factor: 2,
});

function wholeAtLeastOne(value: unknown, fallback: number, what: string): number {
  const n = value ?? fallback;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1)
    throw new TypeError(`${what} must be a whole number of 1 or more.`);
  return n;
}

export interface SandboxOptions {
  /** Address to bind (default `127.0.0.1`). */
  host?: string | undefined;
  /** Port; `0` picks a free one (default 4020). */
  port?: number | undefined;
  /** The merchant id the sandbox serves (default `MERCHANT0001`). */
  mid?: string | undefined;
  /** Several merchant ids, all with the same key and webhook URL (wins over `mid`). */
  mids?: string[] | undefined;
  /** The merchant key, 16 bytes (default `DEFAULT_MERCHANT_KEY`, a test key for the sandbox only). */
  merchantKey?: string | undefined;
  /** The head `clientId` that selects the merchant key (default `C11`). */
  clientId?: string | undefined;
  /** The merchant's `{merchant_response_url}`: token status notifications go there. None: deliveries are recorded as skipped. */
  webhookUrl?: string | undefined;
  /** The base clock, epoch milliseconds (default `Date.now`); `clock.advance()` moves the sandbox ahead of it. */
  now?: (() => number) | undefined;
  /** How long an INIT token waits before it becomes ACTIVE or FAILED, in sandbox time (default 5000 ms). */
  tokenActivationDelayMs?: number | undefined;
  /** How long a webhook delivery may take (default 10 000 ms). */
  webhookTimeoutMs?: number | undefined;
  /** How many notifications are sent at once, 1 to 1 000 (default 16): the others wait their turn, oldest first. */
  webhookConcurrency?: number | undefined;
  /** How a notification not answered 00 is sent again, in sandbox time (default 5 retries, 1 minute first, each wait twice the one before; `{ retries: 0 }`: never). */
  webhookRetry?: { [K in keyof WebhookRetry]?: WebhookRetry[K] | undefined } | undefined;
  /** How long a client may take to send a whole request, headers and body (default 30 000 ms). */
  requestTimeoutMs?: number | undefined;
  /** How many records of each kind the sandbox keeps (orders, transaction tokens, card tokens, pre-auths and their blocks, subscriptions, deliveries): past it the oldest are forgotten; payments in process, pending pre-auths and INIT tokens are kept aside, up to as many more (default 10 000; docs/decisions.md, D-67). */
  retention?: number | undefined;
  /** Largest request body accepted (default 65 536 bytes). */
  maxBodyBytes?: number | undefined;
  /** Validate every answer against the contract before sending it; a failure is answered HTTP 500 and recorded in `answerProblems`. */
  checkAnswers?: boolean | undefined;
  /** Receives one line per request, webhook delivery and unexpected error. Never a secret. */
  onLog?: ((line: string) => void) | undefined;
  /** The seed of test instruments: a file (path or URL) or the parsed object (default: the built-in seed, `src/sandbox/instrumentSeed.ts`). */
  instruments?: string | URL | object | undefined;
  /** The RSA private key (PEM) for `encryptedCardData` (default: one generated per process). */
  cardPrivateKeyPem?: string | undefined;
  /** Sends a notification (default `sendTokenNotification`). */
  sendNotification?: ((options: SendTokenNotificationOptions) => Promise<SendTokenNotificationResult>) | undefined;
}

/** The settings every part of the sandbox reads, checked and with their defaults. */
export interface SandboxConfig {
  readonly mids: readonly string[];
  /** The first merchant id: what control calls use when they are given none. */
  readonly defaultMid: string;
  readonly merchantKey: string;
  readonly usesDefaultKey: boolean;
  readonly clientId: string;
  /** Where token notifications go; `POST /sandbox/webhook-url` changes it while the sandbox runs (a reset keeps it). */
  webhookUrl: string | undefined;
  readonly host: string;
  readonly port: number;
  readonly maxBodyBytes: number;
  readonly tokenActivationDelayMs: number;
  readonly webhookTimeoutMs: number;
  readonly webhookRetry: Readonly<WebhookRetry>;
  readonly webhookConcurrency: number;
  readonly requestTimeoutMs: number;
  readonly retention: number;
  readonly checkAnswers: boolean;
  readonly onLog: ((line: string) => void) | undefined;
}

const MID = /^[A-Za-z0-9]{1,20}$/;

/** What a webhook URL must be: the `webhookUrl` option and `POST /sandbox/webhook-url` hold it to the same rule. */
export const WEBHOOK_URL_RULE = 'The webhook URL must be an http(s) URL.';

/** Whether a value is a webhook URL the sandbox sends to. */
export const isWebhookUrl = (value: unknown): value is string =>
  typeof value === 'string' && /^https?:\/\/[^\s]+$/.test(value);

/** Checks the options (callers in JavaScript pass anything) and fills in the defaults. */
export function resolveConfig(options: SandboxOptions = {}): SandboxConfig {
  const mids = [...new Set(options.mids ?? (options.mid ? [options.mid] : [DEFAULT_MID]))];
  const [defaultMid] = mids;
  if (defaultMid === undefined || mids.some((m) => typeof m !== 'string' || !MID.test(m)))
    throw new TypeError('Each merchant id must be 1 to 20 letters or digits.');
  const merchantKey = options.merchantKey ?? DEFAULT_MERCHANT_KEY;
  if (typeof merchantKey !== 'string' || Buffer.byteLength(merchantKey) !== 16)
    throw new TypeError('The merchant key must be 16 bytes (AES-128, as the CHECKSUM scheme needs).');
  const clientId = options.clientId ?? DEFAULT_CLIENT_ID;
  if (typeof clientId !== 'string' || !/^[A-Za-z0-9]{1,3}$/.test(clientId))
    throw new TypeError('The client id must be 1 to 3 letters or digits (list subscriptions allows 3 characters).');
  const webhookUrl = options.webhookUrl ?? undefined;
  if (webhookUrl !== undefined && !isWebhookUrl(webhookUrl)) throw new TypeError(WEBHOOK_URL_RULE);
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new TypeError('The port must be a whole number from 0 to 65535.');
  const positive = (v: unknown, d: number, what: string): number => {
    const n = v ?? d;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0)
      throw new TypeError(`${what} must be a number of 0 or more.`);
    return n;
  };
  return {
    mids,
    defaultMid,
    merchantKey,
    usesDefaultKey: merchantKey === DEFAULT_MERCHANT_KEY,
    clientId,
    webhookUrl,
    host: options.host ?? '127.0.0.1',
    port,
    maxBodyBytes: positive(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes'),
    tokenActivationDelayMs: positive(
      options.tokenActivationDelayMs,
      DEFAULT_TOKEN_ACTIVATION_DELAY_MS,
      'tokenActivationDelayMs',
    ),
    webhookTimeoutMs: positive(options.webhookTimeoutMs, DEFAULT_WEBHOOK_TIMEOUT_MS, 'webhookTimeoutMs'),
    webhookRetry: resolveWebhookRetry(options.webhookRetry),
    webhookConcurrency: resolveWebhookConcurrency(options.webhookConcurrency),
    requestTimeoutMs: positive(options.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS, 'requestTimeoutMs'),
    retention: wholeAtLeastOne(options.retention, DEFAULT_RETENTION, 'retention'),
    checkAnswers: options.checkAnswers === true,
    onLog: options.onLog,
  };
}

/** How many notifications go out at once, checked. */
function resolveWebhookConcurrency(given: unknown): number {
  const n = given ?? DEFAULT_WEBHOOK_CONCURRENCY;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1 || n > MAX_WEBHOOK_CONCURRENCY)
    throw new TypeError(`webhookConcurrency must be a whole number from 1 to ${MAX_WEBHOOK_CONCURRENCY}.`);
  return n;
}

/** The retry settings, checked, with the defaults for what is not given. */
function resolveWebhookRetry(given: unknown): Readonly<WebhookRetry> {
  if (given === undefined) return DEFAULT_WEBHOOK_RETRY;
  if (typeof given !== 'object' || given === null)
    throw new TypeError('webhookRetry must be an object {retries?, firstDelayMs?, factor?}.');
  const {
    retries = DEFAULT_WEBHOOK_RETRY.retries,
    firstDelayMs = DEFAULT_WEBHOOK_RETRY.firstDelayMs,
    factor = DEFAULT_WEBHOOK_RETRY.factor,
  } = given as Partial<WebhookRetry>;
  if (!Number.isSafeInteger(retries) || retries < 0 || retries > 10)
    throw new TypeError('webhookRetry.retries must be a whole number from 0 to 10.');
  if (!Number.isSafeInteger(firstDelayMs) || firstDelayMs < 0 || firstDelayMs > 86_400_000)
    throw new TypeError(
      'webhookRetry.firstDelayMs must be a whole number of milliseconds from 0 to 86 400 000 (a day).',
    );
  if (typeof factor !== 'number' || !Number.isFinite(factor) || factor < 1 || factor > 10)
    throw new TypeError('webhookRetry.factor must be a number from 1 to 10.');
  return Object.freeze({ retries, firstDelayMs, factor });
}
