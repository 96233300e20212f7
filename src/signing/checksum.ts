// The service's published CHECKSUM scheme: SHA-256 of "text|salt", the salt appended, encrypted
// with AES-128-CBC under the merchant key and a fixed IV, Base64 (108 characters). Verification
// decrypts, takes the last four characters as the salt, recomputes and compares in constant time.
// On Web Crypto alone (crypto.subtle, crypto.getRandomValues), so it runs in any runtime; Web
// Crypto is asynchronous, so signing and verifying return promises. The sandbox, which signs each
// answer on its hot path, has a synchronous form on node:crypto (checksumNode.ts).
import {
  type Bytes,
  constantTimeEqual,
  fromBase64,
  toBase64,
  toHex,
  utf8Bytes,
  utf8Text,
  type WebCryptoKey,
  webCrypto,
} from '../encoding/bytes.js';

/** The fixed IV of the scheme. */
export const IV = utf8Bytes('@@@@&&&&####$$$$');
// 64 characters, so one random byte masked to 6 bits picks each one without bias.
const SALT_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@#';
export const SALT_LENGTH = 4;
/** The characters of a signature's plaintext: 64 hex characters of the digest and the salt. */
export const PLAIN_LENGTH = 64 + SALT_LENGTH;
/** Length of a CHECKSUM signature: 64 hex + 4 salt = 68 bytes, padded to 80, in Base64. */
export const SIGNATURE_LENGTH = 108 as const;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The merchant key's bytes; a TypeError (without the key) when it is not a 16-byte string. */
export function keyBytes(key: unknown): Bytes {
  if (typeof key !== 'string') throw new TypeError('The merchant key must be a string.');
  const bytes = utf8Bytes(key);
  if (bytes.length !== 16) throw new TypeError(`The merchant key must be 16 bytes for AES-128 (got ${bytes.length}).`);
  return bytes;
}

export function checkText(text: unknown): asserts text is string {
  if (typeof text !== 'string') throw new TypeError('The signed text must be a string.');
}

export function checkSalt(salt: unknown): asserts salt is string {
  if (typeof salt !== 'string' || salt.length !== SALT_LENGTH) throw new TypeError('The salt must be four characters.');
}

/**
 * The bytes of a signature of the right form, or undefined: 108 Base64 characters in the one
 * spelling of their bytes (the unused bits of the last character zero), so that a signature cannot
 * be sent again under another spelling of the same bytes.
 */
export function signatureBytes(signature: unknown): Bytes | undefined {
  if (typeof signature !== 'string' || signature.length !== SIGNATURE_LENGTH || !BASE64.test(signature))
    return undefined;
  const bytes = fromBase64(signature);
  return bytes && toBase64(bytes) === signature ? bytes : undefined;
}

/** Random bytes drawn a page at a time: one call to the system's generator serves 1 024 salts. */
const pool = new Uint8Array(4096);
let offset = pool.length;

/** Four characters of the salt alphabet, from the system's generator. */
export function randomSalt(): string {
  if (offset + SALT_LENGTH > pool.length) {
    globalThis.crypto.getRandomValues(pool);
    offset = 0;
  }
  let salt = '';
  for (let i = 0; i < SALT_LENGTH; i++) salt += SALT_ALPHABET[(pool[offset++] as number) & 63];
  return salt;
}

/** The UTF-8 bytes of the plaintext: hex SHA-256 of "text|salt", then the salt. */
async function saltedDigest(text: string, salt: string): Promise<Bytes> {
  const digest = await webCrypto().subtle.digest('SHA-256', utf8Bytes(`${text}|${salt}`));
  return utf8Bytes(`${toHex(new Uint8Array(digest))}${salt}`);
}

/** The merchant key as an AES-CBC key of Web Crypto. */
const importAesKey = (key: Bytes): Promise<WebCryptoKey> =>
  webCrypto().subtle.importKey('raw', key, 'AES-CBC', false, ['encrypt', 'decrypt']);

