// Reading JSON nobody has checked yet (control bodies, the seed of test instruments): every member
// is unknown until a test says what it is. Reading a member of something that is not an object
// gives undefined, as optional chaining would.

/** A JSON object or array whose members are still unknown. */
export type Untrusted = { readonly [key: string]: unknown };

/** Whether the value is an object or an array (so its members can be read). */
export function isUntrustedObject(value: unknown): value is Untrusted {
  return typeof value === 'object' && value !== null;
}

/** The member at `keys`, or undefined where a step is not an object. */
export function memberOf(value: unknown, ...keys: string[]): unknown {
  let at = value;
  for (const key of keys) {
    if (!isUntrustedObject(at)) return undefined;
    at = at[key];
  }
  return at;
}
