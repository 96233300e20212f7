// The merchant's side of the token status notification (sections 4.1, 6 and 7.1): the raw body in,
// the verdict and the exact reply envelope out. Order of checks (docs/decisions.md, D-34, D-113):
//   1. the bytes: size, UTF-8, not blank; the root object's own punctuation
//      and its nesting (at most 32 levels), located without reading a value -> 400
//      (outlineObject: strings skipped, brackets counted)
//   2. what the signature check needs: head, signatureType, signature, body -> 1006, 1005, 1400, 410
//      (located in the text: only the signature and its type are read)
//   3. the signature over the exact bytes of the "body" member             -> 1001
//      then the whole text, now known to be the service's: JSON, no
//      repeated key (checkJson)                                            -> 400
//      and the envelope is built (JSON.parse)
//   4. the contract (its validation), the expected mid                     -> 410, 400, 406, 405, 1004, 407
//   5. the clock (requestTimestamp within maxClockSkewMs)                  -> 400
//   6. replay: the notification's signature and requestId claimed in the
//      replay store for replayWindowMs (D-93); one already held             -> 406
//      a store that fails, does not answer within storeTimeoutMs, or is full -> 500
// Nothing about the payload is judged before its signature is known to be good, except what is
// needed to check the signature at all: a forged notification costs a pass over its text that reads
// no value, and the verifier's check, whatever its body holds (a repeated key in it included: 1001).

import { type Bytes, fromBase64, toHex, utf8Bytes, webCrypto } from '../encoding/bytes.js';
import type { NodeRequest, NodeResponse } from '../http/nodeTypes.js';
import { jsonSpace, nestsDeeper, outlineObject } from '../json/outline.js';
import { checkJson, jsonText, malformedMessage, tooDeepMessage } from '../json/scan.js';
import type { Verifier } from '../signing/checksum.js';
import type { RequestOf, ResponseOf } from '../types.js';
import { validateRequest } from '../validation/operations/notifyTokenStatus.js';
import type { ValidationIssue } from '../validation/operationValidation.js';
import { resultCodeFor } from '../validation/resultCodeRules.js';
import { fetchHandler, nodeHandler, type ReceiverCore, type TokenStatusHandler, type WebhookRejected } from './adapters.js';
import { createMemoryReplayStore, DEFAULT_MAX_ENTRIES, type ReplayStore, ReplayStoreFullError } from './replayStore.js';
import { type ReplyCode, replyFor } from './reply.js';
import { storeChannel, verdictChannel, type WebhookStoreEvent, type WebhookVerdictEvent } from './tracing.js';

export { createMemoryReplayStore, type ReplayStore };

/** Defaults: see docs/decisions.md, D-35 and D-94. */
export const WEBHOOK_DEFAULTS = Object.freeze({
  replayWindowMs: 24 * 60 * 60 * 1000,
  maxClockSkewMs: 5 * 60 * 1000,
  maxBytes: 1024 * 1024,
  maxRemembered: DEFAULT_MAX_ENTRIES,
  storeTimeoutMs: 2_000,
});

/** A token status notification as the service sent it: `{ head, body: { mid, tokenInfo } }`. */
export type TokenStatusEvent = RequestOf<'notifyTokenStatus'>;
/** The merchant's reply envelope: head `{ version, responseTimestamp }`, `body.resultInfo`. */
export type TokenStatusReply = ResponseOf<'notifyTokenStatus'>;

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
   * @deprecated Removed: a `{ has, add }` store lets two instances both accept one notification.
   * Pass `store` (claim and release); creating a receiver with `seen` throws a TypeError.
   */
  seen?: undefined;
  /** The merchant id(s) this receiver serves; another `body.mid` is answered 407. */
  expectedMid?: string | readonly string[] | undefined;
  /** Called by the adapters with each refusal, for logging: its code and issues (never a secret value). */
  onRejected?: ((rejection: { code: ReplyCode; issues: ValidationIssue[] }) => void) | undefined;
}

export interface WebhookAccepted {
  accepted: true;
  event: TokenStatusEvent;
  /** The reply to send: code 00. */
  reply: TokenStatusReply;
}

export type { WebhookRejected };

export type WebhookVerdict = WebhookAccepted | WebhookRejected;

