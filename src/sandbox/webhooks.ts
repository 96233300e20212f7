// Token status notifications to the merchant's {merchant_response_url} (sections 4.1 and 6), sent
// with the package's webhook sender and the merchant's CHECKSUM signer. Each delivery is recorded
// with every attempt, the merchant's last reply and its verdict against the contract. First
// attempts of one token go out in order; a notification not answered 00 is sent again on the
// sandbox clock with growing waits, up to webhookRetry.retries times (D-60). At most
// webhookConcurrency are sent at once; the others wait their turn (D-58). The faults
// duplicate-webhook and reorder-webhooks send a notification twice or after the next one (D-61).
import { isPublicPlace, marker } from '../json/publicValues.js';
import { createChecksumSigner, type Signer } from '../signing/checksum.js';
import type { Schemas } from '../types.js';
import type { Clock } from './clock.js';
import type { SandboxConfig, SandboxOptions } from './config.js';
import type { Faults } from './faults.js';
import { Fifo } from './fifo.js';
import { digitsId } from './ids.js';
import type { WebhookAttempt, WebhookDelivery } from './records.js';
import type { Scheduler } from './scheduler.js';
import type { Store } from './store.js';
import type { Timers } from './timers.js';
import { memberOf } from './untrusted.js';

/** A value of the notification as a log line shows it: in clear only where the contract marks it public (docs/decisions.md, D-102). */
const inLog = (pointer: string, value: string) => (isPublicPlace('notifyTokenStatus', 'request', pointer) ? value : marker(value));

/** The most of a merchant's reply a delivery reads and records. */
export const MAX_REPLY_BYTES = 16 * 1024;

export interface Webhooks {
  /** Sends the notification of a token's status; resolves with the delivery record once its first attempt ends. */
  notify(mid: string, tokenInfo: Schemas['TokenInfo']): Promise<WebhookDelivery>;
  /** Resolves when every attempt started before the call has ended (not those started later, nor scheduled retries). */
  idle(): Promise<void>;
  /** Every delivery so far, oldest first. */
  list(): WebhookDelivery[];
  /** Forgets scheduled retries and held notifications (the store and the scheduler forget the rest). */
  reset(): void;
  /** Forgets as reset() does, and ends the attempts on their way at once (each recorded as failed: aborted). */
  stop(): void;
}

/** A notification on its way: its record and what it sends. */
interface Notification {
  delivery: WebhookDelivery;
  mid: string;
  tokenInfo: Schemas['TokenInfo'];
  /** Order of creation: a later delivered notification ends the retries of earlier ones of its token. */
  seq: number;
  /** The signature and time of the first attempt, kept for a duplicate (never recorded or shown). */
  sent?: { signature: string; at: number };
  duplicate: boolean;
  /** Its record was forgotten past the retention: no further attempt is made. */
  forgotten?: true;
  /** Cancels its scheduled retry, while one is scheduled. */
  cancelRetry?: () => void;
  /** Its place among the attempts waiting for their turn, while it waits. */
  turn?: Turn;
}

/** An attempt waiting for its turn to be sent. */
interface Turn {
  state: 'waiting' | 'granted' | 'dropped';
  /** Lets it go (true) or drops it (false: a reset, a stop, or its record forgotten). */
  go: (send: boolean) => void;
}

