// The receiver's claim ledger (docs/decisions.md, D-105): the calls of the replay store around one
// notification, each bounded by storeTimeoutMs (storeCalls.ts). A delivery claims the notification's
// keys in progress for a lease, completes them (handled, for the replay window) once its handler
// succeeded, and releases them when it failed. A call whose outcome is unknown, or a completion or
// release the store refused, is tried again in the background until the lease has lapsed: after that
// the store no longer needs it (a lapsed claim is claimed again; a completion after it changes nothing).
import { type Bytes, fromBase64, toHex, webCrypto, wtf8Bytes } from '../encoding/bytes.js';
import type { HandlerEnd } from './handlerRun.js';
import type { ClaimOutcome, ReplayStore } from './replayStore.js';
import { callStore, errorName, publishStore, type RetryWhileLeased, retriesWhileLeased } from './storeCalls.js';

/** What claiming a notification's keys came to. */
export type ClaimVerdict =
  /** Every key is in progress, held by this delivery's owner: its handler may run. */
  | 'won'
  /** A key is handled: a replay (406). */
  | 'handled'
  /** A key is in progress under another delivery, or its lease has not lapsed: deliver again (500). */
  | 'in-progress'
  /** The store failed or did not answer in time (500). */
  | 'failed'
  /** The memory store is full of unexpired claims (500). */
  | 'full';

export interface ClaimLedger {
  /** Claims every key for `owner`, in order; what it did claim is released unless the verdict is `won`. Never throws. */
  claim(keys: readonly string[], owner: string): Promise<ClaimVerdict>;
  /** Marks the keys handled. Never throws: a completion the store refuses is tried again while the lease holds. */
  complete(keys: readonly string[], owner: string): Promise<void>;
  /** Releases the keys in progress. Never throws: a release the store refuses is tried again while the lease holds. */
  release(keys: readonly string[], owner: string): Promise<void>;
}

export interface ClaimLedgerOptions {
  store: ReplayStore;
  /** How long one call of the store is waited for. */
  storeTimeoutMs: number;
  /** How long a claim stays in progress when nobody completes or releases it. */
  leaseMs: number;
  /** How long a handled claim is kept. */
  windowMs: number;
}

/**
 * The keys a notification is claimed by, in the order they are claimed. The head is not signed, so
 * a replay may carry a new requestId: the signature (kept as a digest, never itself) catches that.
 * Each key is built flat (one `join`, not a chain of `+`), so that a store that keeps it keeps 74
 * characters, not a rope of pieces (the memory store's bytes per key, D-107).
 */