export type { TokenStatusHandler };

export interface WebhookReceiver {
  /** The raw request body (exact bytes) in, the verdict and the reply envelope out. Never throws. */
  receive(raw: string | Uint8Array): Promise<WebhookVerdict>;
  /** A node:http request listener: reads the body (bounded), calls `onEvent` for an accepted notification, replies. */
  nodeHandler(onEvent: TokenStatusHandler): (req: NodeRequest, res: NodeResponse) => void;
  /** A Fetch API handler (Request in, Response out) with the same behaviour. */
  fetchHandler(onEvent: TokenStatusHandler): (request: Request) => Promise<Response>;
}

const OPERATION = 'notifyTokenStatus';

/**
 * An issue of the notification, with the code of section 7.1 it is answered with: `code` when this
 * receiver decides it, otherwise the contract's own rule for that field (resultCodeRules.ts).
 */
function issue(pointer: string, rule: string, message: string, code?: ReplyCode): ValidationIssue & { resultCode: ReplyCode } {
  const found = { in: 'body' as const, pointer, rule, message };
  return { ...found, resultCode: code ?? ((resultCodeFor(OPERATION, found)?.code ?? '400') as ReplyCode) };
}

/** The issue of a text that is not a JSON notification, with checkJson's message (never the text). */
const notJson = (message: string) => issue('', 'json', `The body is not a JSON notification: ${message}.`, '400');

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The first problem that keeps the signature from being checked, or null. */
function envelopeProblem(envelope: unknown, signatureType: string) {
  const shape = 'the notification is {"head": {...}, "body": {...}}';
  if (!isObject(envelope)) return issue('', 'type', `The payload must be a JSON object: ${shape}.`);
  const { head } = envelope;
  if (!Object.hasOwn(envelope, 'head')) return issue('/head', 'required', `"head" is missing: ${shape}.`);
  if (!isObject(head)) return issue('/head', 'type', '"head" must be a JSON object.');
  if (!Object.hasOwn(head, 'signatureType'))
    return issue('/head/signatureType', 'required', `"signatureType" is missing from the head: it names the signature scheme (${signatureType}).`);
  if (head.signatureType !== signatureType)
    return issue('/head/signatureType', 'const', `"signatureType" must be "${signatureType}", the scheme this receiver verifies.`);
  if (!Object.hasOwn(head, 'signature')) return issue('/head/signature', 'required', '"signature" is missing from the head: every notification is signed.');
  if (typeof head.signature !== 'string' || head.signature.length === 0) return issue('/head/signature', 'type', '"signature" must be a non-empty string.');
  if (!Object.hasOwn(envelope, 'body')) return issue('/body', 'required', `"body" is missing: ${shape}.`);
  return null;
}

/** Stands for a head member whose value is not a string: nothing of it is needed, so it is not built. */
const NOT_A_STRING = Object.freeze({});

/** What keeps the text from being read as far as the signature check needs: a message of checkJson's kind. */
type Unreadable = { unreadable: string };

/**
 * The envelope as far as the signature check needs it (envelopeProblem), located in the text
 * without reading anything else (outlineObject): whether the root is an object, the head with its
 * `signatureType` and `signature` (each built only when it is a string), whether a body is there,
 * and the exact text of that body (the signature's basis, D-36). Or why the text cannot be read
 * that far: the root object's own punctuation is broken, or its values nest deeper than MAX_DEPTH.
 */
function envelopeForSignature(text: string): { envelope: unknown; bodyText?: string } | Unreadable {
  const start = jsonSpace(text, 0);
  if (text.charCodeAt(start) !== 0x7b) return notAnObject(text, start);
  const root = outlineObject(text, start, ['head', 'body'], MAX_DEPTH);
  if (!root.ok) return { unreadable: 'tooDeep' in root ? tooDeepMessage(MAX_DEPTH) : malformedMessage(text, root.at) };
  const after = jsonSpace(text, root.end);
  if (after < text.length) return { unreadable: malformedMessage(text, after) };
  const envelope: Record<string, unknown> = {};
  const head = root.members.get('head');
  if (head !== undefined) {
    const read = headForSignature(text, head.start);
    if ('unreadable' in read) return read;
    envelope.head = read.head;
  }
  const body = root.members.get('body');
  if (body === undefined) return { envelope };
  envelope.body = NOT_A_STRING;
  return { envelope, bodyText: text.slice(body.start, body.end) };
}

