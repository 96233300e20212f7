// Amounts as whole paise (hundredths of a rupee), so sums and comparisons are exact. The contract's
// amounts are strings with up to two decimals (section 2.14); the answers use exactly two.

const AMOUNT = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,2})?$/;

/** The amount in paise, or null when the text is not an amount. */
export function toPaise(text: unknown): number | null {
  if (typeof text !== 'string' || !AMOUNT.test(text)) return null;
  const dot = text.indexOf('.');
  if (dot < 0) return Number(text) * 100;
  return Number(text.slice(0, dot)) * 100 + Number(text.slice(dot + 1).padEnd(2, '0'));
}

/**
 * The amount in paise of a field the contract already checked: its Amount patterns (with up to or
 * exactly two decimals) accept only what toPaise reads, so this throws only if the two drift apart.
 */
export function checkedPaise(text: string): number {
  const paise = toPaise(text);
  if (paise === null) throw new TypeError("An amount the contract accepted is not an amount here: money.ts and the contract's Amount pattern differ.");
  return paise;
}

/** Paise as a rupee string with two decimals (a minus sign before a negative amount). */
export function formatPaise(paise: number): string {
  const whole = Math.abs(paise);
  return `${paise < 0 ? '-' : ''}${Math.trunc(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}
