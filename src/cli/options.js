// Option values shared by the commands: the usage error main() reports in one line with exit
// status 2, and whole numbers within a range (ports, delays).

/** An error main() reports as a usage error. @param {string} message */
export const usageError = (message) => Object.assign(new Error(message), { usage: true });

/**
 * A whole number from `min` to `max`, or undefined when the option is absent.
 * @param {string | undefined} text @param {string} what @param {{ min?: number, max?: number }} [range]
 */
export function wholeNumber(text, what, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}) {
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) throw usageError(`${what} must be a whole number from ${min} to ${max}, got "${text.slice(0, 16)}"`);
  return n;
}
