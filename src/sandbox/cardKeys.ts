// The RSA key pair that encryptedCardData is encrypted for (section 5, rule 4: the key is not
// shown). The sandbox generates one per process, or loads the merchant's PEM, and publishes the
// public half through /sandbox/card-encryption-key so callers encrypt with encryptCardData().
import {
  constants,
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  type KeyObject,
  privateDecrypt,
} from 'node:crypto';
import { promisify } from 'node:util';

export interface CardKeyPair {
  privateKey: KeyObject;
  publicKeyPem: string;
}

let generated: Promise<CardKeyPair> | undefined;

/** @param privateKeyPem an RSA private key (PEM); generated (2048 bits) when absent */
export async function cardKeyPair(privateKeyPem?: string): Promise<CardKeyPair> {
  if (privateKeyPem !== undefined) {
    let privateKey: KeyObject;
    try {
      privateKey = createPrivateKey(privateKeyPem);
    } catch {
      throw new TypeError('The card encryption key is not a valid PEM private key.');
    }
    if (privateKey.asymmetricKeyType !== 'rsa') throw new TypeError('The card encryption key must be an RSA key.');
    return { privateKey, publicKeyPem: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString() };
  }
  // One key for every sandbox of the process: generating takes a noticeable moment.
  generated ??= promisify(generateKeyPair)('rsa', { modulusLength: 2048 }).then(({ privateKey, publicKey }) => ({
    privateKey,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  }));
  return generated;
}

/** The paddings tried, in order: OAEP with SHA-256 (encryptCardData's default), then with SHA-1. */
const PADDINGS = [
  { padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
  { padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
];

/**
 * The plaintext of encryptedCardData, or undefined when it does not decrypt with this key.
 * @param encrypted Base64
 */
export function decryptCardData(privateKey: KeyObject, encrypted: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encrypted)) return undefined;
  const bytes = Buffer.from(encrypted, 'base64');
  for (const p of PADDINGS) {
    try {
      return privateDecrypt({ key: privateKey, ...p }, bytes).toString('utf8');
    } catch {
      // the next padding
    }
  }
  return undefined;
}
