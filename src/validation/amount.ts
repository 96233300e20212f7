// The contract's amounts (`Amount`, section 2.14: `0` or up to 12 digits without a leading zero,
// then optionally a point and one or two digits) as whole paise, hundredths of a rupee, so that
// sums and comparisons are exact. The one reader of amounts: the named checks and the sandbox.

/** The digit at `i`, or -1. */
function digitAt(text: string, i: number): number {
  const d = text.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : -1;
}

/**
 * The amount in paise, or null when the text is not an amount. Read digit by digit (at most 14
 * digits, so the integer is exact) rather than by the regular expression of the plain form
 * (test/validation/api.test.ts holds the two equal): firstPaymentWithinRenewalAmount reads two
 * amounts in every valid UPI subscription, and the benchmark holds createSubscription's validation
 * to at most 0.5x JSON.parse of the payload (bench/validation.mjs): the expression took three to
 * four times as long per amount, about a fifth of that validation.
 */
export function amountInPaise(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const end = text.length;
  let i = 0;
  let whole = 0;
  for (let d = digitAt(text, 0); d >= 0 && i < end; d = digitAt(text, ++i)) whole = whole * 10 + d;
  // 1 to 12 digits, no leading zero unless the zero is all there is.
  if (i === 0 || i > 12 || (i > 1 && text.charCodeAt(0) === 48)) return null;
  if (i === end) return whole * 100;
  const tenths = digitAt(text, i + 1);
  if (text.charCodeAt(i) !== 46 || tenths < 0) return null;
  if (i + 2 === end) return whole * 100 + tenths * 10;
  const cents = digitAt(text, i + 2);
  return cents >= 0 && i + 3 === end ? whole * 100 + tenths * 10 + cents : null;
}
