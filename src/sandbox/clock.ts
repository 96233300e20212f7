// The sandbox's clock: a base clock (Date.now, or the `now` a test injects) plus an offset that the
// control call /sandbox/clock/advance moves forward. Token expiry, blocks and scheduled token
// status changes all read this clock, so tests never sleep.

export interface Clock {
  /** Milliseconds since the epoch, in sandbox time. */
  now(): number;
  /** Moves the clock forward by `ms` (never back). */
  advance(ms: number): void;
  /** Back to the base clock. */
  reset(): void;
  /** How far the clock was moved ahead of its base. */
  offset(): number;
}

/** @param base milliseconds since the epoch */
export function createClock(base: () => number = Date.now): Clock {
  let offset = 0;
  return {
    now: () => base() + offset,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('The clock only moves forward: give a positive number of milliseconds.');
      offset += ms;
    },
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
