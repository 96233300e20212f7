// The merchant's side of the token status notification (sections 4.1, 6 and 7.1): the raw body in,
// the verdict and the exact reply envelope out, as one sequence of named checks (evaluate). Order of
// checks (docs/decisions.md, D-34, D-113):
//   1-3. the bytes, what the signature check needs, the signature (signatureCheck.ts): nothing
//        of the payload is judged before its signature is known to be good -> 400, 1006, 1005, 1400, 410, 1001
//        then the whole text (JSON, no repeated key), built (notification.ts) -> 400
//   4.   the contract (its validation), the expected mid                     -> 410, 400, 406, 405, 1004, 407
//   5.   the clock (requestTimestamp within maxClockSkewMs)                  -> 400
//   6.   replay: the notification's signature and requestId claimed in progress in the replay
//        store (the claim ledger, claims.ts; D-93, D-105); one handled      -> 406
//        one in progress under another delivery (its lease not lapsed)      -> 500
//        a store that fails, does not answer within storeTimeoutMs, or is full -> 500
//   then the handler, within handlerTimeoutMs (handlerRun.ts): it succeeds, the claims are completed
//   (handled for replayWindowMs) -> 00; it fails or outruns its time -> 500
// The options are checked once, in options.ts; what a refusal says is in issues.ts.

import type { NodeRequest, NodeResponse } from '../http/nodeTypes.js';
import type { ResponseOf } from '../types.js';
import type { ValidationIssue } from '../validation/operationValidation.js';
import {
  fetchHandler,
  nodeHandler,
  type ReceiverCore,
  type TokenStatusHandler,
  type WebhookRejected,
} from './adapters.js';
import { claimNotification, createClaimLedger, type HeldClaim, settleClaim } from './claims.js';
import { runHandler } from './handlerRun.js';
import { CLAIM_REFUSALS, HANDLER_FAILED, HANDLER_TIMEOUT, internalFailure, type ReceiverIssue } from './issues.js';
import { clockProblem, midProblem, readNotification, type TokenStatusEvent } from './notification.js';
import { leaseFor, receiverSettings, type WebhookReceiverOptions } from './options.js';
import { type ClaimOutcome, createMemoryReplayStore, type ReplayStore } from './replayStore.js';
import { type ReplyCode, replyFor } from './reply.js';
import { signedText } from './signatureCheck.js';
import { publishVerdict, reportRejected } from './verdicts.js';

export { WEBHOOK_DEFAULTS } from './options.js';
export {
  type ClaimOutcome,
  createMemoryReplayStore,
  leaseFor,
  type ReplayStore,
  type TokenStatusEvent,
  type WebhookReceiverOptions,
};

/** The merchant's reply envelope: head `{ version, responseTimestamp }`, `body.resultInfo`. */
export type TokenStatusReply = ResponseOf<'notifyTokenStatus'>;

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

/** An accepted notification on its way through the adapters: its keys are claimed in progress by its owner. */
interface Pending extends WebhookAccepted {
  claim: HeldClaim;
}

/** Receives the service's token status notification: signature, contract, clock and replay checks. */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const settings = receiverSettings(options);
  const { verifier, now, onRejected, maxBytes, maxClockSkewMs, mids, handlerTimeoutMs, storeTimeoutMs } = settings;
  const ledger = createClaimLedger({
    store: settings.store,
    storeTimeoutMs,
    leaseMs: leaseFor(handlerTimeoutMs, storeTimeoutMs),
    windowMs: settings.replayWindowMs,
  });

  const reject = (code: ReplyCode, issues: ValidationIssue[]): WebhookRejected => ({
    accepted: false,
    code,
    reply: replyFor(code, now()),
    issues,
  });
  const refuse = (found: ReceiverIssue): WebhookRejected => reject(found.resultCode, [{ ...found }]);

  /** Steps 1 to 6. An accepted verdict holds its claim until it is completed, released or lapses. */
  async function evaluate(raw: unknown): Promise<Pending | WebhookRejected> {
    const signed = await signedText(raw, maxBytes, verifier);
    if (!signed.ok) return refuse(signed.issue);
    const read = readNotification(signed.text);
    if (!read.ok) return reject(read.code, read.issues);
    const { event } = read;
    const notServed = midProblem(event, mids);
    if (notServed) return refuse(notServed);
    const at = now();
    const late = clockProblem(event, at, maxClockSkewMs);
    if (late) return refuse(late);
    const claimed = await claimNotification(ledger, event.head);
    if (!claimed.won) return refuse(CLAIM_REFUSALS[claimed.verdict]);
    return { accepted: true, event, reply: replyFor('00', at), claim: claimed.claim };
  }

  /** evaluate, with a failure it did not foresee answered 500. */
  async function judge(raw: unknown): Promise<Pending | WebhookRejected> {
    try {
      return await evaluate(raw);
    } catch (error) {
      return refuse(internalFailure(error));
    }
  }

  /** Judges a notification; an accepted one is completed at once: the caller handles it (no handler runs here). */
  async function receive(raw: string | Uint8Array): Promise<WebhookVerdict> {
    const startedAt = performance.now();
    const verdict = await judge(raw);
    if (!verdict.accepted) {
      publishVerdict('rejected', verdict.code, verdict.issues, false, startedAt);
      return verdict;
    }
    await ledger.complete(verdict.claim.keys, verdict.claim.owner);
    publishVerdict('accepted', '00', undefined, false, startedAt);
    return { accepted: verdict.accepted, event: verdict.event, reply: verdict.reply };
  }

  /** For the adapters: judge (which claims the notification), run the handler of an accepted one, settle its claim, reply. */
  async function deliver(raw: Uint8Array, onEvent: TokenStatusHandler): Promise<TokenStatusReply> {
    const startedAt = performance.now();
    const verdict = await judge(raw);
    if (!verdict.accepted) {
      reportRejected(onRejected, verdict, startedAt);
      return verdict.reply;
    }
    const end = await runHandler(onEvent, verdict.event, handlerTimeoutMs);
    await settleClaim(ledger, verdict.claim, end);
    if (end.ended === 'succeeded') {
      publishVerdict('accepted', '00', undefined, true, startedAt);
      return verdict.reply;
    }
    const failed = refuse(end.ended === 'failed' ? HANDLER_FAILED : HANDLER_TIMEOUT);
    reportRejected(onRejected, failed, startedAt, true);
    return failed.reply;
  }

  const core: ReceiverCore = { deliver, maxBytes, reject, report: (verdict) => reportRejected(onRejected, verdict) };
  return {
    receive,
    nodeHandler: (onEvent) => nodeHandler(core, onEvent),
    fetchHandler: (onEvent) => fetchHandler(core, onEvent),
  };
}
