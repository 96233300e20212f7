// The card data of `encryptedCardData` (section 2.3): built, checked and encrypted with the
// merchant's RSA public key. The card never appears in an error, a log or a return value other
// than the ciphertext.
// On Web Crypto (RSA-OAEP) in any runtime; PKCS#1 v1.5, which Web Crypto does not offer, on
// node:crypto where the runtime has it (Node, Bun, Deno).
import type * as NodeCrypto from 'node:crypto';
import { type Bytes, toBase64, utf8Bytes, type WebCryptoKey, webCrypto } from '../encoding/bytes.js';
import { PublicKeyError, rsaSpkiOfPem } from './rsaPublicKey.js';

/** The card before encryption (section 2.3). */
export interface CardData {
  cardNumber: string;
  expiryMonth: string;
  expiryYear: string;
  securityCode: string;
}

/** One problem of the card data, never with a card value. */
export interface CardDataIssue {
  field: 'cardNumber' | 'expiryMonth' | 'expiryYear' | 'securityCode' | 'card';
  rule: string;
  /** What is wrong, never with a card value. */
  message: string;
}

export interface EncryptCardDataOptions {
  /** RSA padding; default `RSA_PKCS1_OAEP_PADDING` (the description does not say which the service uses). */
  padding?: 'RSA_PKCS1_OAEP_PADDING' | 'RSA_PKCS1_PADDING';
  /** OAEP hash: `sha1`, `sha256`, `sha384` or `sha512` (also spelled `SHA-256`, ...); default `sha256`. */
  oaepHash?: string;
  /** Clock for the expiry check; default now. */
  now?: Date;
}

/** The card data is not valid; `issues` lists every problem, without any card value. */
export class CardDataError extends Error {
  override readonly name = 'CardDataError' as const;
  readonly issues: CardDataIssue[];
  readonly field: CardDataIssue['field'];
  readonly rule: string;

  constructor(issues: [CardDataIssue, ...CardDataIssue[]]) {
    super(`The card data is not valid: ${issues.map((i) => i.message).join(' ')}`);
    this.issues = issues;
    this.field = issues[0].field;
    this.rule = issues[0].rule;
  }

  toJSON(): { name: 'CardDataError'; message: string; issues: CardDataIssue[] } {
    return { name: this.name, message: this.message, issues: this.issues };
  }
}

/** Luhn checksum of a string of digits. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Checks the card and returns the plaintext JSON of section 2.3, keys in the order of the
 * description. Throws a CardDataError listing every problem, without any card value.
 * `options.now` is the clock for the expiry check.
 */
export function buildCardPlaintext(card: CardData, { now = new Date() }: { now?: Date | undefined } = {}): string {
  const issues: CardDataIssue[] = [];
  // Read as untrusted: callers in JavaScript (and the sandbox, with decrypted input) pass anything.
  const c = (card ?? {}) as Partial<Record<keyof CardData, unknown>>;
  if (typeof card !== 'object' || card === null)
    throw new CardDataError([
      {
        field: 'card',
        rule: 'type',
        message: 'The card must be an object with cardNumber, expiryMonth, expiryYear and securityCode.',
      },
    ]);
  if (typeof c.cardNumber !== 'string' || !/^[0-9]{12,19}$/.test(c.cardNumber))
    issues.push({ field: 'cardNumber', rule: 'pattern', message: 'cardNumber must be 12 to 19 digits.' });
  else if (!passesLuhn(c.cardNumber))
    issues.push({ field: 'cardNumber', rule: 'luhn', message: 'cardNumber fails the Luhn check (a digit is wrong).' });
  const monthOk = typeof c.expiryMonth === 'string' && /^(0[1-9]|1[0-2])$/.test(c.expiryMonth);
  const yearOk = typeof c.expiryYear === 'string' && /^[0-9]{4}$/.test(c.expiryYear);
  if (!monthOk)
    issues.push({ field: 'expiryMonth', rule: 'pattern', message: 'expiryMonth must be two digits from 01 to 12.' });
  if (!yearOk) issues.push({ field: 'expiryYear', rule: 'pattern', message: 'expiryYear must be four digits (YYYY).' });
  if (monthOk && yearOk) {
    const expiry = Number(c.expiryYear) * 12 + Number(c.expiryMonth);
    const current = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
    if (expiry < current)
      issues.push({
        field: 'expiryYear',
        rule: 'expired',
        message: 'The card has expired (expiryMonth and expiryYear are in the past).',
      });
  }
  if (typeof c.securityCode !== 'string' || !/^[0-9]{3,4}$/.test(c.securityCode))
    issues.push({ field: 'securityCode', rule: 'pattern', message: 'securityCode must be 3 or 4 digits.' });
  for (const key of Object.keys(c)) {
    if (!['cardNumber', 'expiryMonth', 'expiryYear', 'securityCode'].includes(key))
      issues.push({
        field: 'card',
        rule: 'additionalProperties',
        message: 'The card holds a field other than cardNumber, expiryMonth, expiryYear and securityCode.',
      });
  }
  const [first, ...rest] = issues;
  if (first) throw new CardDataError([first, ...rest]);
  return JSON.stringify({
    cardNumber: c.cardNumber,
    expiryMonth: c.expiryMonth,
    expiryYear: c.expiryYear,
    securityCode: c.securityCode,
  });
}

