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
//   6. replay: the notification's signature and requestId claimed in progress in
//      the replay store (claims.ts; D-93, D-105); one handled                  -> 406
//      one in progress under another delivery (its lease not lapsed)        -> 500
//      a store that fails, does not answer within storeTimeoutMs, or is full -> 500
//   then the handler, within handlerTimeoutMs: it succeeds, the claims are completed
//   (handled for replayWindowMs) -> 00; it fails or outruns its time -> 500
// Nothing about the payload is judged before its signature is known to be good, except what is
// needed to check the signature at all: a forged notification costs a pass over its text that reads
// no value, and the verifier's check, whatever its body holds (a repeated key in it included: 1001).

import { utf8Bytes } from '../encoding/bytes.js';
import type { NodeRequest, NodeResponse } from '../http/nodeTypes.js';
import { jsonSpace, nestsDeeper, outlineObject } from '../json/outline.js';
import { checkJson, jsonText, malformedMessage, tooDeepMessage } from '../json/scan.js';
import type { Verifier } from '../signing/checksum.js';
import type { RequestOf, ResponseOf } from '../types.js';
import { validateRequest } from '../validation/operations/notifyTokenStatus.js';
import type { ValidationIssue } from '../validation/operationValidation.js';
import { resultCodeFor } from '../validation/resultCodeRules.js';
import { fetchHandler, nodeHandler, type ReceiverCore, type TokenStatusHandler, type WebhookRejected } from './adapters.js';
import { type ClaimVerdict, createClaimLedger, newOwner, replayKeys } from './claims.js';
import { type ClaimOutcome, createMemoryReplayStore, DEFAULT_MAX_ENTRIES, type ReplayStore } from './replayStore.js';
import { type ReplyCode, replyFor } from './reply.js';
import { verdictChannel, type WebhookVerdictEvent } from './tracing.js';

export { type ClaimOutcome, createMemoryReplayStore, type ReplayStore };

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
export const leaseFor = (handlerTimeoutMs: number, storeTimeoutMs: number): number => Math.ceil(handlerTimeoutMs + 3 * storeTimeoutMs);

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
  'This notification (same requestId or same signature) was already handled within the replay window; it is not processed twice.',
  '406',
);
const IN_PROGRESS = issue(
  '/head/requestId',
  'inProgress',
  'The notification was not processed: another delivery of it is being handled, or one that failed has not yet let it go (its lease). The service delivers it again later.',
  '500',
);
const HANDLER_FAILED = issue(
  '',
  'onEvent',
  'The notification is authentic and valid, but its handler failed. It was released, so a new delivery is accepted.',
  '500',
);
const HANDLER_TIMEOUT = issue(
  '',
  'handlerTimeout',
  'The notification is authentic and valid, but its handler did not finish within handlerTimeoutMs. The service delivers it again: it is accepted if the handler fails, refused as handled if it succeeds.',
  '500',
);

/** The reply to a claim that did not win. */
const CLAIM_REFUSALS: Record<Exclude<ClaimVerdict, 'won'>, ValidationIssue & { resultCode: ReplyCode }> = {
  handled: REPLAY,
  'in-progress': IN_PROGRESS,
  failed: STORE_FAILED,
  full: MEMORY_FULL,
};

/** An accepted notification on its way through the adapters: its keys are claimed in progress by `owner`. */
interface Pending {
  accepted: true;
  event: TokenStatusEvent;
  reply: TokenStatusReply;
  keys: string[];
  owner: string;
}

/** How a handler ended: `late` settles when a handler that outran its time limit ends (true: it succeeded). */
type HandlerEnd = { ended: 'succeeded' } | { ended: 'failed' } | { ended: 'timeout'; late: Promise<boolean> };

