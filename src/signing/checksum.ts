// The service's published CHECKSUM scheme: SHA-256 of "text|salt", the salt appended, encrypted
// with AES-128-CBC under the merchant key and a fixed IV, Base64 (108 characters). Verification
// decrypts, takes the last four characters as the salt, recomputes and compares in constant time.
import { createRequire } from 'node:module';

// node:crypto is loaded the first time it is needed, not with the package (it costs a few
// milliseconds of every start).
let crypto: typeof import('node:crypto') | undefined;
const nodeCrypto = (): typeof import('node:crypto') => (crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'));

const IV = Buffer.from('@@@@&&&&####$$$$', 'utf8');
// 64 characters, so one random byte masked to 6 bits picks each one without bias.
const SALT_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@#';
const SALT_LENGTH = 4;
/** Length of a CHECKSUM signature: 64 hex + 4 salt = 68 bytes, padded to 80, in Base64. */
export const SIGNATURE_LENGTH = 108 as const;

function keyBytes(key: unknown): Buffer {
  if (typeof key !== 'string') throw new TypeError('The merchant key must be a string.');
  const bytes = Buffer.from(key, 'utf8');
  if (bytes.length !== 16) throw new TypeError(`The merchant key must be 16 bytes for AES-128 (got ${bytes.length}).`);
  return bytes;
}

/** Random bytes drawn a page at a time: one call to the system's generator serves 1 024 salts. */
let pool = Buffer.alloc(0);
let offset = 0;

function randomSalt() {
  if (offset + SALT_LENGTH > pool.length) {
    pool = nodeCrypto().randomBytes(4096);
    offset = 0;
  }
  let salt = '';
  for (let i = 0; i < SALT_LENGTH; i++) salt += SALT_ALPHABET[(pool[offset++] as number) & 63];
  return salt;
}

function saltedDigest(text: string, salt: string): string {
  return `${nodeCrypto().createHash('sha256').update(`${text}|${salt}`, 'utf8').digest('hex')}${salt}`;
}

/** Signs `text` with a given four-character salt. Exposed for known-answer tests; use generateSignature. */
export function generateSignatureWithSalt(text: string, merchantKey: string, salt: string): string {
  if (typeof text !== 'string') throw new TypeError('The signed text must be a string.');
  if (typeof salt !== 'string' || salt.length !== SALT_LENGTH) throw new TypeError('The salt must be four characters.');
  const cipher = nodeCrypto().createCipheriv('aes-128-cbc', keyBytes(merchantKey), IV);
  return Buffer.concat([cipher.update(saltedDigest(text, salt), 'utf8'), cipher.final()]).toString('base64');
}

/** The CHECKSUM signature of `text` (the exact serialized body) under the 16-byte merchant key. */
export function generateSignature(text: string, merchantKey: string): string {
  return generateSignatureWithSalt(text, merchantKey, randomSalt());
}

/** Equality of two strings in time that depends only on their lengths. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && nodeCrypto().timingSafeEqual(x, y);
}

/**
 * Whether `signature` is the CHECKSUM of `text` under the merchant key. Never throws for a bad
 * signature (false); throws a TypeError only for a bad key or a non-string text.
 */
export function verifySignature(text: string, merchantKey: string, signature: unknown): boolean {
  if (typeof text !== 'string') throw new TypeError('The signed text must be a string.');
  const key = keyBytes(merchantKey);
  if (typeof signature !== 'string' || signature.length !== SIGNATURE_LENGTH || !/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
  const bytes = Buffer.from(signature, 'base64');
  // One spelling per signature: the unused bits of the last Base64 character must be zero, so a
  // signature cannot be sent again under another spelling of the same bytes.
  if (bytes.toString('base64') !== signature) return false;
  let plain: string;
  try {
    const decipher = nodeCrypto().createDecipheriv('aes-128-cbc', key, IV);
    plain = Buffer.concat([decipher.update(bytes), decipher.final()]).toString('utf8');
  } catch {
    return false;
  }
  if (plain.length !== 64 + SALT_LENGTH) return false;
  return constantTimeEqual(plain, saltedDigest(text, plain.slice(-SALT_LENGTH)));
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

/** A signer for the typed client: signs the serialized body with the merchant key. */
export function createChecksumSigner(merchantKey: string): Signer {
  keyBytes(merchantKey);
  return { signatureType: 'CHECKSUM', sign: (bodyText) => generateSignature(bodyText, merchantKey) };
}

/** A verifier for the webhook handler: checks a signature over the raw body text. */
export function createChecksumVerifier(merchantKey: string): Verifier {
  keyBytes(merchantKey);
  return { signatureType: 'CHECKSUM', verify: (bodyText, signature) => verifySignature(bodyText, merchantKey, signature) };
}