/**
 * A text whose root is not an object, which no notification is: nested too deep, or not JSON (said
 * as checkJson says it), or JSON (a root of the wrong type: envelopeProblem says so). JSON.parse
 * tells the last two apart, at the cost of the reference of the receiver's target (D-113).
 */
function notAnObject(text: string, start: number): { envelope: null } | Unreadable {
  if (nestsDeeper(text, start, MAX_DEPTH)) return { unreadable: tooDeepMessage(MAX_DEPTH) };
  try {
    JSON.parse(text);
  } catch {
    return { unreadable: 'malformed JSON (and a notification is an object: {"head": {...}, "body": {...}})' };
  }
  return { envelope: null };
}

/** The head's `signatureType` and `signature`, each built only when it is a string; null for a head that is not an object. */
function headForSignature(text: string, start: number): { head: Record<string, unknown> | null } | Unreadable {
  if (text.charCodeAt(start) !== 0x7b) return { head: null }; // not an object: what it is does not matter
  const outline = outlineObject(text, start, ['signatureType', 'signature']);
  if (!outline.ok) return { unreadable: 'tooDeep' in outline ? tooDeepMessage(MAX_DEPTH) : malformedMessage(text, outline.at) };
  const head: Record<string, unknown> = {};
  for (const [name, { start: from, end }] of outline.members) {
    if (text.charCodeAt(from) !== 0x22) head[name] = NOT_A_STRING;
    else {
      try {
        head[name] = JSON.parse(text.slice(from, end));
      } catch {
        return { unreadable: malformedMessage(text, from) }; // a bad escape or a control character
      }
    }
  }
  return { head };
}

/**
 * Whether the raw body is larger than `limit` bytes of UTF-8. A text of n UTF-16 units has n to 3n
 * bytes, so only one that could be either side of the limit is measured, by encoding it (at most
 * 3 x `limit` bytes): the runtime's encoder takes a fifth of the time of counting byte by byte
 * (utf8Length), which cost a forged notification given as a text more than its reading (target: at
 * most 3x JSON.parse, bench/receiver.mjs, D-113). Equal to `utf8Length(raw) > limit` (test/webhook.test.ts).
 */
function largerThan(raw: string | Uint8Array, limit: number): boolean {
  if (typeof raw !== 'string') return raw.byteLength > limit;
  if (raw.length > limit) return true;
  return raw.length * 3 > limit && utf8Bytes(raw).byteLength > limit;
}

/** head.requestTimestamp (10 digits: seconds, 13: milliseconds; DECISIONS.md, D-05) in milliseconds. */
const epochMs = (text: string) => (text.length <= 10 ? Number(text) * 1000 : Number(text));

/**
 * The keys a notification is claimed by, in the order they are claimed. The head is not signed, so
 * a replay may carry a new requestId: the signature (kept as a digest, never itself) catches that.
 * The signature's key comes first: when a claim's outcome is unknown (D-94) and its release fails
 * too, a held signature key blocks nothing the service sends again (each delivery is signed anew).
 */
async function replayKeys(head: { requestId: string; signature: string }): Promise<string[]> {
  const digest = async (data: Bytes) => toHex(new Uint8Array(await webCrypto().subtle.digest('SHA-256', data)));
  // A text by its UTF-8 bytes, a lone surrogate written as the three bytes of its own code (WTF-8)
  // where UTF-8 would put U+FFFD: "\ud800", "\udfff" and "\ufffd" are three ids, three keys. A
  // well-formed text keeps the key it always had.
  const wtf8 = (text: string): Bytes => {
    const bytes: number[] = [];
    for (const character of text) {
      const c = character.codePointAt(0) as number;
      if (c < 0x80) bytes.push(c);
      else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
      else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
      else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    }
    return new Uint8Array(bytes);
  };
  // A Base64 signature is remembered by the bytes it stands for: the unused bits of its last
  // character let other spellings carry the same bytes (a verifier may accept them). Every key has
  // the same small size, whatever the requestId.
  const signature = (BASE64.test(head.signature) && fromBase64(head.signature)) || wtf8(head.signature);
  return [`signature:${await digest(signature)}`, `requestId:${await digest(wtf8(head.requestId))}`];
}

