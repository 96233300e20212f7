// The fixtures of the package's own sandbox, through its control API (`/sandbox/...`, a sandbox
// extension outside the contract): orders, the card key, its built-in test instruments, the webhook
// target, token moves, the bank page and the clock.
import { readBounded } from '../transport/send.js';
import type { VerifyFixtures } from './fixtures.js';

/** The longest a control call may take (ms) and the most it may answer (bytes). */
const CONTROL_TIMEOUT_MS = 10_000;
const CONTROL_MAX_BYTES = 1024 * 1024;

async function control(base: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const signal = AbortSignal.timeout(CONTROL_TIMEOUT_MS);
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    redirect: 'manual',
    signal,
  });
  // Read within the bound, as it comes: reading stops past it (not after the whole answer was kept).
  const text = await readBounded(response.body, CONTROL_MAX_BYTES, signal);
  if (text === null) throw new Error(`The sandbox's ${method} ${path} answered more than ${CONTROL_MAX_BYTES} bytes.`);
  if (response.status >= 300) throw new Error(`The sandbox's ${method} ${path} answered HTTP ${response.status}.`);
  return text ? JSON.parse(text) : undefined;
}

const field = (value: unknown, name: string): unknown =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;

/** The fixtures of a sandbox served at `url` (the address where `/sandbox/...` is served). */
export async function sandboxFixtures(url: string): Promise<VerifyFixtures> {
  const base = url.replace(/\/+$/, '');
  // The sandbox answers its overview: a sandbox is there, and its control API is reachable.
  const overview = await control(base, 'GET', '/sandbox');
  // Where the sandbox sent notifications before verify: put back when verify is done with them.
  const before = field(field(overview, 'merchant'), 'webhookUrl');
  const configured = typeof before === 'string' ? before : null;
  return {
    async createOrder({ orderId, amount, custId }) {
      const order = await control(base, 'POST', '/sandbox/orders', { orderId, custId, txnAmount: { value: amount } });
      const txnToken = field(order, 'txnToken');
      if (typeof txnToken !== 'string') throw new Error('The sandbox created an order without a txnToken.');
      return { txnToken };
    },
    async cardEncryptionKey() {
      const key = field(await control(base, 'GET', '/sandbox/card-encryption-key'), 'publicKeyPem');
      if (typeof key !== 'string') throw new Error('The sandbox answered no publicKeyPem.');
      return key;
    },
    // The built-in test instruments (docs/sandbox.md, "Test instruments").
    instruments: {
      card: { number: '4111111111111111', expiryMonth: '12', expiryYear: '2030', securityCode: '123' },
      bankCode: 'SBI',
      vpa: 'success@upi',
      svcSsoToken: 'sso-funded-wallet',
      lowBalance: { svcSsoToken: 'sso-low-balance', amount: '500.00' },
    },
    // `null` gives the sandbox back the webhook URL it had (none, or its --webhook-url).
    async notifyTo(target) {
      await control(base, 'POST', '/sandbox/webhook-url', { url: target ?? configured });
    },
    async moveToken(tokenIndexNumber, status) {
      await control(base, 'POST', `/sandbox/tokens/${encodeURIComponent(tokenIndexNumber)}/status`, { status });
    },
    async closeOrder(orderId) {
      await control(base, 'POST', `/sandbox/orders/${encodeURIComponent(orderId)}/close`, {});
    },
    async completePayment(orderId) {
      await control(base, 'POST', `/sandbox/orders/${encodeURIComponent(orderId)}/complete`, { outcome: 'success' });
    },
    async advanceTime(ms) {
      await control(base, 'POST', '/sandbox/clock/advance', { ms });
    },
  };
}

/** The sandbox's merchant as its overview shows it: the merchant ids it serves and the clientId of the key. */
export async function sandboxMerchant(url: string): Promise<{ mids: string[]; clientId: string | undefined }> {
  const merchant = field(await control(url.replace(/\/+$/, ''), 'GET', '/sandbox'), 'merchant');
  const mids = field(merchant, 'mids');
  const clientId = field(merchant, 'clientId');
  return {
    mids: Array.isArray(mids) ? mids.filter((m): m is string => typeof m === 'string') : [],
    clientId: typeof clientId === 'string' ? clientId : undefined,
  };
}
