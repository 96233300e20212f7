// Amounts as whole paise (hundredths of a rupee), so sums and comparisons are exact. The contract's
// amounts are strings with up to two decimals (section 2.14); the answers use exactly two.

const AMOUNT = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,2})?$/;

/** The amount in paise, or null when the text is not an amount. @param {unknown} text */
export function toPaise(text) {
  if (typeof text !== 'string' || !AMOUNT.test(text)) return null;
  const dot = text.indexOf('.');
  if (dot < 0) return Number(text) * 100;
  return Number(text.slice(0, dot)) * 100 + Number(text.slice(dot + 1).padEnd(2, '0'));
}

/** Paise as a rupee string with two decimals. @param {number} paise */
export function formatPaise(paise) {
  return `${Math.trunc(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;
}
