// The receiver's events on Node's diagnostics_channel (docs/tracing.md; docs/decisions.md, D-97). The
// module is taken from the runtime when it has one (runtime/diagnostics.ts), never imported: a web
// entry loads everywhere, and where there is none tracing is absent. A message is built only when a
// subscriber listens.
import { type Channel, diagnosticsChannel } from '../runtime/diagnostics.js';

const diagnostics = diagnosticsChannel();

/** One message per notification the receiver judged: see WebhookVerdictEvent. */
export const VERDICT_CHANNEL = 'gateway-contract:webhook:verdict';
/** One message per failed call of the replay store: see WebhookStoreEvent. */
export const STORE_CHANNEL = 'gateway-contract:webhook:store';

export const verdictChannel: Channel | undefined = diagnostics?.channel(VERDICT_CHANNEL);
export const storeChannel: Channel | undefined = diagnostics?.channel(STORE_CHANNEL);

/** Published on `gateway-contract:webhook:verdict`. Never a value of the payload. */
export interface WebhookVerdictEvent {
  /** `accepted`: answered 00; `rejected`: refused before any handler ran; `handlerFailed`: the handler threw or outran handlerTimeoutMs (500). */
  verdict: 'accepted' | 'rejected' | 'handlerFailed';
  /** The code of section 7.1 the reply carries. */
  code: string;
  /** The rule of the first issue (e.g. `signature`, `replay`, `replayStore`), absent when accepted. */
  rule?: string;
  /** Whether the merchant's handler ran (false for `receive()`, which runs none). */
  handlerRan: boolean;
  /** Milliseconds from the body's arrival at the receiver to the verdict. */
  durationMs: number;
}

/** Published on `gateway-contract:webhook:store` when the replay store fails. Never a key. */
export interface WebhookStoreEvent {
  operation: 'claim' | 'complete' | 'release';
  /**
   * `failed`: it threw or rejected; `timeout`: no answer within storeTimeoutMs; `full`: the memory store
   * is full; `gaveUp`: a completion or release still unanswered when its lease lapsed (or too many
   * waiting); `leaseLost`: a completion the store refused because the lease had lapsed (D-105).
   */
  outcome: 'failed' | 'timeout' | 'full' | 'gaveUp' | 'leaseLost';
  /** The error's name (e.g. `Error`, `ConnectionTimeoutError`), never its message. */
  error?: string;
}
