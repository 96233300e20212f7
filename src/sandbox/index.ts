// The sandbox's public surface: start it, its documented defaults, the txnInfo checksum it computes
// (so a merchant's verification code can be tested against it), and the types of all of these.
export { startSandbox } from './startSandbox.js';
export type { Sandbox } from './startSandbox.js';
export type { SandboxOptions } from './config.js';
export type { SandboxOrder } from './views.js';
export type { CreateOrderSpec } from './control/actions.js';
export type { WebhookDelivery } from './records.js';
export { DEFAULT_MID, DEFAULT_MERCHANT_KEY, DEFAULT_CLIENT_ID, DEFAULT_PORT, TXN_TOKEN_TTL_MS, DEFAULT_TOKEN_ACTIVATION_DELAY_MS } from './config.js';
export { txnInfoChecksumText, verifyTxnInfoChecksum } from './txnChecksum.js';
