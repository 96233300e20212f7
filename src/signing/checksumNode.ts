// The CHECKSUM scheme of checksum.ts, synchronous, on node:crypto. It exists for the sandbox, which
// signs every answer (and checks every signed request) synchronously on its hot path: its
// throughput is a benchmark target (bench/sandbox.mjs), and Web Crypto's promises would cost each
// answer a turn of the event loop. Only Node-only modules import it; the package's signer and
// verifier are those of checksum.ts, which run in any runtime. Same constants, salt and checks as
// checksum.ts, so both give the same signature for a salt and verify each other's.
import { createCipheriv, createDecipheriv, createHash, timingSafeEqual } from 'node:crypto';
import {
  checkSalt,
  checkText,
  IV,
  keyBytes,
  PLAIN_LENGTH,
  randomSalt,
  SALT_LENGTH,
  signatureBytes,
} from './checksum.js';

const ivBuffer = Buffer.from(IV);

/** The plaintext: hex SHA-256 of "text|salt", then the salt. */
const saltedDigest = (text: string, salt: string): string =>
  `${createHash('sha256').update(`${text}|${salt}`, 'utf8').digest('hex')}${salt}`;

/** Signs `text` with a given four-character salt: generateSignatureWithSalt of checksum.ts, synchronously. */
export function generateSignatureWithSaltSync(text: string, merchantKey: string, salt: string): string {
  checkText(text);
  checkSalt(salt);
  const cipher = createCipheriv('aes-128-cbc', keyBytes(merchantKey), ivBuffer);
  return Buffer.concat([cipher.update(saltedDigest(text, salt), 'utf8'), cipher.final()]).toString('base64');
}

/** The CHECKSUM signature of `text` under the 16-byte merchant key: generateSignature of checksum.ts, synchronously. */
export function generateSignatureSync(text: string, merchantKey: string): string {
  return generateSignatureWithSaltSync(text, merchantKey, randomSalt());
}

/**
 * Whether `signature` is the CHECKSUM of `text` under the merchant key: verifySignature of
 * checksum.ts, synchronously. Never throws for a bad signature (false); throws a TypeError only
 * for a bad key or a non-string text.
 */
export function verifySignatureSync(text: string, merchantKey: string, signature: unknown): boolean {
  checkText(text);
  const key = keyBytes(merchantKey);
  const bytes = signatureBytes(signature);
  if (!bytes) return false;
  let plain: Buffer;
  try {
    const decipher = createDecipheriv('aes-128-cbc', key, ivBuffer);
    plain = Buffer.concat([decipher.update(bytes), decipher.final()]);
  } catch {
    return false;
  }
  const plainText = plain.toString('utf8');
  if (plainText.length !== PLAIN_LENGTH) return false;
  const expected = Buffer.from(saltedDigest(text, plainText.slice(-SALT_LENGTH)), 'utf8');
  return expected.length === plain.length && timingSafeEqual(plain, expected);
}
