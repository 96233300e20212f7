// The card data of `encryptedCardData` (section 2.3): built, checked and encrypted with the
// merchant's RSA public key. The card never appears in an error, a log or a return value other
// than the ciphertext.
import type { KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';

// node:crypto is loaded the first time it is needed, not with the package (it costs a few
// milliseconds of every start).
let crypto: typeof import('node:crypto') | undefined;
const nodeCrypto = (): typeof import('node:crypto') => (crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'));

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
  /** OAEP hash; default `sha256`. */
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
      { field: 'card', rule: 'type', message: 'The card must be an object with cardNumber, expiryMonth, expiryYear and securityCode.' },
    ]);
  if (typeof c.cardNumber !== 'string' || !/^[0-9]{12,19}$/.test(c.cardNumber))
    issues.push({ field: 'cardNumber', rule: 'pattern', message: 'cardNumber must be 12 to 19 digits.' });
  else if (!passesLuhn(c.cardNumber)) issues.push({ field: 'cardNumber', rule: 'luhn', message: 'cardNumber fails the Luhn check (a digit is wrong).' });
  const monthOk = typeof c.expiryMonth === 'string' && /^(0[1-9]|1[0-2])$/.test(c.expiryMonth);
  const yearOk = typeof c.expiryYear === 'string' && /^[0-9]{4}$/.test(c.expiryYear);
  if (!monthOk) issues.push({ field: 'expiryMonth', rule: 'pattern', message: 'expiryMonth must be two digits from 01 to 12.' });
  if (!yearOk) issues.push({ field: 'expiryYear', rule: 'pattern', message: 'expiryYear must be four digits (YYYY).' });
  if (monthOk && yearOk) {
    const expiry = Number(c.expiryYear) * 12 + Number(c.expiryMonth);
    const current = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
    if (expiry < current) issues.push({ field: 'expiryYear', rule: 'expired', message: 'The card has expired (expiryMonth and expiryYear are in the past).' });
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
  return JSON.stringify({ cardNumber: c.cardNumber, expiryMonth: c.expiryMonth, expiryYear: c.expiryYear, securityCode: c.securityCode });
}

const PADDINGS = {
  RSA_PKCS1_OAEP_PADDING: () => nodeCrypto().constants.RSA_PKCS1_OAEP_PADDING,
  RSA_PKCS1_PADDING: () => nodeCrypto().constants.RSA_PKCS1_PADDING,
} as const;

/**
 * Builds, checks and encrypts the card data for `encryptedCardData`, as one Base64 string, with the
 * merchant's RSA public key (PEM). The description does not say which RSA padding the service
 * uses: OAEP with SHA-256 is the default because it is the safe choice; PKCS#1 v1.5 is there for
 * keys provisioned that way.
 */
export function encryptCardData(
  card: CardData,
  publicKeyPem: string,
  { padding = 'RSA_PKCS1_OAEP_PADDING', oaepHash = 'sha256', now }: EncryptCardDataOptions = {},
): string {
  if (!(padding in PADDINGS)) throw new TypeError('padding must be RSA_PKCS1_OAEP_PADDING or RSA_PKCS1_PADDING.');
  const plaintext = buildCardPlaintext(card, { now });
  let key: KeyObject;
  try {
    key = nodeCrypto().createPublicKey(publicKeyPem);
  } catch {
    throw new TypeError('The public key is not a valid PEM-encoded key.');
  }
  if (key.asymmetricKeyType !== 'rsa') throw new TypeError('The public key must be an RSA key.');
  try {
    return nodeCrypto()
      .publicEncrypt({ key, padding: PADDINGS[padding](), ...(padding === 'RSA_PKCS1_OAEP_PADDING' ? { oaepHash } : {}) }, Buffer.from(plaintext, 'utf8'))
      .toString('base64');
  } catch {
    throw new TypeError('The card data could not be encrypted with this key (is the key large enough?).');
  }
}
