// The merchant the sandbox serves and its own settings, with the documented defaults for local use.
// The default merchant key is a published test key for the sandbox only: never a real secret.

export const DEFAULT_MID = 'MERCHANT0001';
export const DEFAULT_MERCHANT_KEY = 'SandboxTestKey01';
export const DEFAULT_CLIENT_ID = 'C11';
export const DEFAULT_PORT = 4020;
/** Transaction tokens live 15 minutes (section 4.7 and 8). */
export const TXN_TOKEN_TTL_MS = 15 * 60 * 1000;
/** How long an INIT token waits before it becomes ACTIVE or FAILED (sandbox time). */
export const DEFAULT_TOKEN_ACTIVATION_DELAY_MS = 5_000;
/** Request bodies larger than this are refused (64 KiB: a large pay request is about 2 KiB). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
/** How long a webhook delivery may take before it is recorded as failed. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

const MID = /^[A-Za-z0-9]{1,20}$/;

/**
 * @param {import('./index.js').SandboxOptions} options
 */
export function resolveConfig(options = {}) {
  const mids = [...new Set(options.mids ?? (options.mid ? [options.mid] : [DEFAULT_MID]))];
  if (mids.length === 0 || mids.some((m) => typeof m !== 'string' || !MID.test(m))) throw new TypeError('Each merchant id must be 1 to 20 letters or digits.');
  const merchantKey = options.merchantKey ?? DEFAULT_MERCHANT_KEY;
  if (typeof merchantKey !== 'string' || Buffer.byteLength(merchantKey) !== 16) throw new TypeError('The merchant key must be 16 bytes (AES-128, as the CHECKSUM scheme needs).');
  const clientId = options.clientId ?? DEFAULT_CLIENT_ID;
  if (typeof clientId !== 'string' || !/^[A-Za-z0-9]{1,3}$/.test(clientId)) throw new TypeError('The client id must be 1 to 3 letters or digits (list subscriptions allows 3 characters).');
  const webhookUrl = options.webhookUrl ?? undefined;
  if (webhookUrl !== undefined && (typeof webhookUrl !== 'string' || !/^https?:\/\/[^\s]+$/.test(webhookUrl))) throw new TypeError('The webhook URL must be an http(s) URL.');
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError('The port must be a whole number from 0 to 65535.');
  const positive = (/** @type {unknown} */ v, /** @type {number} */ d, /** @type {string} */ what) => {
    const n = v ?? d;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw new TypeError(`${what} must be a number of 0 or more.`);
    return n;
  };
  return {
    mids,
    /** The first merchant id: what control calls use when they are given none. */
    defaultMid: mids[0],
    merchantKey,
    usesDefaultKey: merchantKey === DEFAULT_MERCHANT_KEY,
    clientId,
    webhookUrl,
    host: options.host ?? '127.0.0.1',
    port,
    maxBodyBytes: positive(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes'),
    tokenActivationDelayMs: positive(options.tokenActivationDelayMs, DEFAULT_TOKEN_ACTIVATION_DELAY_MS, 'tokenActivationDelayMs'),
    webhookTimeoutMs: positive(options.webhookTimeoutMs, DEFAULT_WEBHOOK_TIMEOUT_MS, 'webhookTimeoutMs'),
    checkAnswers: options.checkAnswers === true,
    onLog: options.onLog,
  };
}

/** @typedef {ReturnType<typeof resolveConfig>} SandboxConfig */