export function createWebhooks({
  store,
  clock,
  config,
  scheduler,
  faults,
  timers,
  send,
}: {
  store: Store;
  clock: Clock;
  config: SandboxConfig;
  scheduler: Scheduler;
  faults: Faults;
  timers: Timers;
  send: NonNullable<SandboxOptions['sendNotification']>;
}): Webhooks {
  const signer = createChecksumSigner(config.merchantKey);
  /** Per token, the end of its chain of first attempts (so they are sent in order). */
  const chains = new Map<string, Promise<unknown>>();
  /** Per token, its notifications waiting for a retry. */
  const retrying = new Map<string, Set<Notification>>();
  const inFlight = new Set<Promise<unknown>>();
  /** A notification held back by reorder-webhooks, and how to send it. */
  let held: { notification: Notification; release: () => void; drop: () => void } | undefined;
  let sequence = 0;
  /** Bumped by reset(): attempts of an earlier generation schedule nothing. */
  let generation = 0;
  /** Notifications being sent, at most webhookConcurrency: a merchant that never answers holds that many sockets, not one per token. */
  let sending = 0;
  /** Attempts waiting for their turn, oldest first. */
  const waiting = new Fifo<Turn>();
  /** Dropped attempts still in `waiting`. */
  let dropped = 0;
  /** The notification of each delivery record, to end those the store forgets. */
  const notifications = new WeakMap<WebhookDelivery, Notification>();
  /** Aborted by stop(): no attempt outlives the sandbox, whatever its merchant does. */
  const stopping = new AbortController();

  /** A turn to send: at once when fewer than webhookConcurrency are being sent, else once one ends. */
  function turn(n: Notification): true | Promise<boolean> {
    if (sending < config.webhookConcurrency) {
      sending++;
      return true;
    }
    return new Promise((resolve) => {
      n.turn = { state: 'waiting', go: resolve };
      waiting.push(n.turn);
    });
  }

  /** Ends a send: its turn passes to the oldest attempt still waiting. */
  function endTurn(): void {
    for (let next = waiting.shift(); next; next = waiting.shift()) {
      if (next.state === 'dropped') {
        dropped--;
        continue;
      }
      next.state = 'granted';
      next.go(true);
      return;
    }
    sending--;
  }

  /** Drops a waiting attempt: it is not sent. The dropped ones are let go once they are most of the queue. */
  function dropTurn(t: Turn): void {
    if (t.state !== 'waiting') return;
    t.state = 'dropped';
    t.go(false);
    if (++dropped > 64 && dropped * 2 > waiting.size) {
      for (const w of waiting.drain()) if (w.state === 'waiting') waiting.push(w);
      dropped = 0;
    }
  }

  // A delivery the store forgets past the retention is not sent again: its retry is cancelled and,
  // if it waits for its turn, it is dropped, so neither the scheduler nor the queue outgrows the store.
  store.forgotten.delivery = (delivery) => {
    const n = notifications.get(delivery);
    if (!n) return;
    n.forgotten = true;
    if (n.turn) dropTurn(n.turn);
    n.cancelRetry?.();
    delete n.cancelRetry;
    const token = delivery.tokenIndexNumber;
    const waitingRetry = retrying.get(token);
    waitingRetry?.delete(n);
    if (waitingRetry?.size === 0) retrying.delete(token);
  };

  const iso = (ms: number) => new Date(ms).toISOString();

  function track<T>(promise: Promise<T>): Promise<T> {
    inFlight.add(promise);
    promise.finally(() => inFlight.delete(promise)).catch(() => undefined);
    return promise;
  }

  /** One attempt: send, record the outcome, then decide whether another follows. */
  async function attempt(n: Notification): Promise<WebhookDelivery> {
    const { delivery } = n;
    const started = generation;
    delete delivery.nextAttemptAt;
    if (n.forgotten) return delivery;
    if (!config.webhookUrl) {
      delivery.state = 'skipped';
      delivery.reason = 'No webhook URL is configured (option webhookUrl, flag --webhook-url).';
      return delivery;
    }
    delivery.state = 'pending';
    const go = turn(n);
    if (go !== true) {
      const granted = await go;
      delete n.turn;
      if (!granted) {
        delivery.state = 'skipped';
        delivery.reason = n.forgotten
          ? 'Waiting for its turn to be sent, and forgotten past the retention.'
          : 'Waiting for its turn to be sent, and forgotten by a reset or stop.';
        return delivery;
      }
    }
    // Timed from when it goes out, not from when it was queued: its timestamp stays fresh.
    const at = n.duplicate && n.sent ? n.sent.at : clock.now();
    const record: WebhookAttempt = { at: iso(clock.now()), state: 'failed' };
    try {
      const result = await send({
        url: config.webhookUrl,
        body: { mid: n.mid, tokenInfo: n.tokenInfo },
        signer: signerFor(n),
        requestId: delivery.requestId,
        now: () => at,
        timeoutMs: config.webhookTimeoutMs,
        // A reply is a few hundred bytes; more is neither read nor kept in the record.
        maxReplyBytes: MAX_REPLY_BYTES,
        signal: stopping.signal,
      });
      delivery.state = result.valid && result.outcome === 'success' ? 'delivered' : result.valid ? 'not-accepted' : 'invalid-reply';
      delivery.httpStatus = result.httpStatus;
      if (result.code !== undefined) delivery.code = result.code;
      else delete delivery.code;
      delivery.outcome = result.outcome;
      delivery.valid = result.valid;
      delivery.issues = result.issues;
      delivery.reply = result.reply;
      delete delivery.error;
      Object.assign(record, { state: delivery.state, httpStatus: result.httpStatus }, result.code === undefined ? {} : { code: result.code });
    } catch (error) {
      // A sender given in the options may throw anything: only these three fields are kept.
      const kind = memberOf(error, 'kind');
      delivery.state = 'failed';
      delivery.error = {
        name: String(memberOf(error, 'name') ?? 'Error'),
        ...(typeof kind === 'string' ? { kind } : {}),
        message: String(memberOf(error, 'message') ?? 'the delivery failed').slice(0, 300),
      };
      for (const key of ['httpStatus', 'code', 'outcome', 'valid', 'issues', 'reply'] as const) delete delivery[key];
      record.error = delivery.error;
    } finally {
      endTurn();
    }
    delivery.attempts.push(record);
    delivery.completedAt = iso(clock.now());
    config.onLog?.(
      `webhook ${inLog('/body/tokenInfo/tokenStatus', delivery.tokenStatus)} ${inLog('/body/tokenInfo/tokenIndexNumber', delivery.tokenIndexNumber)} attempt ${delivery.attempts.length} -> ${delivery.state}${delivery.code ? ` (${delivery.code})` : ''}`,
    );
    if (started === generation) afterAttempt(n);
    return delivery;
  }

  /** The signer of an attempt: a duplicate repeats the signature of its original, byte for byte. */
  function signerFor(n: Notification): Signer {
    const { sent } = n;
    if (n.duplicate && sent) return { signatureType: signer.signatureType, sign: () => sent.signature };
    return {
      signatureType: signer.signatureType,
      sign: async (text) => {
        const signature = await signer.sign(text);
        n.sent = { signature, at: clock.now() };
        return signature;
      },
    };
  }

  /** After an attempt: end the retries it makes stale, or schedule its own next one. */
  function afterAttempt(n: Notification): void {
    const { delivery } = n;
    const token = delivery.tokenIndexNumber;
    // Forgotten while it was on its way: nothing follows it.
    if (n.forgotten) return;
    if (delivery.state === 'delivered') {
      // An older status is not sent after a newer one reached the merchant.
      for (const older of retrying.get(token) ?? []) {
        if (older.seq > n.seq) continue;
        older.cancelRetry?.();
        delete older.cancelRetry;
        delete older.delivery.nextAttemptAt;
        older.delivery.reason =
          older.seq === n.seq
            ? `No further attempt: its copy ${delivery.id} was delivered.`
            : `No further attempt: ${delivery.id}, a later status of this token, was delivered.`;
        retrying.get(token)?.delete(older);
      }
      if (retrying.get(token)?.size === 0) retrying.delete(token);
      return;
    }
    // A copy is sent once: its refusal (406, a replay) is what it is there to show.
    if (n.duplicate) return;
    const made = delivery.attempts.length;
    if (made > 1 && delivery.code === '406') {
      delivery.reason = 'No further attempt: the merchant refuses the repeated requestId (406), so an earlier attempt reached it.';
      return;
    }
    const { retries, firstDelayMs, factor } = config.webhookRetry;
    if (made > retries) {
      if (retries > 0) delivery.reason = `No further attempt: ${made} attempts made (webhookRetry.retries is ${retries}).`;
      return;
    }
    const due = clock.now() + Math.round(firstDelayMs * factor ** (made - 1));
    delivery.nextAttemptAt = iso(due);
    const ofToken = retrying.get(token) ?? new Set<Notification>();
    ofToken.add(n);
    retrying.set(token, ofToken);
    n.cancelRetry = scheduler.at(due, () => {
      delete n.cancelRetry;
      // Ended meanwhile (a later status delivered, or a reset): nothing to send.
      if (!ofToken.has(n)) return undefined;
      ofToken.delete(n);
      if (ofToken.size === 0 && retrying.get(token) === ofToken) retrying.delete(token);
      return track(attempt(n));
    });
  }

  function record(mid: string, tokenInfo: Schemas['TokenInfo'], extra: Partial<WebhookDelivery> = {}): WebhookDelivery {
    const delivery: WebhookDelivery = {
      id: `DLV${++sequence}`,
      tokenIndexNumber: tokenInfo.tokenIndexNumber,
      tokenStatus: tokenInfo.tokenStatus,
      mid,
      url: config.webhookUrl ?? null,
      requestId: `NTF${digitsId(clock.now())}`,
      createdAt: iso(clock.now()),
      state: 'pending',
      attempts: [],
      ...extra,
    };
    store.addDelivery(delivery);
    return delivery;
  }

  /** A notification of a delivery record, known by its record. */
  function notification(n: Notification): Notification {
    notifications.set(n.delivery, n);
    return n;
  }

  /** The first attempt of `n`, after the earlier ones of its token; then its copy, when one is armed. */
  function chain(n: Notification, withDuplicate: boolean): Promise<WebhookDelivery> {
    const token = n.tokenInfo.tokenIndexNumber;
    const previous = chains.get(token) ?? Promise.resolve();
    const done = previous.then(async () => {
      await attempt(n);
      if (withDuplicate && config.webhookUrl) {
        const copy = notification({
          delivery: record(n.mid, n.tokenInfo, { requestId: n.delivery.requestId, duplicateOf: n.delivery.id }),
          mid: n.mid,
          tokenInfo: n.tokenInfo,
          seq: n.seq,
          duplicate: true,
          ...(n.sent ? { sent: n.sent } : {}),
        });
        await attempt(copy);
      }
      return n.delivery;
    });
    chains.set(token, done);
    done.finally(() => {
      if (chains.get(token) === done) chains.delete(token);
    });
    return track(done);
  }

  /** Sends the held notification, if any. */
  function releaseHeld(): void {
    const h = held;
    held = undefined;
    h?.release();
  }

  function reset(): void {
    generation++;
    retrying.clear();
    for (const t of waiting.drain()) {
      if (t.state !== 'waiting') continue;
      t.state = 'dropped';
      t.go(false);
    }
    dropped = 0;
    const h = held;
    held = undefined;
    h?.drop();
  }

  return {
    notify(mid, tokenInfo) {
      // One notification is held back at a time: while one is, a reorder fault waits for the next.
      const fault = faults.takeWebhookFault(held ? 'reorder-webhooks' : undefined);
      const delivery = record(mid, tokenInfo);
      const n = notification({ delivery, mid, tokenInfo, seq: sequence, duplicate: false });
      if (fault === 'reorder-webhooks') {
        // Held back until the next notification's first attempt ends, or the webhook timeout passes.
        delivery.reordered = true;
        const sending = new Promise<WebhookDelivery>((resolve) => {
          const release = () => resolve(attempt(n));
          const drop = () => {
            delivery.state = 'skipped';
            delivery.reason = 'Held back by reorder-webhooks, and forgotten by a reset or stop before it was sent.';
            resolve(delivery);
          };
          held = { notification: n, release, drop };
          timers.later(config.webhookTimeoutMs, () => {
            if (held?.notification === n) releaseHeld();
          });
        });
        return track(sending);
      }
      const done = chain(n, fault === 'duplicate-webhook');
      if (held) done.finally(releaseHeld).catch(() => undefined);
      return done;
    },
    async idle() {
      // What is on its way now, and only that: deliveries that start while it waits (under traffic,
      // one after another) would otherwise keep it waiting without end.
      await Promise.allSettled([...inFlight]);
    },
    list: () => store.deliveries,
    reset,
    stop() {
      reset();
      stopping.abort();
    },
  };
}