/** Runs the handler with its time limit: past it, its signal aborts and the wait ends. */
async function runHandler(onEvent: TokenStatusHandler, event: TokenStatusEvent, timeoutMs: number): Promise<HandlerEnd> {
  const controller = new AbortController();
  let run: Promise<boolean>;
  try {
    run = Promise.resolve(onEvent(event, { signal: controller.signal })).then(
      () => true,
      () => false,
    );
  } catch {
    return { ended: 'failed' };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const first = await Promise.race([run, timedOut]);
  clearTimeout(timer);
  if (first === 'timeout') {
    controller.abort(new Error('The handler outran handlerTimeoutMs.'));
    return { ended: 'timeout', late: run };
  }
  return { ended: first ? 'succeeded' : 'failed' };
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
  const handlerTimeoutMs = positive(options.handlerTimeoutMs, WEBHOOK_DEFAULTS.handlerTimeoutMs, 'handlerTimeoutMs');
  const mids = options.expectedMid === undefined ? undefined : ([] as string[]).concat(options.expectedMid);
  const store = options.store ?? createMemoryReplayStore({ now, maxEntries: options.maxRemembered ?? WEBHOOK_DEFAULTS.maxRemembered });
  if (typeof store?.claim !== 'function' || typeof store.complete !== 'function' || typeof store.release !== 'function') {
    throw new TypeError(
      "store must have claim(key, leaseMs, owner), answering 'claimed', 'in-progress' or 'handled', complete(key, owner, windowMs) and release(key, owner): a store of the earlier shape (claim answering true or false, and release) lacks complete and the claim's states (docs/webhook-stores.md).",
    );
  }
  const ledger = createClaimLedger({ store, storeTimeoutMs, leaseMs: leaseFor(handlerTimeoutMs, storeTimeoutMs), windowMs: replayWindowMs });

  const reject = (code: ReplyCode, issues: ValidationIssue[]): WebhookRejected => ({ accepted: false, code, reply: replyFor(code, now()), issues });

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
    const claimed = await ledger.claim(keys, owner);
    if (claimed !== 'won') {
      const refusal = CLAIM_REFUSALS[claimed];
      return reject(refusal.resultCode, [{ ...refusal }]);
    }
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

  /** Judges a notification; an accepted one is completed at once: the caller handles it (no handler runs here). */
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
    await ledger.complete(verdict.keys, verdict.owner);
    trace('accepted', '00', undefined, false, startedAt);
    return { accepted: verdict.accepted, event: verdict.event, reply: verdict.reply };
  }

  /**
   * What a handler's end does to its claim: succeeded, completed (00, even when the store cannot be
   * reached: the handler ran, and a 500 would have it run again once the lease lapses); failed,
   * released (500, so the service's next delivery is accepted); outran its time limit, 500, and its
   * claim completed or released when it ends.
   */
  async function settle(verdict: Pending, end: HandlerEnd, startedAt: number): Promise<TokenStatusReply> {
    const { keys, owner } = verdict;
    if (end.ended === 'succeeded') {
      await ledger.complete(keys, owner);
      trace('accepted', '00', undefined, true, startedAt);
      return verdict.reply;
    }
    if (end.ended === 'failed') await ledger.release(keys, owner);
    else void end.late.then((succeeded) => (succeeded ? ledger.complete(keys, owner) : ledger.release(keys, owner)));
    const failed = reject('500', [{ ...(end.ended === 'failed' ? HANDLER_FAILED : HANDLER_TIMEOUT) }]);
    report(failed, startedAt, true);
    return failed.reply;
  }

  /** For the adapters: evaluate (which claims the notification), run the handler of an accepted one, settle its claim. */
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
    return settle(verdict, await runHandler(onEvent, verdict.event, handlerTimeoutMs), startedAt);
  }

  const core: ReceiverCore = { deliver, maxBytes, reject, report };
  return {
    receive,
    nodeHandler: (onEvent) => nodeHandler(core, onEvent),
    fetchHandler: (onEvent) => fetchHandler(core, onEvent),
  };
}

function positive(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value))
    throw new TypeError(`${name} must be a positive number of ${name === 'maxBytes' ? 'bytes' : 'milliseconds'}.`);
  return value;
}