const PADDINGS = new Set(['RSA_PKCS1_OAEP_PADDING', 'RSA_PKCS1_PADDING']);
/** The OAEP hashes, by their names without case or hyphen, as Web Crypto names them. */
const OAEP_HASHES = new Map([
  ['sha1', 'SHA-1'],
  ['sha256', 'SHA-256'],
  ['sha384', 'SHA-384'],
  ['sha512', 'SHA-512'],
]);

/** The SPKI of the merchant's RSA key, or a TypeError that says what is wrong (never the key). */
function spkiOf(publicKeyPem: string): Bytes {
  try {
    return rsaSpkiOfPem(publicKeyPem);
  } catch (error) {
    if (error instanceof PublicKeyError && error.problem === 'not-rsa')
      throw new TypeError('The public key must be an RSA key.');
    throw new TypeError('The public key is not a valid PEM-encoded key.');
  }
}

const TOO_SMALL = 'The card data could not be encrypted with this key (is the key large enough?).';

/** RSA-OAEP on Web Crypto. */
async function encryptOaep(spki: Bytes, hash: string, plaintext: Bytes): Promise<Uint8Array> {
  const { subtle } = webCrypto();
  let key: WebCryptoKey;
  try {
    key = await subtle.importKey('spki', spki, { name: 'RSA-OAEP', hash }, false, ['encrypt']);
  } catch {
    throw new TypeError('The public key is not a valid PEM-encoded key.');
  }
  try {
    return new Uint8Array(await subtle.encrypt({ name: 'RSA-OAEP' }, key, plaintext));
  } catch {
    throw new TypeError(TOO_SMALL);
  }
}

/** node:crypto where the runtime has it (Node 20.16 and later, Bun, Deno), without importing it. */
function runtimeNodeCrypto(): typeof NodeCrypto | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return process?.getBuiltinModule?.('node:crypto') as typeof NodeCrypto | undefined;
}

/** PKCS#1 v1.5 on node:crypto: Web Crypto has no RSA encryption with this padding. */
function encryptPkcs1(nodeCrypto: typeof NodeCrypto, spki: Uint8Array, plaintext: Uint8Array): Uint8Array {
  let key: NodeCrypto.KeyObject;
  try {
    key = nodeCrypto.createPublicKey(`-----BEGIN PUBLIC KEY-----\n${toBase64(spki)}\n-----END PUBLIC KEY-----\n`);
  } catch {
    throw new TypeError('The public key is not a valid PEM-encoded key.');
  }
  try {
    return nodeCrypto.publicEncrypt({ key, padding: nodeCrypto.constants.RSA_PKCS1_PADDING }, plaintext);
  } catch {
    throw new TypeError(TOO_SMALL);
  }
}

/**
 * Builds, checks and encrypts the card data for `encryptedCardData`, as one Base64 string, with the
 * merchant's RSA public key (PEM: a public key, SPKI or PKCS#1, or a certificate). The description
 * does not say which RSA padding the service uses: OAEP with SHA-256 is the default because it is
 * the safe choice, and it runs wherever Web Crypto does; PKCS#1 v1.5 is there for keys provisioned
 * that way, and needs a runtime with node:crypto (Node, Bun, Deno). Rejects with a CardDataError
 * listing the card's problems, a TypeError for a bad key or option, an Error for PKCS#1 v1.5
 * where the runtime has no node:crypto; never with a card value.
 */
export async function encryptCardData(
  card: CardData,
  publicKeyPem: string,
  { padding = 'RSA_PKCS1_OAEP_PADDING', oaepHash = 'sha256', now }: EncryptCardDataOptions = {},
): Promise<string> {
  if (!PADDINGS.has(padding)) throw new TypeError('padding must be RSA_PKCS1_OAEP_PADDING or RSA_PKCS1_PADDING.');
  const hash = typeof oaepHash === 'string' ? OAEP_HASHES.get(oaepHash.toLowerCase().replace('-', '')) : undefined;
  if (padding === 'RSA_PKCS1_OAEP_PADDING' && !hash)
    throw new TypeError('oaepHash must be sha1, sha256, sha384 or sha512.');
  const nodeCrypto = padding === 'RSA_PKCS1_PADDING' ? runtimeNodeCrypto() : undefined;
  if (padding === 'RSA_PKCS1_PADDING' && !nodeCrypto) {
    throw new Error(
      'PKCS#1 v1.5 encryption (padding RSA_PKCS1_PADDING) needs a runtime with node:crypto, such as Node, Bun or Deno: Web Crypto has no such padding. RSA-OAEP (the default padding) works everywhere.',
    );
  }
  const plaintext = utf8Bytes(buildCardPlaintext(card, { now }));
  const spki = spkiOf(publicKeyPem);
  const cipher = nodeCrypto
    ? encryptPkcs1(nodeCrypto, spki, plaintext)
    : await encryptOaep(spki, hash as string, plaintext);
  return toBase64(cipher);
}
