// Which values of a payload may be written in clear, as the contract marks them: a value is shown
// only where its place is marked `x-public: true` for that operation and direction
// (generated/redaction.js); every other value is replaced by its marker. One rule for the proxy's
// recording, the sandbox's log and anything else that writes an exchange down (docs/decisions.md, D-102).
import { publicKeys, redaction } from '../../generated/redaction.js';
import { isFieldName } from './pointer.js';

export type PayloadDirection = 'request' | 'response';

/** The places of one operation and direction: public ones written in clear, secret ones collected. */
export interface Places {
  readonly public: ReadonlySet<string>;
  readonly secret: ReadonlySet<string>;
  /** Every place and every pointer above one: a member whose pointer is not here is read as `*` (a map's value). */
  readonly declared: ReadonlySet<string>;
}

/** The places with every pointer above them. */
export function placesFrom(publicPlaces: readonly string[], secretPlaces: readonly string[]): Places {
  const declared = new Set<string>();
  for (const place of [...publicPlaces, ...secretPlaces]) {
    for (let at = place; at !== ''; at = at.slice(0, at.lastIndexOf('/'))) declared.add(at);
  }
  return { public: new Set(publicPlaces), secret: new Set(secretPlaces), declared };
}

const NO_PLACES: Places = placesFrom([], []);

const PLACES = new Map<string, Places>();
for (const [operationId, entry] of Object.entries(redaction)) {
  for (const direction of ['request', 'response'] as const) {
    PLACES.set(`${operationId} ${direction}`, placesFrom(entry[direction].public, entry[direction].secret));
  }
}

/** Keys written in clear: the contract's field names, and the keys of open maps it names itself. */
const PUBLIC_KEYS: ReadonlySet<string> = new Set(publicKeys);
const isPublicKey = (key: string) => isFieldName(key) || PUBLIC_KEYS.has(key);

/**
 * The names of the fields the contract marks secret somewhere: a value under such a name is a secret
 * to search for wherever the name stands (an unknown member named `signature` is masked as any
 * unknown member, and its value is also searched for in the rest of the exchange).
 */
const SECRET_NAMES: ReadonlySet<string> = new Set(
  Object.values(redaction).flatMap((entry) =>
    [...entry.request.secret, ...entry.response.secret].map((pointer) =>
      (pointer.split('/').at(-1) as string).replace(/~1/g, '/').replace(/~0/g, '~'),
    ),
  ),
);

/** The places of an operation's payload; none for an operation the contract does not know. */
export const placesOf = (operationId: string, direction: PayloadDirection): Places =>
  PLACES.get(`${operationId} ${direction}`) ?? NO_PLACES;

/** The query or path parameters of an operation whose values are public. */
export function publicParameters(operationId: string, where: 'query' | 'path'): ReadonlySet<string> {
  const entry = Object.hasOwn(redaction, operationId) ? redaction[operationId] : undefined;
  return new Set(entry ? entry.request[where] : []);
}

/** Whether the value at `pointer` (array items as `*`) of an operation's payload is public. */
export const isPublicPlace = (operationId: string, direction: PayloadDirection, pointer: string): boolean =>
  placesOf(operationId, direction).public.has(pointer);

/** Characters a marker keeps as they are: they shape an address or a date, and hold no secret alone. */
const KEPT = new Set(['@', '.', '-', '_', ':', '/', '+', '=', ' ']);

/**
 * The marker of a value: one character per character of the value (so every length rule judges
 * the marker as it judged the value), `0` for a digit (a card number stays digits that pass Luhn),
 * `X` and `x` for a letter by its case, `@ . - _ : / + =` and spaces kept (an e-mail address or a URL
 * keeps its form), `x` for anything else. It never holds a quote or a backslash.
 */
export function marker(value: string): string {
  const ip = ipMarker(value);
  if (ip !== null) return ip;
  let out = '';
  for (const char of value) {
    if (char >= '0' && char <= '9') out += '0';
    else if (char >= 'A' && char <= 'Z') out += 'X';
    else if (char >= 'a' && char <= 'z') out += 'x';
    else out += KEPT.has(char) ? char : 'x';
  }
  return out;
}

const IPV4 =
  /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;
const IPV6 = /^[0-9A-Fa-f:.]{2,45}$/;

/** An IP address's marker: an address still (`0.0.0.0`, `::`), so that the field's format holds; null for any other text. */
function ipMarker(value: string): string | null {
  if (IPV4.test(value)) return '0.0.0.0';
  if (value.includes(':') && IPV6.test(value) && /[0-9A-Fa-f]/.test(value) && (value.match(/:/g)?.length ?? 0) >= 2)
    return '::';
  return null;
}

/** Thrown when a payload nests deeper than a recording follows: the caller masks it whole. */
export class TooDeepToMask extends Error {}

const MAX_DEPTH = 64;
const escapeToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * A copy of a parsed payload in which only values at public places are in clear: strings elsewhere
 * become their marker, numbers 0; `true`, `false` and `null` stay (they hold no text). Keys that are
 * field names of the contract stay, any other key becomes its marker (a map key or an unknown member
 * may be a card number). Strings at secret places are passed to `onSecret`.
 */
export function maskPayload(
  value: unknown,
  places: Places,
  onSecret: (value: string) => void,
  isSecretText: (text: string) => boolean = () => false,
): unknown {
  return maskAt(value, '', '', { places, onSecret, isSecretText }, 0);
}

interface Masking {
  places: Places;
  onSecret: (value: string) => void;
  /** A value the caller knows for a secret by its form (a card number), masked even at a public place. */
  isSecretText: (text: string) => boolean;
}

function maskAt(value: unknown, pointer: string, name: string, masking: Masking, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new TooDeepToMask();
  const { places, onSecret } = masking;
  if (typeof value === 'string' || typeof value === 'number') {
    const text = String(value);
    if (places.public.has(pointer) && !masking.isSecretText(text)) return value;
    if (places.secret.has(pointer) || SECRET_NAMES.has(name) || masking.isSecretText(text)) onSecret(text);
    return typeof value === 'string' ? marker(value) : 0;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => maskAt(item, `${pointer}/*`, name, masking, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const shown = isPublicKey(key) ? key : uniqueKey(out, marker(key));
    const exact = `${pointer}/${escapeToken(key)}`;
    // Defined, not assigned: a key `__proto__` stays a member.
    Object.defineProperty(out, shown, {
      value: maskAt(member, places.declared.has(exact) ? exact : `${pointer}/*`, key, masking, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** A masked key not yet taken in `out` (two map keys of the same shape stay two members). */
function uniqueKey(out: Record<string, unknown>, key: string): string {
  if (!Object.hasOwn(out, key)) return key;
  for (let n = 2; ; n++) if (!Object.hasOwn(out, `${key}~${n}`)) return `${key}~${n}`;
}
