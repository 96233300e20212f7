// What the proxy's recording may keep, by allow-list (docs/decisions.md, D-102 to D-104): a value is
// written in clear only where the contract marks it public (`x-public: true`) for the exchange's
// operation and direction; every other value becomes its marker. A body that is not the contract's
// JSON (another content type, a form, text that does not parse, nesting deeper than the proxy reads)
// is masked whole; header values are kept for a short list of harmless names; in the URL, only the
// values of parameters marked public. Then every known secret (the merchant key, the values found at
// places marked `x-sensitive`) is masked wherever it still appears, in every encoding the scrub reads.
import { passesLuhn } from '../card/encryptCardData.js';
import {
  marker,
  maskPayload,
  type PayloadDirection,
  placesFrom,
  placesOf,
  publicParameters,
  TooDeepToMask,
} from '../json/publicValues.js';
import type { Report } from '../report/model.js';

/** Header names whose values are written in clear: they describe the message, never its parties. */
const HARMLESS_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'accept-encoding',
  'cache-control',
  'connection',
  'content-encoding',
  'content-length',
  'content-type',
  'date',
  'host',
  'keep-alive',
  'transfer-encoding',
]);

/** A header name shown as it is: letters and dashes (a name holding digits or other text is masked too). */
const PLAIN_HEADER_NAME = /^[A-Za-z][A-Za-z-]{0,63}$/;

/** The media types of the contract's bodies (the proxy's own problems are application/problem+json). */
const JSON_TYPE = /^application\/(?:problem\+)?json\s*(?:;|$)/i;

/**
 * A card number by its form: 12 to 19 digits (spaces or dashes between them allowed) that pass Luhn.
 * Masked even where the contract marks the place public: no identifier of the service is one.
 */
function looksLikeCardNumber(text: string): boolean {
  if (text.length < 12 || text.length > 40 || !/^[0-9][0-9 -]*[0-9]$/.test(text)) return false;
  const digits = text.replace(/[ -]/g, '');
  // Epoch time in milliseconds (13 digits from 1): no card network issues such numbers.
  if (/^1[0-9]{12}$/.test(digits)) return false;
  return digits.length >= 12 && digits.length <= 19 && passesLuhn(digits);
}

/** Secrets shorter than this are masked where they are found, not searched for elsewhere (3 digits are in every timestamp). */
const MIN_SEARCHED = 6;
/** Base64 spellings shorter than this are not searched for (they would match ordinary text). */
const MIN_BASE64 = 8;
const MAX_SECRETS = 1_000;

/** The secrets of one exchange: the merchant key and the values found at places marked `x-sensitive`. */
export class Secrets {
  private readonly values = new Set<string>();
  constructor(key?: string) {
    if (key) this.values.add(key);
  }
  add(value: string): void {
    if (value.length >= MIN_SEARCHED && this.values.size < MAX_SECRETS) this.values.add(value);
  }
  /** Every spelling of every known secret in `text` replaced by a marker of the same length (see scrubText). */
  scrub(text: string): string {
    return scrubText(text, this.values);
  }
}

/** One side of an exchange as the recording sees it. */
export interface MessageView {
  operationId: string | null;
  direction: PayloadDirection;
  contentType: string | undefined;
  text: string;
  parsed: { ok: true; value: unknown } | { ok: false };
  /** The proxy's own problem (RFC 9457), not the service's payload. */
  ownProblem?: boolean | undefined;
}

/** The members of the proxy's own problems, all written by the proxy from words and pointers. */
const PROBLEM_PLACES = placesFrom(
  [
    '/type',
    '/title',
    '/status',
    '/detail',
    '/operationId',
    '/resultCode',
    '/upstreamStatus',
    '/errors/*/pointer',
    '/errors/*/in',
    '/errors/*/rule',
    '/errors/*/detail',
    '/errors/*/resultCode',
  ],
  [],
);

/**
 * The text of a body as a recording keeps it: the contract's JSON re-serialized from its masked copy
 * (no escaped spelling of a value slips through), anything else masked whole.
 */
export function redactBody(view: MessageView, secrets: Secrets): string {
  if (!view.parsed.ok || view.contentType === undefined || !JSON_TYPE.test(view.contentType)) return marker(view.text);
  const places = view.ownProblem
    ? PROBLEM_PLACES
    : view.operationId === null
      ? undefined
      : placesOf(view.operationId, view.direction);
  if (places === undefined) return marker(view.text);
  try {
    return JSON.stringify(maskPayload(view.parsed.value, places, (value) => secrets.add(value), looksLikeCardNumber));
  } catch (error) {
    if (error instanceof TooDeepToMask) return marker(view.text);
    throw error;
  }
}

