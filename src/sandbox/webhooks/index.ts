// Token status notifications to the merchant's {merchant_response_url} (sections 4.1 and 6), wired
// from their parts: the record of each delivery (deliveries.ts), one attempt (attempt.ts), the
// retries on the sandbox clock (retries.ts, D-60) and the turns to send, at most webhookConcurrency
// at once (../turns.ts, D-58). What is here is their order: first attempts of one token go out in
// order, and the faults duplicate-webhook and reorder-webhooks send a notification twice or after
// the next one (D-61).
import { createChecksumSigner, type Signer } from '../../signing/checksum.js';
import type { Schemas } from '../../types.js';
import type { Clock } from '../clock.js';
import type { SandboxConfig } from '../config.js';
import type { Faults } from '../faults.js';
import { digitsId } from '../ids.js';
import type { WebhookDelivery } from '../records.js';
import type { Scheduler } from '../scheduler.js';
import type { Store } from '../store.js';
import type { Timers } from '../timers.js';
import { Turns, type WaitingTurn } from '../turns.js';
import { type AttemptOutcome, keepingSigner, repeatingSigner, type SendNotification, sendAttempt } from './attempt.js';
import { attempted, attemptLine, created, goingOut, show, skipped } from './deliveries.js';
import { createRetries } from './retries.js';

export { MAX_REPLY_BYTES } from './attempt.js';

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
  /** Its record, as the sandbox shows it (one object throughout, see deliveries.ts). */
  readonly record: WebhookDelivery;
  readonly mid: string;
  readonly tokenInfo: Schemas['TokenInfo'];
  /** Order of creation: a later delivered notification ends the retries of earlier ones of its token. */
  readonly seq: number;
  readonly duplicate: boolean;
  /** The signature and time of the latest signed attempt, kept for a copy (never recorded or shown). */
  sent?: { signature: string; at: number };
  /** Its record was forgotten past the retention: no further attempt is made. */
  forgotten?: true;
  /** Its place in line for a turn to send, once it had to wait for one. */
  turn?: WaitingTurn;
}

/** A notification held back by reorder-webhooks, and how to send or drop it. */
interface Held {
  notification: Notification;
  release: () => void;
  drop: () => void;
}

const NO_URL = 'No webhook URL is configured (option webhookUrl, flag --webhook-url).';
const iso = (ms: number) => new Date(ms).toISOString();

/** What the notifications are made with. */
export interface WebhookParts {
  store: Store;
  clock: Clock;
  config: SandboxConfig;
  scheduler: Scheduler;
  faults: Faults;
  timers: Timers;
  send: SendNotification;
}

/** The signer of an attempt of `n`: a copy repeats the signature of its original, byte for byte. */
function signerFor(n: Notification, signer: Signer, clock: Clock): Signer {
  if (n.duplicate && n.sent) return repeatingSigner(signer.signatureType, n.sent.signature);
  return keepingSigner(signer, (signature) => {
    n.sent = { signature, at: clock.now() };
  });
}

