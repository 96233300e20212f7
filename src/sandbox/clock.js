// The sandbox's clock: a base clock (Date.now, or the `now` a test injects) plus an offset that the
// control call /sandbox/clock/advance moves forward. Token expiry, blocks and scheduled token
// status changes all read this clock, so tests never sleep.

/** @param {() => number} [base] milliseconds since the epoch */
export function createClock(base = Date.now) {
  let offset = 0;
  return {
    now: () => base() + offset,
    /** Moves the clock forward by `ms` (never back). @param {number} ms */
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('The clock only moves forward: give a positive number of milliseconds.');
      offset += ms;
    },
    reset() { offset = 0; },
    offset: () => offset,
  };
}

/** @typedef {ReturnType<typeof createClock>} Clock */

/** Epoch milliseconds as the 13-digit string of the contract's timestamps. @param {number} ms */
export const epochMs = (ms) => String(Math.trunc(ms));
/** Epoch seconds as the 10-digit string of pre-auth and list subscriptions. @param {number} ms */
export const epochSeconds = (ms) => String(Math.trunc(ms / 1000));
/** The UTC date YYYY-MM-DD of a time. @param {number} ms */
export const isoDate = (ms) => new Date(ms).toISOString().slice(0, 10);
let txnDateSecond = NaN;
let txnDateText = '';
/** Date and time as the service's txnDate form, `YYYY-MM-DD hh:mm:ss.0` (UTC); kept per second (hot path). @param {number} ms */
export function txnDate(ms) {
  const second = Math.floor(ms / 1000);
  if (second !== txnDateSecond) {
    txnDateSecond = second;
    txnDateText = `${new Date(second * 1000).toISOString().slice(0, 19).replace('T', ' ')}.0`;
  }
  return txnDateText;
}