/**
 * What a harmless header's value may look like to be kept: media types, codings, dates, lengths and
 * hosts, with no run of 5 digits (a card number) and no word of 24 characters (a token).
 */
const PLAIN_HEADER_VALUE = /^[A-Za-z0-9 ,;=.*/+_:()-]{0,200}$/;
const plainHeaderValue = (value: string) =>
  PLAIN_HEADER_VALUE.test(value) && !/[0-9]{5}/.test(value) && !/[A-Za-z0-9]{24}/.test(value);

/** A header as a recording keeps it: a harmless name's plain value in clear, any other value masked. */
export function redactHeader(name: string, value: string): { name: string; value: string } {
  const shownName = PLAIN_HEADER_NAME.test(name) ? name : marker(name);
  return {
    name: shownName,
    value: HARMLESS_HEADERS.has(name.toLowerCase()) && plainHeaderValue(value) ? value : marker(value),
  };
}

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** A query's pair as a recording keeps it: the value of a public parameter in clear, any other masked. */
function redactPair(pair: string, publicNames: ReadonlySet<string>): string {
  const eq = pair.indexOf('=');
  const rawName = eq < 0 ? pair : pair.slice(0, eq);
  const name = decoded(rawName);
  const shownName =
    name !== null && publicNames.has(name)
      ? rawName
      : name !== null && /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name)
        ? name
        : marker(rawName);
  if (eq < 0) return shownName;
  const rawValue = pair.slice(eq + 1);
  if (name !== null && publicNames.has(name) && !looksLikeCardNumber(decoded(rawValue) ?? rawValue))
    return `${rawName}=${rawValue}`;
  return `${shownName}=${encodeURIComponent(marker(decoded(rawValue) ?? rawValue))}`;
}

/**
 * A URL as a recording keeps it: the path of an operation with the values of its path parameters
 * that are not public masked, the query with the values of parameters that are not public masked.
 * `template` is the operation's path template (`null` for the webhook, whose path is configured).
 */
export function redactUrl(url: string, operationId: string | null, template: string | null): string {
  const q = url.indexOf('?');
  const base = q < 0 ? url : url.slice(0, q);
  const path =
    template === null || operationId === null
      ? base
      : redactPath(base, template, publicParameters(operationId, 'path'));
  if (q < 0) return path;
  const publicNames = operationId === null ? new Set<string>() : publicParameters(operationId, 'query');
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => (pair === '' ? pair : redactPair(pair, publicNames)))
    .join('&');
  return `${path}?${query}`;
}

function redactPath(base: string, template: string, publicNames: ReadonlySet<string>): string {
  const slashes = base.indexOf('//');
  const pathStart = base.indexOf('/', slashes < 0 ? 0 : slashes + 2);
  if (pathStart < 0) return base;
  const wanted = template.split('/');
  const segments = base.slice(pathStart).split('/');
  // Routing matched the template exactly; anything else is masked but for its slashes.
  if (segments.length !== wanted.length) return `${base.slice(0, pathStart)}${marker(base.slice(pathStart))}`;
  const shown = segments.map((segment, i) => {
    const want = wanted[i] as string;
    if (!(want.startsWith('{') && want.endsWith('}'))) return segment;
    const value = decoded(segment) ?? segment;
    return publicNames.has(want.slice(1, -1)) && !looksLikeCardNumber(value)
      ? segment
      : encodeURIComponent(marker(value));
  });
  return `${base.slice(0, pathStart)}${shown.join('/')}`;
}

// ---- The last scrub: known secrets in every spelling ----

