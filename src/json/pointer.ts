// JSON Pointer segments that are safe to show. A key of a payload is named in a pointer only when
// it reads like a field name; any other key (a card number, a token, a signature) is replaced, so
// that no error, log line or report echoes a value through a key.

/**
 * Keys that read like field names: words of letters, `_` and `$`, joined by `.` or `-`, at most three
 * digits at the end, at most 64 characters.
 */
export const FIELD_NAME = /^(?=.{1,64}$)[A-Za-z_$][A-Za-z_$]*(?:[.-][A-Za-z_$]+)*[0-9]{0,3}$/;

/** What stands in a pointer for a key that is not shown. */
export const HIDDEN_KEY = '<unknown key>';

/** A key as a JSON Pointer segment (RFC 6901 escapes), or HIDDEN_KEY when it does not read like a field name. */
export function pointerSegment(key: unknown): string {
  const text = String(key);
  return FIELD_NAME.test(text) ? text.replace(/~/g, '~0').replace(/\//g, '~1') : HIDDEN_KEY;
}
