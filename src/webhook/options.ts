// The receiver's options, checked once when it is created: each one a merchant gives is refused with
// a TypeError naming it when it cannot work, and each one left out takes its default (docs/decisions.md,
// D-35, D-94, D-105). Never a value of a key or a secret in a message.
import type { Verifier } from '../signing/checksum.js';
import type { ValidationIssue } from '../validation/operationValidation.js';
import { createMemoryReplayStore, DEFAULT_MAX_ENTRIES, type ReplayStore } from './replayStore.js';
import type { ReplyCode } from './reply.js';

/** Defaults: see docs/decisions.md, D-35, D-94 and D-105. */
export const WEBHOOK_DEFAULTS = Object.freeze({
  replayWindowMs: 24 * 60 * 60 * 1000,
  maxClockSkewMs: 5 * 60 * 1000,
  maxBytes: 1024 * 1024,
  maxRemembered: DEFAULT_MAX_ENTRIES,
  storeTimeoutMs: 2_000,
  handlerTimeoutMs: 10_000,
});

/**
 * How long a claim stays in progress when its delivery neither completes nor releases it: the
 * handler's time limit plus the store calls around it (two claims before it, one completion after).
 */
export const leaseFor = (handlerTimeoutMs: number, storeTimeoutMs: number): number =>
  Math.ceil(handlerTimeoutMs + 3 * storeTimeoutMs);

export interface WebhookReceiverOptions {
  /** Checks `head.signature` over the exact bytes of the body, e.g. `createChecksumVerifier(merchantKey)`. */
  verifier: Verifier;
  /** An accepted notification's requestId and signature are refused again for this long (default 24 h). */
  replayWindowMs?: number | undefined;
  /** `head.requestTimestamp` further than this from now is refused (default 5 min). */
  maxClockSkewMs?: number | undefined;
  /** Clock, epoch milliseconds (default `Date.now`). */
  now?: (() => number) | undefined;
  /** Larger bodies are refused (default 1 MiB). */
  maxBytes?: number | undefined;
  /**
   * How many keys the default replay store holds at most (two per notification; default 100 000).
   * When it is full of claims within their window, a new notification is answered 500 (not
   * processed; the service delivers it again later) and no claim is forgotten before its time.
   */
  maxRemembered?: number | undefined;
  /**
   * Where notifications are claimed (default: in memory, one process). Several instances share one:
   * `createRedisReplayStore` (gateway-contract/webhook/redis), `createPostgresReplayStore`
   * (gateway-contract/webhook/postgres), or any store that passes gateway-contract/webhook/store-test-kit.
   */
  store?: ReplayStore | undefined;
  /** How long a call of the store is waited for (default 2 s); then the notification is answered 500. */
  storeTimeoutMs?: number | undefined;
  /**
   * The handler's time limit (default 10 s): past it the notification is answered 500, the handler's
   * `signal` aborts, and its claim lapses `3 × storeTimeoutMs` later, after which another delivery may
   * run the handler (D-105). A handler that ends late still completes or releases its claim.
   */
  handlerTimeoutMs?: number | undefined;
  /**
   * @deprecated Removed: a `{ has, add }` store lets two instances both accept one notification.
   * Pass `store` (claim, complete and release); creating a receiver with `seen` throws a TypeError.
   */
  seen?: undefined;
  /** The merchant id(s) this receiver serves; another `body.mid` is answered 407. */
  expectedMid?: string | readonly string[] | undefined;
  /** Called by the adapters with each refusal, for logging: its code and issues (never a secret value). */
  onRejected?: ((rejection: { code: ReplyCode; issues: ValidationIssue[] }) => void) | undefined;
}

/** The options as the receiver uses them: checked, with every default filled in. */
export interface ReceiverSettings {
  verifier: Verifier;
  now: () => number;
  onRejected: WebhookReceiverOptions['onRejected'];
  replayWindowMs: number;
  maxClockSkewMs: number;
  maxBytes: number;
  storeTimeoutMs: number;
  handlerTimeoutMs: number;
  /** The merchant ids served, or undefined when any is. */
  mids: string[] | undefined;
  store: ReplayStore;
}

/** Checks the options in the order a merchant reads them and fills in the defaults; throws a TypeError naming the first that cannot work. */
export function receiverSettings(options: WebhookReceiverOptions): ReceiverSettings {
  const { verifier, now = Date.now, onRejected } = options ?? ({} as Partial<WebhookReceiverOptions>);
  checkVerifier(verifier);
  if (options.seen !== undefined) throw new TypeError(SEEN_REMOVED);
  const replayWindowMs = Math.ceil(positive(options.replayWindowMs, WEBHOOK_DEFAULTS.replayWindowMs, 'replayWindowMs'));
  const maxClockSkewMs = positive(options.maxClockSkewMs, WEBHOOK_DEFAULTS.maxClockSkewMs, 'maxClockSkewMs');
  const maxBytes = positive(options.maxBytes, WEBHOOK_DEFAULTS.maxBytes, 'maxBytes');
  const storeTimeoutMs = positive(options.storeTimeoutMs, WEBHOOK_DEFAULTS.storeTimeoutMs, 'storeTimeoutMs');
  const handlerTimeoutMs = positive(options.handlerTimeoutMs, WEBHOOK_DEFAULTS.handlerTimeoutMs, 'handlerTimeoutMs');
  const mids = options.expectedMid === undefined ? undefined : ([] as string[]).concat(options.expectedMid);
  const store =
    options.store ??
    createMemoryReplayStore({ now, maxEntries: options.maxRemembered ?? WEBHOOK_DEFAULTS.maxRemembered });
  checkStore(store);
  return {
    verifier,
    now,
    onRejected,
    replayWindowMs,
    maxClockSkewMs,
    maxBytes,
    storeTimeoutMs,
    handlerTimeoutMs,
    mids,
    store,
  };
}

/** Where the migration from `seen` is written: the message points there rather than retelling it. */
const SEEN_REMOVED =
  'The `seen: { has, add }` option is removed. Pass `store` instead: docs/webhook-stores.md, "From `seen: { has, add }`".';

function checkVerifier(verifier: Verifier | undefined): asserts verifier is Verifier {
  if (!verifier || typeof verifier.verify !== 'function' || typeof verifier.signatureType !== 'string') {
    throw new TypeError(
      'createWebhookReceiver needs a verifier { signatureType, verify(bodyText, signature) }, for example createChecksumVerifier(merchantKey).',
    );
  }
}

function checkStore(store: ReplayStore | undefined): void {
  if (
    typeof store?.claim !== 'function' ||
    typeof store.complete !== 'function' ||
    typeof store.release !== 'function'
  ) {
    throw new TypeError(
      "store must have claim(key, leaseMs, owner), answering 'claimed', 'in-progress' or 'handled', complete(key, owner, windowMs) and release(key, owner): a store of the earlier shape (claim answering true or false, and release) lacks complete and the claim's states (docs/webhook-stores.md).",
    );
  }
}

/** A duration or a size the merchant gave: a positive finite number, or the default when left out. */
function positive(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value))
    throw new TypeError(`${name} must be a positive number of ${name === 'maxBytes' ? 'bytes' : 'milliseconds'}.`);
  return value;
}