const isHex = (code: number) => (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
const hexAt = (text: string, from: number, count: number) => {
  if (from + count > text.length) return false;
  for (let i = from; i < from + count; i++) if (!isHex(text.charCodeAt(i))) return false;
  return true;
};
const JSON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** `\u` escapes inside JSON escapes read through (JSON in JSON in JSON...): a bounded look-ahead keeps the scrub linear. */
const MAX_LAYERS = 8;

/** The unit of `text` at `i` that begins with `%`, `\\` or `"`: what it reads as, and its length. */
function unitAt(text: string, i: number): { char: string; length: number } {
  const c = text[i] as string;
  if (c === '"') return { char: '\uffff', length: 1 };
  if (c === '%')
    return hexAt(text, i + 1, 2)
      ? { char: String.fromCharCode(Number.parseInt(text.slice(i + 1, i + 3), 16)), length: 3 }
      : { char: c, length: 1 };
  // `\uXXXX` behind any number of backslashes (an escape inside JSON inside JSON), or a JSON escape.
  let at = i;
  for (let layers = 0; layers < MAX_LAYERS && text[at + 1] === '\\'; layers++) at++;
  const next = text[at + 1];
  if ((next === 'u' || next === 'U') && hexAt(text, at + 2, 4))
    return { char: String.fromCharCode(Number.parseInt(text.slice(at + 2, at + 6), 16)), length: at + 6 - i };
  const escaped = text[i + 1];
  if (escaped !== undefined && Object.hasOwn(JSON_ESCAPES, escaped))
    return { char: JSON_ESCAPES[escaped] as string, length: 2 };
  return { char: c, length: 1 };
}

/**
 * `text` read one unit at a time, each unit decoded once: `%XX` (either case) to its byte, `\uXXXX`
 * (either case) to its character, `\"`, `\\`, `\/` and the other JSON escapes to their character;
 * anything else as it is. A raw `"` reads as U+FFFF so that a match never spans two JSON strings.
 * `starts[i]` is where the i-th decoded unit begins in `text` (and `starts[decoded.length]` its end).
 */
function decodedView(text: string): { decoded: string; starts: Int32Array } {
  const starts = new Int32Array(text.length + 1);
  const parts: string[] = [];
  let units = 0;
  let run = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code !== 37 && code !== 92 && code !== 34) {
      starts[units++] = i++;
      continue;
    }
    if (i > run) parts.push(text.slice(run, i));
    const unit = unitAt(text, i);
    parts.push(unit.char);
    starts[units++] = i;
    i += unit.length;
    run = i;
  }
  if (text.length > run) parts.push(text.slice(run));
  starts[units] = text.length;
  return { decoded: parts.join(''), starts };
}

const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes);

/** The Base64 spellings of `bytes` that do not depend on what precedes or follows them (3 alignments, both alphabets). */
function base64Spellings(bytes: Uint8Array): string[] {
  const out: string[] = [];
  for (const offset of [0, 1, 2]) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const encoded = Buffer.from(padded).toString('base64');
    const first = offset === 0 ? 0 : offset === 1 ? 2 : 3;
    const last = Math.floor(((offset + bytes.length) * 8) / 6);
    const core = encoded.slice(first, last);
    if (core.length >= MIN_BASE64) out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/** Every spelling searched for in the decoded view: the text, its UTF-8 bytes one per unit (percent-encoded non-ASCII), its Base64 forms. */
function spellingsOf(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const spellings = [secret, ...base64Spellings(bytes)];
  if (bytes.length !== secret.length) spellings.push(latin1(bytes));
  return spellings;
}

/**
 * `text` with every spelling of every secret replaced by a marker of the same length: raw, percent
 * encoded (wholly or partly, either case), with JSON `\u` escapes (wholly or partly, either case),
 * and Base64 or Base64url at any alignment, with or without padding. Each secret is searched for
 * in one pass over one decoded copy of the text (linear in its length).
 */
export function scrubText(text: string, secrets: Iterable<string>): string {
  const needles = [...new Set([...secrets].flatMap(spellingsOf))];
  if (needles.length === 0) return text;
  const { decoded: view, starts } = decodedView(text);
  const spans: [number, number][] = [];
  for (const needle of needles) {
    for (let at = view.indexOf(needle); at >= 0; at = view.indexOf(needle, at + 1)) {
      spans.push([starts[at] ?? 0, starts[at + needle.length] ?? text.length]);
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let done = 0;
  for (const [from, to] of spans) {
    if (to <= done) continue;
    const start = Math.max(from, done);
    out += text.slice(done, start) + marker(text.slice(start, to));
    done = to;
  }
  return out + text.slice(done);
}

/** A report with every spelling of the secrets masked in its texts (its JSON read through the scrub, which never breaks a string). */
export function scrubReport(report: Report, secrets: Iterable<string>): Report {
  return JSON.parse(scrubText(JSON.stringify(report), secrets)) as Report;
}