async function signWith(key: Promise<WebCryptoKey>, text: string, salt: string): Promise<string> {
  const plain = await saltedDigest(text, salt);
  return toBase64(new Uint8Array(await webCrypto().subtle.encrypt({ name: 'AES-CBC', iv: IV }, await key, plain)));
}

async function verifyWith(key: Promise<WebCryptoKey>, text: string, signature: unknown): Promise<boolean> {
  const bytes = signatureBytes(signature);
  if (!bytes) return false;
  const aes = await key;
  let plain: Uint8Array;
  try {
    plain = new Uint8Array(await webCrypto().subtle.decrypt({ name: 'AES-CBC', iv: IV }, aes, bytes));
  } catch {
    // Not PKCS#7-padded under this key: another key, or not a signature.
    return false;
  }
  const plainText = utf8Text(plain);
  if (plainText.length !== PLAIN_LENGTH) return false;
  return constantTimeEqual(plain, await saltedDigest(text, plainText.slice(-SALT_LENGTH)));
}

/**
 * Signs `text` with a given four-character salt. Exposed for known-answer tests; use
 * generateSignature. Rejects with a TypeError for a bad key, text or salt.
 */
export async function generateSignatureWithSalt(text: string, merchantKey: string, salt: string): Promise<string> {
  checkText(text);
  checkSalt(salt);
  return signWith(importAesKey(keyBytes(merchantKey)), text, salt);
}

/**
 * The CHECKSUM signature of `text` (the exact serialized body) under the 16-byte merchant key.
 * Rejects with a TypeError (without the key) for a key that is not 16 bytes, or a text that is
 * not a string.
 */
export async function generateSignature(text: string, merchantKey: string): Promise<string> {
  checkText(text);
  return signWith(importAesKey(keyBytes(merchantKey)), text, randomSalt());
}

/**
 * Whether `signature` is the CHECKSUM of `text` under the merchant key. Never rejects for a bad
 * signature (false); rejects with a TypeError only for a bad key or a non-string text.
 */
export async function verifySignature(text: string, merchantKey: string, signature: unknown): Promise<boolean> {
  checkText(text);
  return verifyWith(importAesKey(keyBytes(merchantKey)), text, signature);
}

/** Signs the exact serialized body of a request. Plug in any scheme the service accepts. */
export interface Signer {
  /** The head's `signatureType` for this scheme, for example `CHECKSUM`. */
  readonly signatureType: string;
  sign(bodyText: string): string | Promise<string>;
}

/** Verifies a signature over the exact raw body text of a notification. */
export interface Verifier {
  readonly signatureType: string;
  verify(bodyText: string, signature: string): boolean | Promise<boolean>;
}

/** The merchant key, checked now, imported into Web Crypto once, on first use. */
function cachedKey(merchantKey: string): () => Promise<WebCryptoKey> {
  const bytes = keyBytes(merchantKey);
  let key: Promise<WebCryptoKey> | undefined;
  // A failed import (no Web Crypto) is tried again on the next call.
  return () =>
    (key ??= importAesKey(bytes).catch((error: unknown) => {
      key = undefined;
      throw error;
    }));
}

/**
 * A signer for the typed client: signs the serialized body with the merchant key. Throws a
 * TypeError now for a key that is not a 16-byte string; `sign` resolves with the signature.
 */
export function createChecksumSigner(merchantKey: string): Signer {
  const key = cachedKey(merchantKey);
  return {
    signatureType: 'CHECKSUM',
    sign: async (bodyText) => {
      checkText(bodyText);
      return signWith(key(), bodyText, randomSalt());
    },
  };
}

/**
 * A verifier for the webhook handler: checks a signature over the raw body text. Throws a
 * TypeError now for a key that is not a 16-byte string; `verify` resolves with the verdict and
 * never rejects for a bad signature.
 */
export function createChecksumVerifier(merchantKey: string): Verifier {
  const key = cachedKey(merchantKey);
  return {
    signatureType: 'CHECKSUM',
    verify: async (bodyText, signature) => {
      checkText(bodyText);
      return verifyWith(key(), bodyText, signature);
    },
  };
}
