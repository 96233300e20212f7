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

/** Each field name of the contract, with its JSON Pointer segment (RFC 6901 escapes). */
const SEGMENTS: ReadonlyMap<string, string> = new Map(
  fieldNames.map((name) => [name, name.replace(/~/g, '~0').replace(/\//g, '~1')]),
);

/**
 * Whether a label that is not a payload key (an operationId or direction a record names, a segment
 * of a recorded URL) reads like a name and may be shown: words of letters, `_` and `$`, joined by
 * `.` or `-`, at most three digits at the end, at most 64 characters. A card number, a token or a
 * signature does not.
 */
export const NAME_LIKE = /^(?=.{1,64}$)[A-Za-z_$][A-Za-z_$]*(?:[.-][A-Za-z_$]+)*[0-9]{0,3}$/;
export const readsLikeName = (text: unknown): text is string => typeof text === 'string' && NAME_LIKE.test(text);

/** Whether a key is a field name of the contract. */
export const isFieldName = (key: unknown): boolean => typeof key === 'string' && SEGMENTS.has(key);

/** A key as a JSON Pointer segment (RFC 6901 escapes), or HIDDEN_KEY when it is not a field name of the contract. */
export function pointerSegment(key: unknown): string {
  return (typeof key === 'string' ? SEGMENTS.get(key) : undefined) ?? HIDDEN_KEY;
}

/** A place in a payload as it may be shown: its pointer, and its shape (the pointer with each array index as `#`). */
export interface ShownPlace {
  pointer: string;
  shape: string;
}

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/** How a raw segment under `node` is shown: an index of an array as it is, a key through pointerSegment. */
const isIndex = (node: unknown, segment: string): boolean => Array.isArray(node) && ARRAY_INDEX.test(segment);

/** The value under `segment`, or undefined (a getter or proxy that throws: the rest of the path is named as keys). */
function childOf(node: unknown, segment: string): unknown {
  try {
    return node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined;
  } catch {
    return undefined;
  }
}

/** A segment of a JSON Pointer unescaped (RFC 6901). */
const unescaped = (segment: string): string =>
  segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment;

/**
 * The places of the paths that name fields of the contract only (each segment shown as it is, none
 * an array index), by path, at most MAX_FIELD_PATHS of them. Such a place is the same in any
 * payload, and it holds no key of a payload that is not a field name: nothing a payload sent is
 * kept. Target of bench/validation.mjs (an invalid pay request of ten problems at most 5x
 * JSON.parse): the walk looks up every key of the path, and each issue then keys its maps by the
 * pointer; a known place is one lookup, and its strings are already hashed. test/json/pointer.test.ts
 * holds it to the walk (`walkedPlace`) on generated payloads and paths.
 */
const fieldPaths = new Map<string, Readonly<ShownPlace>>();
const MAX_FIELD_PATHS = 4_096;
/** A path with a segment that may be an array index somewhere: never kept. */
const MAY_INDEX = /\/\d/;

/**
 * The place of the value at `instancePath` (a JSON Pointer into `root`, as a validator reports it)
 * as it may be shown: its pointer, object keys through pointerSegment and array indices as they
 * are, at most MAX_POINTER_LENGTH characters; and its shape, the same pointer with `#` for each
 * array index (the pointer itself when it goes through no array).
 */
export function shownPlace(root: unknown, instancePath: string): Readonly<ShownPlace> {
  const known = fieldPaths.get(instancePath);
  if (known) return known;
  const place = walkedPlace(root, instancePath);
  if (place.pointer === instancePath && fieldPaths.size < MAX_FIELD_PATHS && !MAY_INDEX.test(instancePath))
    fieldPaths.set(instancePath, place);
  return place;
}

/** The paths whose places are kept (for tests: each is a path of field names of the contract). */
export const keptPaths = (): string[] => [...fieldPaths.keys()];

/** shownPlace's walk along the path: one walk gives the pointer and the shape. */
export function walkedPlace(root: unknown, instancePath: string): ShownPlace {
  let pointer = '';
  // Written from the first array index on; until then the shape is the pointer.
  let shape: string | undefined;
  let node = root;
  let start = 1;
  while (start <= instancePath.length) {
    const slash = instancePath.indexOf('/', start);
    const end = slash === -1 ? instancePath.length : slash;
    const segment = unescaped(instancePath.slice(start, end));
    const index = isIndex(node, segment);
    const shown = index ? segment : pointerSegment(segment);
    if (pointer.length + shown.length + 1 > MAX_POINTER_LENGTH)
      return { pointer: `${pointer}/${TRUNCATED}`, shape: `${shape ?? pointer}/${TRUNCATED}` };
    if (index || shape !== undefined) shape = `${shape ?? pointer}/${index ? '#' : shown}`;
    pointer += `/${shown}`;
    // The value under the last segment is not read: only a parent tells an index from a key.
    if (slash !== -1) node = childOf(node, segment);
    start = end + 1;
  }
  return { pointer, shape: shape ?? pointer };
}

/**
 * The pointer of a place in `root`, given as the raw segments of its path: object keys through
 * pointerSegment, array indices as they are, at most MAX_POINTER_LENGTH characters.
 */
export function safePointer(root: unknown, segments: readonly string[]): string {
  let pointer = '';
  let node = root;
  for (const segment of segments) {
    const shown = isIndex(node, segment) ? segment : pointerSegment(segment);
    if (pointer.length + shown.length + 1 > MAX_POINTER_LENGTH) return `${pointer}/${TRUNCATED}`;
    pointer += `/${shown}`;
    node = childOf(node, segment);
  }
  return pointer;
}

/** The raw segments of a JSON Pointer (RFC 6901 unescaped). */
export function pointerSegments(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescaped);
}
