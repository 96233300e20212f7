// JSON Pointers that are safe to show. A key of a payload is named in a pointer only when it is a
// field name of the contract (a property some schema declares, or a parameter); any other key is
// data (a map key such as an extendInfo entry, or an unknown field) and may hold a card number or a
// token, so it stands as HIDDEN_KEY. One rule for every error, log line and report.
import { fieldNames } from '../../generated/fieldNames.js';

/** What stands in a pointer for a key that is not shown. */
export const HIDDEN_KEY = '<unknown key>';

/** Pointers longer than this end in TRUNCATED (a payload nested thousands of levels deep). */
export const MAX_POINTER_LENGTH = 512;
export const TRUNCATED = '<deeper>';

const NAMES: ReadonlySet<string> = new Set(fieldNames);

/**
 * Whether a label that is not a payload key (an operationId or direction a record names, a segment
 * of a recorded URL) reads like a name and may be shown: words of letters, `_` and `$`, joined by
 * `.` or `-`, at most three digits at the end, at most 64 characters. A card number, a token or a
 * signature does not.
 */
export const NAME_LIKE = /^(?=.{1,64}$)[A-Za-z_$][A-Za-z_$]*(?:[.-][A-Za-z_$]+)*[0-9]{0,3}$/;
export const readsLikeName = (text: unknown): text is string => typeof text === 'string' && NAME_LIKE.test(text);

/** Whether a key is a field name of the contract. */
export const isFieldName = (key: unknown): boolean => typeof key === 'string' && NAMES.has(key);

/** A key as a JSON Pointer segment (RFC 6901 escapes), or HIDDEN_KEY when it is not a field name of the contract. */
export function pointerSegment(key: unknown): string {
  return isFieldName(key) ? (key as string).replace(/~/g, '~0').replace(/\//g, '~1') : HIDDEN_KEY;
}

/**
 * The pointer of a place in `root`, given as the raw segments of its path: object keys through
 * pointerSegment, array indices as they are, at most MAX_POINTER_LENGTH characters.
 */
export function safePointer(root: unknown, segments: readonly string[]): string {
  let pointer = '';
  let node = root;
  for (const segment of segments) {
    const inArray = Array.isArray(node);
    const shown = inArray && /^(0|[1-9][0-9]*)$/.test(segment) ? segment : pointerSegment(segment);
    if (pointer.length + shown.length + 1 > MAX_POINTER_LENGTH) return `${pointer}/${TRUNCATED}`;
    pointer += `/${shown}`;
    try {
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined;
    } catch {
      // A getter or proxy that throws: the rest of the path is named as keys.
      node = undefined;
    }
  }
  return pointer;
}

/** The raw segments of a JSON Pointer (RFC 6901 unescaped). */
export function pointerSegments(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