export async function replayKeys(head: { requestId: string; signature: string }): Promise<string[]> {
  const digest = async (data: Bytes) => toHex(new Uint8Array(await webCrypto().subtle.digest('SHA-256', data)));
  // A Base64 signature is remembered by the bytes it stands for: the unused bits of its last
  // character let other spellings carry the same bytes (a verifier may accept them). Every key has
  // the same small size, whatever the requestId.
  const signature = (BASE64.test(head.signature) && fromBase64(head.signature)) || wtf8Bytes(head.signature);
  return [
    ['signature', await digest(signature)].join(':'),
    ['requestId', await digest(wtf8Bytes(head.requestId))].join(':'),
  ];
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A random owner for one delivery's claims (128 bits, hex). */
export function newOwner(): string {
  return toHex(webCrypto().getRandomValues(new Uint8Array(16)));
}

const OUTCOMES: readonly unknown[] = ['claimed', 'in-progress', 'handled'] satisfies ClaimOutcome[];

/** What the ledger's calls share: the store, its bounds, and the retries waiting. */
interface Ledger extends ClaimLedgerOptions {
  retry: RetryWhileLeased;
}

export function createClaimLedger(options: ClaimLedgerOptions): ClaimLedger {
  const ledger: Ledger = { ...options, retry: retriesWhileLeased(options.leaseMs) };
  return {
    claim: (keys, owner) => claimKeys(ledger, keys, owner),
    complete: async (keys, owner) => void (await Promise.all(keys.map((key) => completeKey(ledger, key, owner)))),
    release: (keys, owner) => releaseKeys(ledger, keys, owner),
  };
}

/**
 * Claims every key for `owner`, in order, and stops at the first it cannot claim: handled (406),
 * in progress (500), or a store that failed (500; that key is released once its call is over, in
 * case the store carried it out). The memory store full: the other keys are still tried, so that a
 * replay is told apart (406) from a new notification (500).
 */
async function claimKeys(ledger: Ledger, keys: readonly string[], owner: string): Promise<ClaimVerdict> {
  const { store, leaseMs, storeTimeoutMs } = ledger;
  const claimed: string[] = [];
  let full = false;
  for (const key of keys) {
    const { result, settled } = await callStore(() => store.claim(key, leaseMs, owner), storeTimeoutMs);
    const outcome = result.ok && OUTCOMES.includes(result.value) ? result.value : undefined;
    if (outcome === 'claimed') {
      claimed.push(key);
      continue;
    }
    if (outcome !== undefined) {
      await releaseKeys(ledger, claimed, owner);
      return outcome;
    }
    // Failed, timed out, full, or an answer that is not an outcome: the key may be held or not.
    const failed = result.ok ? 'failed' : result.outcome;
    publishStore({ operation: 'claim', outcome: failed, ...errorName(result.ok ? undefined : result.error) });
    if (failed === 'full') {
      full = true;
      continue;
    }
    await releaseKeys(ledger, claimed, owner);
    ledger.retry('release', () => releaseOnce(ledger, key, owner), settled);
    return 'failed';
  }
  if (!full) return 'won';
  await releaseKeys(ledger, claimed, owner);
  return 'full';
}

const releaseKeys = async (ledger: Ledger, keys: readonly string[], owner: string) =>
  void (await Promise.all(keys.map((key) => releaseKey(ledger, key, owner))));

/** One release; false when the store did not answer. */
async function releaseOnce({ store, storeTimeoutMs }: Ledger, key: string, owner: string): Promise<boolean> {
  const { result } = await callStore(() => store.release(key, owner), storeTimeoutMs);
  if (!result.ok) publishStore({ operation: 'release', outcome: result.outcome, ...errorName(result.error) });
  return result.ok;
}

/** Releases `owner`'s claim of `key`, at once (waited for) and then in the background while the store refuses. */
async function releaseKey(ledger: Ledger, key: string, owner: string): Promise<void> {
  if (!(await releaseOnce(ledger, key, owner))) ledger.retry('release', () => releaseOnce(ledger, key, owner));
}

/** One completion; false when the store did not answer (a `false` from the store is an answer: the lease lapsed). */
async function completeOnce({ store, storeTimeoutMs, windowMs }: Ledger, key: string, owner: string): Promise<boolean> {
  const { result } = await callStore(() => store.complete(key, owner, windowMs), storeTimeoutMs);
  if (result.ok && result.value === true) return true;
  if (result.ok && result.value === false) {
    publishStore({ operation: 'complete', outcome: 'leaseLost' });
    return true;
  }
  publishStore({
    operation: 'complete',
    outcome: result.ok ? 'failed' : result.outcome,
    ...errorName(result.ok ? undefined : result.error),
  });
  return false;
}

async function completeKey(ledger: Ledger, key: string, owner: string): Promise<void> {
  if (!(await completeOnce(ledger, key, owner))) ledger.retry('complete', () => completeOnce(ledger, key, owner));
}

/** A notification's claim: its keys, held in progress by one delivery's owner until completed, released or lapsed. */
export interface HeldClaim {
  keys: string[];
  owner: string;
}

/** Claims a notification's keys for a new owner: the claim held, or the verdict of a claim that did not win. */
export async function claimNotification(
  ledger: ClaimLedger,
  head: { requestId: string; signature: string },
): Promise<{ won: true; claim: HeldClaim } | { won: false; verdict: Exclude<ClaimVerdict, 'won'> }> {
  const keys = await replayKeys(head);
  const owner = newOwner();
  const verdict = await ledger.claim(keys, owner);
  return verdict === 'won' ? { won: true, claim: { keys, owner } } : { won: false, verdict };
}

/**
 * What a handler's end does to its claim: succeeded, completed (waited for; the reply is 00 even when
 * the store cannot be reached: the handler ran, and a 500 would have it run again once the lease
 * lapses); failed, released (waited for, so that the service's next delivery is accepted); outran its
 * time limit, completed or released when it ends (not waited for).
 */
export async function settleClaim(ledger: ClaimLedger, { keys, owner }: HeldClaim, end: HandlerEnd): Promise<void> {
  if (end.ended === 'succeeded') await ledger.complete(keys, owner);
  else if (end.ended === 'failed') await ledger.release(keys, owner);
  else void end.late.then((succeeded) => (succeeded ? ledger.complete(keys, owner) : ledger.release(keys, owner)));
}
