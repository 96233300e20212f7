// Amounts as whole paise (hundredths of a rupee), so sums and comparisons are exact. The contract's
// amounts are strings with up to two decimals (section 2.14), read by validation/amount.ts; the
// answers use exactly two.
import { amountInPaise } from '../validation/amount.js';

/**
 * The amount in paise of a field the contract already checked: its Amount patterns (with up to or
 * exactly two decimals) accept only what amountInPaise reads, so this throws only if the two drift apart.
 */
export function checkedPaise(text: string): number {
  const paise = amountInPaise(text);
  if (paise === null)
    throw new TypeError(
      "An amount the contract accepted is not an amount here: validation/amount.ts and the contract's Amount pattern differ.",
    );
  return paise;
}

/** Paise as a rupee string with two decimals (a minus sign before a negative amount). */
export function formatPaise(paise: number): string {
  const whole = Math.abs(paise);
  return `${paise < 0 ? '-' : ''}${Math.trunc(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}
