// Token status notifications to the merchant's {merchant_response_url} (sections 4.1 and 6), sent
// with the package's webhook sender and the merchant's CHECKSUM signer. Each delivery is recorded
// with the merchant's reply and its verdict against the contract. Notifications of one token go out
// in order; there are no automatic retries (retries are not shown, D-26).
import { createChecksumSigner } from '../signing/checksum.js';
import type { Schemas } from '../types.js';
import type { Clock } from './clock.js';
import type { SandboxConfig, SandboxOptions } from './config.js';
import { digitsId } from './ids.js';
import type { WebhookDelivery } from './records.js';
import type { Store } from './store.js';
import { memberOf } from './untrusted.js';

/** The most of a merchant's reply a delivery reads and records. */
export const MAX_REPLY_BYTES = 16 * 1024;

export interface Webhooks {
  /** Sends the notification of a token's status; resolves with the delivery record once it ends. */
  notify(mid: string, tokenInfo: Schemas['TokenInfo']): Promise<WebhookDelivery>;
  /** Resolves when every delivery started so far has ended. */
  idle(): Promise<void>;
  /** Every delivery so far, oldest first. */
  list(): WebhookDelivery[];
}

export function createWebhooks({
  store,
  clock,
  config,
  send,
}: {
  store: Store;
  clock: Clock;
  config: SandboxConfig;
  send: NonNullable<SandboxOptions['sendNotification']>;
}): Webhooks {
  const signer = createChecksumSigner(config.merchantKey);
  /** Per token, the end of its chain of deliveries (so they are sent in order). */
  const chains = new Map<string, Promise<unknown>>();
  const inFlight = new Set<Promise<unknown>>();
  let sequence = 0;

  async function deliver(delivery: WebhookDelivery, mid: string, tokenInfo: Schemas['TokenInfo']): Promise<WebhookDelivery> {
    if (!config.webhookUrl) {
      delivery.state = 'skipped';
      delivery.reason = 'No webhook URL is configured (option webhookUrl, flag --webhook-url).';
      return delivery;
    }
    try {
      const result = await send({
        url: config.webhookUrl,
        body: { mid, tokenInfo },
        signer,
        requestId: delivery.requestId,
        now: clock.now,
        timeoutMs: config.webhookTimeoutMs,
        // A reply is a few hundred bytes; more is neither read nor kept in the record.
        maxReplyBytes: MAX_REPLY_BYTES,
      });
      delivery.state = result.valid && result.outcome === 'success' ? 'delivered' : result.valid ? 'not-accepted' : 'invalid-reply';
      delivery.httpStatus = result.httpStatus;
      if (result.code !== undefined) delivery.code = result.code;
      delivery.outcome = result.outcome;
      delivery.valid = result.valid;
      delivery.issues = result.issues;
      delivery.reply = result.reply;
    } catch (error) {
      // A sender given in the options may throw anything: only these three fields are kept.
      const kind = memberOf(error, 'kind');
      delivery.state = 'failed';
      delivery.error = {
        name: String(memberOf(error, 'name') ?? 'Error'),
        ...(typeof kind === 'string' ? { kind } : {}),
        message: String(memberOf(error, 'message') ?? 'the delivery failed').slice(0, 300),
      };
    }
    delivery.completedAt = new Date(clock.now()).toISOString();
    config.onLog?.(`webhook ${delivery.tokenStatus} ${delivery.tokenIndexNumber} -> ${delivery.state}${delivery.code ? ` (${delivery.code})` : ''}`);
    return delivery;
  }

  return {
    notify(mid, tokenInfo) {
      const delivery: WebhookDelivery = {
        id: `DLV${++sequence}`,
        tokenIndexNumber: tokenInfo.tokenIndexNumber,
        tokenStatus: tokenInfo.tokenStatus,
        mid,
        url: config.webhookUrl ?? null,
        requestId: `NTF${digitsId(clock.now())}`,
        createdAt: new Date(clock.now()).toISOString(),
        state: 'pending',
      };
      store.addDelivery(delivery);
      const previous = chains.get(tokenInfo.tokenIndexNumber) ?? Promise.resolve();
      const done = previous.then(() => deliver(delivery, mid, tokenInfo));
      chains.set(tokenInfo.tokenIndexNumber, done);
      inFlight.add(done);
      done.finally(() => {
        inFlight.delete(done);
        if (chains.get(tokenInfo.tokenIndexNumber) === done) chains.delete(tokenInfo.tokenIndexNumber);
      });
      return done;
    },
    async idle() {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
    list: () => store.deliveries,
  };
}
