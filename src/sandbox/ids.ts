// Identifiers the sandbox issues. Transaction and pre-auth ids are digits (preAuthId: up to 64
// digits, section 4.3); tokens are random, so a guessed token never works.
import { randomBytes } from 'node:crypto';

let counter = 0;
const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
const PROCESS_DIGITS = String(process.pid % 1000).padStart(3, '0');
/** The time prefix of the last second an id was made in (ids are made on the hot path). */
let second = -1;
let prefix = '';

/** 32 digits: the UTC time to the second, the process and a counter, like the service's transaction ids. */
export function digitsId(now: number): string {
  counter = (counter + 1) % 1e15;
  const s = Math.floor(now / 1000);
  if (s !== second) {
    second = s;
    prefix = `${new Date(s * 1000)
      .toISOString()
      .replace(/[^0-9]/g, '')
      .slice(0, 14)}${PROCESS_DIGITS}`;
  }
  return `${prefix}${String(counter).padStart(15, '0')}`;
}

/** A random transaction token (32 hex characters). */
export const newTxnToken = (): string => randomBytes(16).toString('hex');

/** A token index number: alphanumeric, as TokenInfo requires. */
export function newTokenIndexNumber(): string {
  const bytes = randomBytes(12);
  let out = 'TIN';
  // ALNUM has 34 characters: a byte modulo its length is always an index of it.
  for (const b of bytes) out += ALNUM.charAt(b % ALNUM.length);
  return out;
}

export function randomDigits(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += String(b % 10);
  return out;
}

/** A subscription id: SUB and 16 digits (at most 64 characters, section 2.19). */
export const newSubscriptionId = (): string => `SUB${randomDigits(16)}`;

/** An order id for an order created without one. */
export const newOrderId = (now: number): string => `ORDER-${digitsId(now).slice(-18)}`;
