// The sandbox's clock: a base clock (Date.now, or the `now` a test injects) plus an offset that the
// control call /sandbox/clock/advance moves forward. Token expiry, blocks and scheduled token
// status changes all read this clock, so tests never sleep.

/** The most one advance moves the clock: 3 660 days, ten years and more (docs/decisions.md, D-58). */
export const MAX_CLOCK_ADVANCE_MS = 3660 * 86_400_000;
/** The clock never goes past this time: later years have no four-digit ISO 8601 form, and Date ends soon after. */
export const CLOCK_END_MS = Date.parse('9999-12-31T23:59:59.999Z');

export interface Clock {
  /** Milliseconds since the epoch, in sandbox time. */
  now(): number;
  /** Moves the clock forward by `ms` (never back); throws a RangeError when `advanceProblem` names one. */
  advance(ms: number): void;
  /** Why the clock cannot move forward by `ms`, or undefined when it can. */
  advanceProblem(ms: number): string | undefined;
  /** Back to the base clock. */
  reset(): void;
  /** How far the clock was moved ahead of its base. */
  offset(): number;
}

/** @param base milliseconds since the epoch */
export function createClock(base: () => number = Date.now): Clock {
  let offset = 0;
  const now = () => base() + offset;
  // Bounded so that every time the sandbox writes (ISO 8601, txnDate, epoch strings) stays valid:
  // an unbounded offset made Date throw in every answer that shows the time.
  const advanceProblem = (ms: number): string | undefined => {
    if (!Number.isFinite(ms) || ms < 0) return 'The clock only moves forward: give a positive number of milliseconds.';
    if (ms > MAX_CLOCK_ADVANCE_MS) return `The clock moves at most 3660 days (${MAX_CLOCK_ADVANCE_MS} ms) at a time.`;
    if (now() + ms > CLOCK_END_MS) return 'The clock cannot go past 9999-12-31T23:59:59.999Z.';
    return undefined;
  };
  return {
    now,
    advance(ms) {
      const problem = advanceProblem(ms);
      if (problem) throw new RangeError(problem);
      offset += ms;
    },
    advanceProblem,
    reset() {
      offset = 0;
    },
    offset: () => offset,
  };
}

/** Epoch milliseconds as the 13-digit string of the contract's timestamps. */
export const epochMs = (ms: number): string => String(Math.trunc(ms));
/** Epoch seconds as the 10-digit string of pre-auth and list subscriptions. */
export const epochSeconds = (ms: number): string => String(Math.trunc(ms / 1000));
/** The UTC date YYYY-MM-DD of a time. */
export const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
let txnDateSecond = NaN;
let txnDateText = '';
/** Date and time as the service's txnDate form, `YYYY-MM-DD hh:mm:ss.0` (UTC); kept per second (hot path). */
export function txnDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== txnDateSecond) {
    txnDateSecond = second;
    txnDateText = `${new Date(second * 1000).toISOString().slice(0, 19).replace('T', ' ')}.0`;
  }
  return txnDateText;
}
