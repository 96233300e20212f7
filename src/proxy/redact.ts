// What the proxy's recording may keep: every sensitive value of an exchange replaced by a marker
// (docs/decisions.md, D-88). Sensitive are the fields the contract marks `x-sensitive` (card number, CVV,
// MPIN, encrypted card data, card and transaction tokens, the SSO token, signatures, checksumHash),
// the merchant key, and headers that carry credentials. Values are replaced where they are found by
// their field (JSON members, query parameters, headers), and then wherever the same text appears
// again in the exchange (a token echoed in a URL, a signature quoted in an error page).

/** The fields whose values never reach a recording (the contract's `x-sensitive` fields), compared in lower case. */
export const SENSITIVE_FIELDS: ReadonlySet<string> = new Set(
  [
    'cardNumber',
    'securityCode',
    'cvv',
    'mpin',
    'cardUniqueId',
    'cardToken',
    'TAVV',
    'encryptedCardData',
    'token',
    'txnToken',
    'svcSsoToken',
    'ssoToken',
    'signature',
    'checksumHash',
    'CHECKSUMHASH',
    'merchantKey',
    'key',
  ].map((f) => f.toLowerCase()),
);

/** Headers whose values are credentials or may hold one. */
const SENSITIVE_HEADER = /authorization|cookie|token|signature|checksum|secret|key|session|password|sso/i;

const FILLER = 'REDACTED';

/**
 * The marker of a value: the same length (the length class is the exact length, so that every
 * length rule judges the marker as it judged the value), digits for a value of digits alone
 * (zeros: a card number stays a number that passes Luhn), else `REDACTED` repeated.
 */
export function marker(value: string): string {
  if (/^[0-9]+$/.test(value)) return '0'.repeat(value.length);
  return FILLER.repeat(Math.ceil(value.length / FILLER.length)).slice(0, value.length);
}

export const isSensitiveField = (name: string): boolean => SENSITIVE_FIELDS.has(name.toLowerCase());

/** The secrets of one exchange: values found under sensitive fields, and the key. */
export class Secrets {
  private readonly values = new Set<string>();
  constructor(key?: string) {
    if (key) this.values.add(key);
  }
  add(value: string): void {
    // Text shorter than 3 characters cannot be told from other text; its field's marker replaces it in place.
    if (value.length >= 3 && this.values.size < 1_000) this.values.add(value);
  }
  /** Every occurrence of a known secret in `text` replaced by its marker (longest first: a token holding a shorter one). */
  scrub(text: string): string {
    let out = text;
    for (const value of [...this.values].sort((a, b) => b.length - a.length)) {
      if (out.includes(value)) out = out.split(value).join(marker(value));
      const encoded = encodeURIComponent(value);
      if (encoded !== value && out.includes(encoded)) out = out.split(encoded).join(marker(value));
    }
    return out;
  }
}

/** A copy of a parsed JSON value with the values of sensitive fields replaced, their originals added to `secrets`. */
function redactValue(value: unknown, secrets: Secrets, depth: number): unknown {
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
    if (isSensitiveField(name) && (typeof member === 'string' || typeof member === 'number')) {
      const text = String(member);
      secrets.add(text);
      Object.defineProperty(out, name, {
        value: typeof member === 'number' ? Number(marker(text)) || 0 : marker(text),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      Object.defineProperty(out, name, { value: redactValue(member, secrets, depth + 1), enumerable: true, writable: true, configurable: true });
    }
  }
  return out;
}

/** Collects the values of sensitive fields of a parsed JSON value (before anything of the exchange is written). */
export function collectSecrets(value: unknown, secrets: Secrets): void {
  redactValue(value, secrets, 0);
}

/** The members `"field": "value"` of sensitive fields in text that is not JSON, or JSON that could not be parsed. */
const MEMBER = /"((?:[^"\\]|\\.){1,40})"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;

/**
 * The text of a body as a recording keeps it: JSON re-serialized from the redacted value (so no
 * escaped spelling of a key or value slips through), other text with sensitive members replaced;
 * then every known secret replaced wherever it appears.
 */
export function redactBodyText(text: string, parsed: { ok: true; value: unknown } | { ok: false }, secrets: Secrets): string {
  if (parsed.ok) return secrets.scrub(JSON.stringify(redactValue(parsed.value, secrets, 0)));
  const members = text.replace(MEMBER, (all, key: string, colon: string, value: string) => {
    let name = key;
    try {
      name = JSON.parse(`"${key}"`) as string;
    } catch {
      // a key that is not a JSON string stays as it is
    }
    if (!isSensitiveField(name)) return all;
    secrets.add(value);
    return `"${key}"${colon}"${marker(value)}"`;
  });
  return secrets.scrub(members);
}

/** A URL with the values of sensitive query parameters replaced, then every known secret. */
export function redactUrl(url: string, secrets: Secrets): string {
  const q = url.indexOf('?');
  if (q < 0) return secrets.scrub(url);
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // undecodable names stay as they are
      }
      if (!isSensitiveField(name)) return pair;
      const value = pair.slice(eq + 1);
      secrets.add(value);
      return `${pair.slice(0, eq)}=${marker(value)}`;
    })
    .join('&');
  return secrets.scrub(`${url.slice(0, q)}?${query}`);
}

/** A header's value as a recording keeps it. */
export function redactHeader(name: string, value: string, secrets: Secrets): string {
  if (SENSITIVE_HEADER.test(name) || isSensitiveField(name)) return marker(value);
  return secrets.scrub(value);
}