export function createWebhooks({ store, clock, config, scheduler, faults, timers, send }: WebhookParts): Webhooks {
  const signer = createChecksumSigner(config.merchantKey);
  /** Per token, the end of its chain of first attempts (so they are sent in order). */
  const chains = new Map<string, Promise<unknown>>();
  const inFlight = new Set<Promise<unknown>>();
  let held: Held | undefined;
  let sequence = 0;
  /** Bumped by reset(): attempts of an earlier generation schedule nothing. */
  let generation = 0;
  /** A merchant that never answers holds webhookConcurrency sockets, not one per token. */
  const turns = new Turns(config.webhookConcurrency);
  const retries = createRetries<Notification>({
    scheduler,
    clock,
    retry: config.webhookRetry,
    send: (n) => track(attempt(n)),
  });
  /** The notification of each delivery record, to end those the store forgets. */
  const notifications = new WeakMap<WebhookDelivery, Notification>();
  /** Aborted by stop(): no attempt outlives the sandbox, whatever its merchant does. */
  const stopping = new AbortController();

  // A delivery the store forgets past the retention is not sent again: its retry is cancelled and,
  // if it waits for its turn, it is dropped, so neither the scheduler nor the line outgrows the store.
  store.forgotten.delivery = (delivery) => {
    const n = notifications.get(delivery);
    if (!n) return;
    n.forgotten = true;
    n.turn?.drop();
    retries.forget(n);
  };

  function track<T>(promise: Promise<T>): Promise<T> {
    inFlight.add(promise);
    promise.finally(() => inFlight.delete(promise)).catch(() => undefined);
    return promise;
  }

  /** One attempt: wait for a turn, send, record the outcome, then decide whether another follows. */
  async function attempt(n: Notification): Promise<WebhookDelivery> {
    const started = generation;
    if (n.forgotten) return n.record;
    if (!config.webhookUrl) {
      show(n.record, skipped(n.record, NO_URL));
      return n.record;
    }
    show(n.record, goingOut(n.record));
    const turn = turns.take();
    if (turn !== true) {
      n.turn = turn;
      if (!(await turn.granted)) {
        const why = n.forgotten ? 'forgotten past the retention' : 'forgotten by a reset or stop';
        show(n.record, skipped(n.record, `Waiting for its turn to be sent, and ${why}.`));
        return n.record;
      }
    }
    const url = config.webhookUrl;
    if (!url) {
      // The URL was taken away (POST /sandbox/webhook-url) while it waited for its turn.
      turns.end();
      show(n.record, skipped(n.record, NO_URL));
      return n.record;
    }
    // Timed from when it goes out, not from when it was queued: its timestamp stays fresh.
    const at = n.duplicate && n.sent ? n.sent.at : clock.now();
    const attemptAt = iso(clock.now());
    let outcome: AttemptOutcome;
    try {
      outcome = await sendAttempt({
        send,
        url,
        mid: n.mid,
        tokenInfo: n.tokenInfo,
        requestId: n.record.requestId,
        signer: signerFor(n, signer, clock),
        at,
        timeoutMs: config.webhookTimeoutMs,
        signal: stopping.signal,
      });
    } finally {
      turns.end();
    }
    const record = attempted(n.record, outcome, attemptAt, iso(clock.now()));
    show(n.record, record);
    config.onLog?.(attemptLine(record));
    // Forgotten while it was on its way, or reset meanwhile: nothing follows it.
    if (started === generation && !n.forgotten) retries.after(n, record);
    return n.record;
  }

  /** A new notification and its record, in the store from now on: a copy of `copyOf`, or one held back by reorder-webhooks. */
  function notification(
    mid: string,
    tokenInfo: Schemas['TokenInfo'],
    { copyOf, reordered = false }: { copyOf?: Notification; reordered?: boolean },
  ): Notification {
    const record = created({
      id: `DLV${++sequence}`,
      mid,
      tokenInfo,
      url: config.webhookUrl ?? null,
      requestId: copyOf ? copyOf.record.requestId : `NTF${digitsId(clock.now())}`,
      createdAt: iso(clock.now()),
      duplicateOf: copyOf?.record.id,
      reordered,
    });
    store.addDelivery(record);
    const n: Notification = copyOf
      ? { record, mid, tokenInfo, seq: copyOf.seq, duplicate: true, ...(copyOf.sent ? { sent: copyOf.sent } : {}) }
      : { record, mid, tokenInfo, seq: sequence, duplicate: false };
    notifications.set(record, n);
    return n;
  }

  /** The first attempt of `n`, after the earlier ones of its token; then its copy, when one is armed. */
  function chain(n: Notification, withDuplicate: boolean): Promise<WebhookDelivery> {
    const token = n.tokenInfo.tokenIndexNumber;
    const previous = chains.get(token) ?? Promise.resolve();
    const done = previous.then(async () => {
      await attempt(n);
      if (withDuplicate && config.webhookUrl) await attempt(notification(n.mid, n.tokenInfo, { copyOf: n }));
      return n.record;
    });
    chains.set(token, done);
    done.finally(() => {
      if (chains.get(token) === done) chains.delete(token);
    });
    return track(done);
  }

  /** Holds `n` back until the next notification's first attempt ends, or the webhook timeout passes. */
  function holdBack(n: Notification): Promise<WebhookDelivery> {
    const sending = new Promise<WebhookDelivery>((resolve) => {
      const release = () => resolve(attempt(n));
      const drop = () => {
        show(
          n.record,
          skipped(n.record, 'Held back by reorder-webhooks, and forgotten by a reset or stop before it was sent.'),
        );
        resolve(n.record);
      };
      held = { notification: n, release, drop };
      timers.later(config.webhookTimeoutMs, () => {
        if (held?.notification === n) releaseHeld();
      });
    });
    return track(sending);
  }

  /** The held notification, if any, no longer held. */
  function takeHeld(): Held | undefined {
    const h = held;
    held = undefined;
    return h;
  }

  /** Sends the held notification, if any. */
  const releaseHeld = () => takeHeld()?.release();

  function reset(): void {
    generation++;
    retries.clear();
    turns.dropAll();
    takeHeld()?.drop();
  }

  return {
    notify(mid, tokenInfo) {
      // One notification is held back at a time: while one is, a reorder fault waits for the next.
      const fault = faults.takeWebhookFault(held ? 'reorder-webhooks' : undefined);
      const n = notification(mid, tokenInfo, { reordered: fault === 'reorder-webhooks' });
      if (fault === 'reorder-webhooks') return holdBack(n);
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
