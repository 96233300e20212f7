// The receiver's defaults, apart from the receiver: the package's entry shows them without loading it.
import { DEFAULT_MAX_ENTRIES } from './replayStore.js';

/** Defaults: see DECISIONS.md, D-35 and D-94. */
export const WEBHOOK_DEFAULTS = Object.freeze({
  replayWindowMs: 24 * 60 * 60 * 1000,
  maxClockSkewMs: 5 * 60 * 1000,
  maxBytes: 1024 * 1024,
  maxRemembered: DEFAULT_MAX_ENTRIES,
  storeTimeoutMs: 2_000,
});
