// Token status notifications to the merchant's {merchant_response_url} (sections 4.1 and 6), sent
// with the package's webhook sender and the merchant's CHECKSUM signer. Each delivery is recorded
// with the merchant's reply and its verdict against the contract. Notifications of one token go out
// in order; there are no automatic retries (retries are not shown, D-26).
import { createChecksumSigner } from '../signing/checksum.js';
import { digitsId } from './ids.js';

/**
 * @param {{ store: import('./store.js').Store, clock: import('./clock.js').Clock, config: import('./config.js').SandboxConfig,
 *   send: (options: any) => Promise<any> }} deps
 */
export function createWebhooks({ store, clock, config, send }) {
  const signer = createChecksumSigner(config.merchantKey);
  /** Per token, the end of its chain of deliveries (so they are sent in order). @type {Map<string, Promise<unknown>>} */
  const chains = new Map();
  /** @type {Set<Promise<unknown>>} */
  const inFlight = new Set();
  let sequence = 0;

  /** @param {any} delivery @param {string} mid @param {any} tokenInfo */
  async function deliver(delivery, mid, tokenInfo) {
    if (!config.webhookUrl) {
      Object.assign(delivery, { state: 'skipped', reason: 'No webhook URL is configured (option webhookUrl, flag --webhook-url).' });
      return delivery;
    }
    try {
      const result = await send({ url: config.webhookUrl, body: { mid, tokenInfo }, signer, requestId: delivery.requestId, now: clock.now, timeoutMs: config.webhookTimeoutMs });
      Object.assign(delivery, {
        state: result.valid && result.outcome === 'success' ? 'delivered' : result.valid ? 'not-accepted' : 'invalid-reply',
        httpStatus: result.httpStatus, code: result.code, outcome: result.outcome, valid: result.valid, issues: result.issues, reply: result.reply,
      });
    } catch (error) {
      const e = /** @type {any} */ (error);
      Object.assign(delivery, { state: 'failed', error: { name: e?.name ?? 'Error', kind: e?.kind, message: String(e?.message ?? 'the delivery failed').slice(0, 300) } });
    }
    delivery.completedAt = new Date(clock.now()).toISOString();
    config.onLog?.(`webhook ${delivery.tokenStatus} ${delivery.tokenIndexNumber} -> ${delivery.state}${delivery.code ? ` (${delivery.code})` : ''}`);
    return delivery;
  }

  return {
    /**
     * Sends the notification of a token's status; resolves with the delivery record once it ends.
     * @param {string} mid @param {any} tokenInfo
     */
    notify(mid, tokenInfo) {
      const delivery = {
        id: `DLV${++sequence}`, tokenIndexNumber: tokenInfo.tokenIndexNumber, tokenStatus: tokenInfo.tokenStatus, mid,
        url: config.webhookUrl ?? null, requestId: `NTF${digitsId(clock.now())}`, createdAt: new Date(clock.now()).toISOString(), state: 'pending',
      };
      store.deliveries.push(delivery);
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
    /** Resolves when every delivery started so far has ended. */
    async idle() {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
    list: () => store.deliveries,
  };
}

/** @typedef {ReturnType<typeof createWebhooks>} Webhooks */