/** A random owner for one notification's claims (128 bits, hex). */
function newOwner(): string {
  return toHex(webCrypto().getRandomValues(new Uint8Array(16)));
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** A notification nests four levels deep; deeper text is refused before it is parsed. */
const MAX_DEPTH = 32;

const SIGNATURE_FAILURE = issue(
  '/head/signature',
  'signature',
  'The signature does not match the body. Check the merchant key, and pass the raw request body (the exact bytes received), not a parsed and re-serialized object.',
  '1001',
);
const MEMORY_FULL = issue(
  '',
  'replayMemoryFull',
  'The notification was not processed: the replay memory is full of notifications still within their window (maxRemembered), and one it could not remember could later be replayed. The service delivers it again later.',
  '500',
);
const STORE_FAILED = issue(
  '',
  'replayStore',
  'The notification was not processed: the replay store did not answer (it failed or took longer than storeTimeoutMs). The service delivers it again later.',
  '500',
);
const REPLAY = issue(
  '/head/requestId',
  'replay',
  'This notification (same requestId or same signature) was already accepted within the replay window; it is not processed twice.',
  '406',
);

/** An accepted notification on its way through the adapters: its keys are claimed by `owner`. */
interface Pending {
  accepted: true;
  event: TokenStatusEvent;
  reply: TokenStatusReply;
  keys: string[];
  owner: string;
}

/** A call of the store, bounded: its value, or why there is none. */
type StoreOutcome<T> = { ok: true; value: T } | { ok: false; outcome: 'failed' | 'timeout' | 'full'; error?: unknown };

/** An owed release is tried at once, then after 50 ms, each wait doubling up to 1 s: for about 2 minutes in all. */
const RELEASE_RETRIES = 125;
const releaseDelay = (attempt: number) => (attempt === 0 ? 0 : Math.min(1_000, 25 * 2 ** attempt));
/** Releases waiting for a retry, at most (each holds a key and an owner, about 200 bytes). */
const MAX_PENDING_RELEASES = 10_000;

function publishStore(event: WebhookStoreEvent): void {
  if (storeChannel?.hasSubscribers) storeChannel.publish(event);
}

/** Receives the service's token status notification: signature, contract, clock and replay checks. */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const { verifier, now = Date.now, onRejected } = options ?? ({} as Partial<WebhookReceiverOptions>);
  if (!verifier || typeof verifier.verify !== 'function' || typeof verifier.signatureType !== 'string') {
    throw new TypeError(
      'createWebhookReceiver needs a verifier { signatureType, verify(bodyText, signature) }, for example createChecksumVerifier(merchantKey).',
    );
  }
  if (options.seen !== undefined) {
    throw new TypeError(
      'The `seen: { has, add }` option is removed: between has and add, two instances given the same notification both accept it. Pass `store` instead: createMemoryReplayStore(), or a shared one from gateway-contract/webhook/redis or gateway-contract/webhook/postgres (docs/webhook-stores.md).',
    );
  }
  const replayWindowMs = Math.ceil(positive(options.replayWindowMs, WEBHOOK_DEFAULTS.replayWindowMs, 'replayWindowMs'));
  const maxClockSkewMs = positive(options.maxClockSkewMs, WEBHOOK_DEFAULTS.maxClockSkewMs, 'maxClockSkewMs');
  const maxBytes = positive(options.maxBytes, WEBHOOK_DEFAULTS.maxBytes, 'maxBytes');
  const storeTimeoutMs = positive(options.storeTimeoutMs, WEBHOOK_DEFAULTS.storeTimeoutMs, 'storeTimeoutMs');
  const mids = options.expectedMid === undefined ? undefined : ([] as string[]).concat(options.expectedMid);
  const store = options.store ?? createMemoryReplayStore({ now, maxEntries: options.maxRemembered ?? WEBHOOK_DEFAULTS.maxRemembered });
  if (typeof store?.claim !== 'function' || typeof store.release !== 'function') {
    throw new TypeError('store must have claim(key, ttlMs, owner) and release(key, owner) (docs/webhook-stores.md).');
  }
  /**
   * Keys this receiver owes a release: the store failed while they were released or claimed. Key ->
   * the owner, and when the call whose outcome is unknown is over (a claim may still be carried out).
   */
  const owed = new Map<string, Map<string, Promise<unknown>>>();
  let owedCount = 0;
  const isOwed = (key: string, owner: string) => owed.get(key)?.has(owner) === true;
  function paid(key: string, owner: string): void {
    const owners = owed.get(key);
    if (!owners?.delete(owner)) return;
    owedCount--;
    if (owners.size === 0) owed.delete(key);
  }

  const reject = (code: ReplyCode, issues: ValidationIssue[]): WebhookRejected => ({ accepted: false, code, reply: replyFor(code, now()), issues });

  /**
   * Calls the store, waiting at most storeTimeoutMs. `settled` resolves once the call itself is
   * over, whatever its outcome: a claim that timed out may still be carried out after.
   */
  async function call<T>(run: () => T | Promise<T>): Promise<{ result: StoreOutcome<T>; settled: Promise<unknown> }> {
    let answer: T | Promise<T>;
    try {
      answer = run();
    } catch (error) {
      return { result: { ok: false, outcome: error instanceof ReplayStoreFullError ? 'full' : 'failed', error }, settled: Promise.resolve() };
    }
    // A store's own promise type, or one of another realm, is a thenable like any other.
    if (typeof (answer as PromiseLike<T> | null)?.then !== 'function') return { result: { ok: true, value: answer as T }, settled: Promise.resolve() };
    const pending = Promise.resolve(answer);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const result = await Promise.race([
      pending.then(
        (value): StoreOutcome<T> => ({ ok: true, value }),
        (error): StoreOutcome<T> => ({ ok: false, outcome: error instanceof ReplayStoreFullError ? 'full' : 'failed', error }),
      ),
      new Promise<StoreOutcome<T>>((resolve) => {
        timer = setTimeout(() => resolve({ ok: false, outcome: 'timeout' }), storeTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    return { result, settled: pending.then(noop, noop) };
  }

  /** Releases `owner`'s claim of `key`: true when the store said so; otherwise owed, and tried again later. */
  async function release(key: string, owner: string): Promise<boolean> {
    const { result } = await call(() => store.release(key, owner));
    if (result.ok) {
      paid(key, owner);
      return true;
    }
    publishStore({ operation: 'release', outcome: result.outcome, ...errorName(result.error) });
    owe(key, owner);
    return false;
  }

  /**
   * Tries a release again, once `settled` (the call that left it unknown is over), until the store
   * answers (bounded: RELEASE_RETRIES, MAX_PENDING_RELEASES). A delivery of the key to this receiver
   * meanwhile pays the debt first (payDebt), so that the claim this receiver left does not refuse it.
   */
  function owe(key: string, owner: string, settled: Promise<unknown> = Promise.resolve()): void {
    if (isOwed(key, owner)) return;
    if (owedCount >= MAX_PENDING_RELEASES) {
      publishStore({ operation: 'release', outcome: 'gaveUp' });
      return;
    }
    const owners = owed.get(key) ?? new Map<string, Promise<unknown>>();
    owners.set(owner, settled);
    owed.set(key, owners);
    owedCount++;
    const retry = (attempt: number) => {
      setTimeout(async () => {
        if (!isOwed(key, owner)) return; // paid by a delivery meanwhile
        const { result } = await call(() => store.release(key, owner));
        if (result.ok) paid(key, owner);
        else if (attempt + 1 < RELEASE_RETRIES) retry(attempt + 1);
        else {
          paid(key, owner);
          publishStore({ operation: 'release', outcome: 'gaveUp' });
        }
      }, releaseDelay(attempt));
    };
    void settled.then(() => retry(0));
  }

  /**
   * Pays the releases owed on `key`, if any, once the calls that left them unknown are over (each
   * waited for at most storeTimeoutMs): false when one cannot be paid now.
   */
  async function payDebt(key: string): Promise<boolean> {
    const owners = owed.get(key);
    if (owners === undefined) return true;
    for (const [owner, settled] of [...owners]) {
      const over = await call(() => settled.then(() => true));
      if (!over.result.ok) return false;
      const { result } = await call(() => store.release(key, owner));
      if (!result.ok) return false;
      paid(key, owner);
    }
    return true;
  }

  /**
   * Claims every key for `owner`, in order. Lost (another claim holds one): the keys it did claim
   * are released, 406. The store failed: those keys and the one whose outcome is unknown are
   * released once that call is over (only `owner`'s claims go), 500. The memory store full: the
   * other keys are still tried, so that a replay is told apart (406) from a new notification (500).
   */
  async function claim(keys: string[], owner: string): Promise<'won' | 'replay' | WebhookRejected> {
    const claimed: string[] = [];
    let full = false;
    for (const key of keys) {
      if (!(await payDebt(key))) {
        await Promise.all(claimed.map((k) => release(k, owner)));
        return reject('500', [{ ...STORE_FAILED }]);
      }
      const { result, settled } = await call(() => store.claim(key, replayWindowMs, owner));
      if (result.ok && result.value === true) {
        claimed.push(key);
        continue;
      }
      if (result.ok && result.value === false) {
        await Promise.all(claimed.map((k) => release(k, owner)));
        return 'replay';
      }
      // Failed, timed out, full, or an answer that is not a boolean: the key may be held or not.
      const outcome = result.ok ? 'failed' : result.outcome;
      publishStore({ operation: 'claim', outcome, ...errorName(result.ok ? undefined : result.error) });
      if (outcome === 'full') {
        full = true;
        continue;
      }
      await Promise.all(claimed.map((k) => release(k, owner)));
      // Owed at once (a delivery of the key here pays it first), released once the call is over.
      owe(key, owner, settled);
      return reject('500', [{ ...STORE_FAILED }]);
    }
    if (!full) return 'won';
    await Promise.all(claimed.map((k) => release(k, owner)));
    return reject('500', [{ ...MEMORY_FULL }]);
  }

  /** Steps 1 to 6. An accepted verdict holds its keys, claimed by its owner, until released or expired. */
  async function evaluate(raw: unknown): Promise<Pending | WebhookRejected> {
    if (typeof raw !== 'string' && !(raw instanceof Uint8Array)) {
      return reject('400', [
        issue(
          '',
          'rawBody',
          'receive() takes the raw request body (a string or bytes), not a parsed object: the signature covers the exact bytes received.',
          '400',
        ),
      ]);
    }
    if (largerThan(raw, maxBytes)) return reject('400', [issue('', 'maxBytes', `The notification is larger than ${maxBytes} bytes.`, '400')]);
    const read = jsonText(raw);
    if (!read.ok) return reject('400', [notJson(read.message)]);
    const { text } = read;
    const outline = envelopeForSignature(text);
    if ('unreadable' in outline) return reject('400', [notJson(outline.unreadable)]);
    const problem = envelopeProblem(outline.envelope, verifier.signatureType);
    if (problem) return reject(problem.resultCode, [problem]);
    // envelopeProblem has seen an object with a head, a string signature and a body.
    const { signature } = (outline.envelope as { head: { signature: string } }).head;
    const bodyText = outline.bodyText as string;
    let authentic: boolean;
    try {
      authentic = (await verifier.verify(bodyText, signature)) === true;
    } catch {
      return reject('500', [issue('/head/signature', 'verifier', 'The signature could not be checked: the verifier failed. Nothing was processed.', '500')]);
    }
    if (!authentic) return reject('1001', [{ ...SIGNATURE_FAILURE }]);

    // The service's own text: read whole (JSON, no repeated key), then built.
    const checked = checkJson(text, { maxDepth: MAX_DEPTH });
    if (!checked.ok) return reject('400', [notJson(checked.message)]);
    const envelope: unknown = JSON.parse(text);
    const verdict = validateRequest(envelope);
    if (!verdict.valid) return reject((verdict.resultCode?.code ?? '400') as ReplyCode, verdict.errors);
    const event = envelope as TokenStatusEvent;
    if (mids && !mids.includes(event.body.mid)) {
      return reject('407', [issue('/body/mid', 'expectedMid', '"mid" is not the merchant id this receiver serves.', '407')]);
    }
    const at = now();
    const skew = epochMs(event.head.requestTimestamp) - at;
    if (Math.abs(skew) > maxClockSkewMs) {
      const where = skew < 0 ? 'behind' : 'ahead of';
      return reject('400', [
        issue(
          '/head/requestTimestamp',
          'maxClockSkew',
          `"requestTimestamp" is ${Math.round(Math.abs(skew) / 1000)} s ${where} this server's clock; at most ${Math.round(maxClockSkewMs / 1000)} s is accepted. Check both clocks; an old notification may be a replay.`,
          '400',
        ),
      ]);
    }
    const keys = await replayKeys(event.head);
    const owner = newOwner();
    const claimed = await claim(keys, owner);
    if (claimed === 'replay') return reject('406', [{ ...REPLAY }]);
    if (claimed !== 'won') return claimed;
    return { accepted: true, event, reply: replyFor('00', at), keys, owner };
  }

  /** Publishes a notification's verdict, when someone listens. */
  function trace(verdict: WebhookVerdictEvent['verdict'], code: string, issues: ValidationIssue[] | undefined, handlerRan: boolean, startedAt: number) {
    if (!verdictChannel?.hasSubscribers) return;
    const rule = issues?.[0]?.rule;
    const event: WebhookVerdictEvent = { verdict, code, ...(rule === undefined ? {} : { rule }), handlerRan, durationMs: performance.now() - startedAt };
    verdictChannel.publish(event);
  }

  function report(verdict: WebhookRejected, startedAt = performance.now(), handlerRan = false) {
    trace(handlerRan ? 'handlerFailed' : 'rejected', verdict.code, verdict.issues, handlerRan, startedAt);
    try {
      onRejected?.({ code: verdict.code, issues: verdict.issues });
    } catch {
      /* a failing logger must not change the reply */
    }
  }

  const internalFailure = (error: unknown) =>
    reject('500', [issue('', 'internal', `The notification could not be processed (${error instanceof Error ? error.name : 'failure'}).`, '500')]);

  /** Judges a notification; an accepted one keeps its claims (no handler runs here). */
  async function receive(raw: string | Uint8Array): Promise<WebhookVerdict> {
    const startedAt = performance.now();
    let verdict: Pending | WebhookRejected;
    try {
      verdict = await evaluate(raw);
    } catch (error) {
      verdict = internalFailure(error);
    }
    if (!verdict.accepted) {
      trace('rejected', verdict.code, verdict.issues, false, startedAt);
      return verdict;
    }
    trace('accepted', '00', undefined, false, startedAt);
    return { accepted: verdict.accepted, event: verdict.event, reply: verdict.reply };
  }

  /**
   * For the adapters: evaluate (which claims the notification), run the handler for an accepted
   * notification, keep the claims when it succeeded, release them when it failed (so the service's
   * next delivery is accepted).
   */
  async function deliver(raw: Uint8Array, onEvent: TokenStatusHandler): Promise<TokenStatusReply> {
    const startedAt = performance.now();
    let verdict: Pending | WebhookRejected;
    try {
      verdict = await evaluate(raw);
    } catch (error) {
      verdict = internalFailure(error);
    }
    if (!verdict.accepted) {
      report(verdict, startedAt);
      return verdict.reply;
    }
    try {
      await onEvent(verdict.event);
    } catch {
      const { keys, owner } = verdict;
      // The first attempt is waited for, so that a delivery right after this answer finds the
      // notification released; a failed one is tried again in the background.
      await Promise.all(keys.map((key) => release(key, owner)));
      const failed = reject('500', [
        issue('', 'onEvent', 'The notification is authentic and valid, but its handler failed. It was released, so a new delivery is accepted.', '500'),
      ]);
      report(failed, startedAt, true);
      return failed.reply;
    }
    trace('accepted', '00', undefined, true, startedAt);
    return verdict.reply;
  }

  const core: ReceiverCore = { deliver, maxBytes, reject, report };
  return {
    receive,
    nodeHandler: (onEvent) => nodeHandler(core, onEvent),
    fetchHandler: (onEvent) => fetchHandler(core, onEvent),
  };
}

const noop = () => undefined;

/** The name of an error, for an event: never its message, which may hold a key or an address. */
function errorName(error: unknown): { error?: string } {
  return error instanceof Error ? { error: error.name.slice(0, 64) } : {};
}

function positive(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value))
    throw new TypeError(`${name} must be a positive number of ${name === 'maxBytes' ? 'bytes' : 'milliseconds'}.`);
  return value;
}
