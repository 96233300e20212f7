// Bytes on Web APIs alone, for the modules that run in any runtime (Node, Bun, Deno, workerd,
// edge runtimes, browsers): UTF-8 through TextEncoder and TextDecoder, Base64 and hex of our own
// over Uint8Array (no Buffer; atob and btoa work on binary strings), concatenation, a comparison in
// constant time, and the runtime's Web Crypto.

/** Bytes in memory of their own (an ArrayBuffer, never shared), as Web Crypto takes them. */
export type Bytes = Uint8Array<ArrayBuffer>;

const encoder = new TextEncoder();
// A byte order mark is kept as a character, as Buffer's toString('utf8') keeps it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The UTF-8 bytes of a text (a lone surrogate becomes U+FFFD, as with Buffer). */
export const utf8Bytes = (text: string): Bytes => encoder.encode(text);

/** The text of UTF-8 bytes; a malformed sequence becomes U+FFFD. */
export const utf8Text = (bytes: Uint8Array): string => decoder.decode(bytes);

/**
 * A text by its UTF-8 bytes, a lone surrogate written as the three bytes of its own code (WTF-8)
 * where UTF-8 would put U+FFFD: "\ud800", "\udfff" and "\ufffd" are three ids, three keys
 * (the receiver's replay keys, docs/decisions.md D-114). A well-formed text gives its UTF-8 bytes.
 */
export function wtf8Bytes(text: string): Bytes {
  const bytes: number[] = [];
  for (const character of text) {
    const c = character.codePointAt(0) as number;
    if (c < 0x80) bytes.push(c);
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return new Uint8Array(bytes);
}

/** How many bytes the UTF-8 form of a text has, without encoding it (Buffer.byteLength's count). */
export function utf8Length(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) length += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two UTF-16 units, four bytes.
      length += 2;
      i++;
    } else length += 2;
  }
  return length;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Character code -> its 6 bits, -1 for a character outside the alphabet. */
const SEXTETS = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) SEXTETS[ALPHABET.charCodeAt(i)] = i;

/** Base64 (RFC 4648, section 4, with padding) of bytes. */
export function toBase64(bytes: Uint8Array): string {
  const a = ALPHABET;
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out += `${a[n >> 18]}${a[(n >> 12) & 63]}${a[(n >> 6) & 63]}${a[n & 63]}`;
  }
  if (i + 1 === bytes.length) {
    const n = (bytes[i] as number) << 16;
    out += `${a[n >> 18]}${a[(n >> 12) & 63]}==`;
  } else if (i + 2 === bytes.length) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8);
    out += `${a[n >> 18]}${a[(n >> 12) & 63]}${a[(n >> 6) & 63]}=`;
  }
  return out;
}

/**
 * The bytes a Base64 text stands for, or undefined when it holds a character outside the alphabet
 * (trailing `=` aside). Read as Buffer.from(text, 'base64') reads such a text: the padding may be
 * missing, and the unused bits of the last character are dropped, so several spellings give the
 * same bytes. Where one spelling is wanted, compare toBase64 of the result with the text.
 */
export function fromBase64(text: string): Bytes | undefined {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  const out = new Uint8Array(Math.floor((end * 6) / 8));
  let bits = 0;
  let buffer = 0;
  let j = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const sextet = c < 128 ? (SEXTETS[c] as number) : -1;
    if (sextet < 0) return undefined;
    buffer = ((buffer << 6) | sextet) & 0xfff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (buffer >> bits) & 0xff;
    }
  }
  return out;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Lower-case hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  // One join, not a chain of `+`: the text is one flat string, not a rope of a node per byte that a
  // caller keeping it (the replay store's owners) would keep too.
  return Array.from(bytes, (byte) => HEX[byte] as string).join('');
}

/** One array of the chunks' bytes, in order. */
export function concatBytes(chunks: readonly Uint8Array[]): Bytes {
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Whether two byte arrays are equal, in time that depends only on their lengths: every byte is
 * compared (XOR, accumulated), whatever the first difference.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

/** The runtime's Web Crypto, typed by the DOM's declarations or by Node's, whichever the program has. */
export type WebCrypto = typeof globalThis.crypto;
/** A key of Web Crypto (CryptoKey). */
export type WebCryptoKey = Awaited<ReturnType<WebCrypto['subtle']['importKey']>>;

/** The runtime's Web Crypto (`globalThis.crypto`), with an error that says what is missing. */
export function webCrypto(): WebCrypto {
  const crypto = globalThis.crypto;
  if (!crypto?.subtle) {
    throw new Error(
      'This needs the Web Crypto API (globalThis.crypto.subtle): Node 20 or later, Bun, Deno, workerd, edge runtimes, and browsers on a secure (https) page have it.',
    );
  }
  return crypto;
}
