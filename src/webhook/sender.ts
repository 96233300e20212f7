// `gateway-contract/webhook/sender`: for development and CI, the service's side of the webhook:
// post a signed token status notification to a merchant's endpoint, or run the conformance suite
// against it. Web-standard (fetch).
export type {
  PostNotificationOptions,
  PostNotificationResult,
  SendTokenNotificationOptions,
  SendTokenNotificationResult,
} from './send.js';
export { postNotification, sendTokenNotification } from './send.js';
export type { WebhookSuiteCase, WebhookSuiteOptions, WebhookSuiteResult } from './suite.js';
export { runWebhookSuite } from './suite.js';
