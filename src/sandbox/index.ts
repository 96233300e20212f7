// The sandbox's public surface: start it, its documented defaults, the txnInfo checksum it computes
// (so a merchant's verification code can be tested against it), and the types of all of these.

export { txnInfoChecksumText, verifyTxnInfoChecksum } from '../signing/txnInfoChecksum.js';
export type { SandboxOptions, WebhookRetry } from './config.js';
export {
  DEFAULT_CLIENT_ID,
  DEFAULT_MERCHANT_KEY,
  DEFAULT_MID,
  DEFAULT_PORT,
  DEFAULT_TOKEN_ACTIVATION_DELAY_MS,
  DEFAULT_WEBHOOK_RETRY,
  TXN_TOKEN_TTL_MS,
} from './config.js';
export type { CreateOrderSpec } from './control/actions.js';
export type { ArmedFault, FaultSpec } from './faults.js';
export type { WebhookAttempt, WebhookDelivery } from './records.js';
export type { Sandbox } from './startSandbox.js';
export { startSandbox } from './startSandbox.js';
export type { SandboxOrder } from './views.js';
