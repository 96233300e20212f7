// `gateway-contract/webhook`: the merchant's receiver of the token status notification, with its
// replay memory. Web-standard (receive() and fetchHandler); nodeHandler serves node:http.
export type {
  ClaimOutcome,
  ReplayStore,
  TokenStatusEvent,
  TokenStatusHandler,
  TokenStatusReply,
  WebhookAccepted,
  WebhookReceiver,
  WebhookReceiverOptions,
  WebhookRejected,
  WebhookVerdict,
} from './receive.js';
export { createWebhookReceiver, WEBHOOK_DEFAULTS } from './receive.js';
export { createMemoryReplayStore, ReplayStoreFullError } from './replayStore.js';
export type { WebhookStoreEvent, WebhookVerdictEvent } from './tracing.js';
