// One attempt to deliver a token status notification (sections 4.1 and 6): signed with the
// merchant's CHECKSUM signer (a copy of duplicate-webhook repeats its original's signature), posted
// by the package's webhook sender within the webhook timeout, the merchant's reply read within
// MAX_REPLY_BYTES, and judged against the contract. Whatever happens, the attempt resolves with
// what came of it: it never rejects.
import type { Signer } from '../../signing/checksum.js';
import type { Schemas } from '../../types.js';
import type { SendTokenNotificationResult } from '../../webhook/send.js';
import type { SandboxOptions } from '../config.js';
import type { AttemptError, LastFailure, LastReply, ReplyVerdict } from '../records.js';
import { memberOf } from '../untrusted.js';

/** The most of a merchant's reply a delivery reads and records. */
export const MAX_REPLY_BYTES = 16 * 1024;

/** The most of a failure's message a delivery keeps. */
const MAX_ERROR_MESSAGE = 300;

/** What sends a notification: the package's `sendTokenNotification`, or the one given in the options. */
export type SendNotification = NonNullable<SandboxOptions['sendNotification']>;

/** What one attempt came to: the merchant's reply and its verdict, or why there was none. */
export type AttemptOutcome =
  | ({ state: ReplyVerdict } & Omit<LastReply, 'completedAt'>)
  | ({ state: 'failed' } & Omit<LastFailure, 'completedAt'>);

/** One attempt: what is sent, where, and within what. */
export interface AttemptRequest {
  send: SendNotification;
  url: string;
  mid: string;
  tokenInfo: Schemas['TokenInfo'];
  requestId: string;
  signer: Signer;
  /** The notification's timestamp (epoch ms). */
  at: number;
  timeoutMs: number;
  /** Ends the attempt at once (the sandbox stops). */
  signal: AbortSignal;
}

/** Sends one attempt and says what came of it. */
export async function sendAttempt(request: AttemptRequest): Promise<AttemptOutcome> {
  const { at } = request;
  try {
    const result = await request.send({
      url: request.url,
      body: { mid: request.mid, tokenInfo: request.tokenInfo },
      signer: request.signer,
      requestId: request.requestId,
      now: () => at,
      timeoutMs: request.timeoutMs,
      // A reply is a few hundred bytes; more is neither read nor kept in the record.
      maxReplyBytes: MAX_REPLY_BYTES,
      signal: request.signal,
    });
    return replyOutcome(result);
  } catch (error) {
    return { state: 'failed', error: attemptError(error) };
  }
}

/** The verdict on a reply: delivered only when it keeps the contract and says success (00). */
export function verdictOf(result: Pick<SendTokenNotificationResult, 'valid' | 'outcome'>): ReplyVerdict {
  if (!result.valid) return 'invalid-reply';
  return result.outcome === 'success' ? 'delivered' : 'not-accepted';
}

function replyOutcome(result: SendTokenNotificationResult): AttemptOutcome {
  return {
    state: verdictOf(result),
    httpStatus: result.httpStatus,
    ...(result.code === undefined ? {} : { code: result.code }),
    outcome: result.outcome,
    valid: result.valid,
    issues: result.issues,
    reply: result.reply,
  };
}

/** What is kept of a failure: its name, its kind when it has one, and the start of its message. */
export function attemptError(error: unknown): AttemptError {
  // A sender given in the options may throw anything: only these three fields are kept.
  // Strings only: String() of an object whose toString is not a function throws.
  const kind = memberOf(error, 'kind');
  const name = memberOf(error, 'name');
  const message = memberOf(error, 'message');
  return {
    name: typeof name === 'string' ? name.slice(0, MAX_ERROR_MESSAGE) : 'Error',
    ...(typeof kind === 'string' ? { kind: kind.slice(0, 64) } : {}),
    message: (typeof message === 'string' ? message : 'the delivery failed').slice(0, MAX_ERROR_MESSAGE),
  };
}

/** The merchant's signer, telling `signed` each signature it makes (a copy repeats it). */
export function keepingSigner(signer: Signer, signed: (signature: string) => void): Signer {
  return {
    signatureType: signer.signatureType,
    sign: async (text) => {
      const signature = await signer.sign(text);
      signed(signature);
      return signature;
    },
  };
}

/** A signer that repeats a signature byte for byte: the copy sent by duplicate-webhook. */
export function repeatingSigner(signatureType: string, signature: string): Signer {
  return { signatureType, sign: () => signature };
}
