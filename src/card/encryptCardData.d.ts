/** The card before encryption (section 2.3). */
export interface CardData {
  cardNumber: string;
  expiryMonth: string;
  expiryYear: string;
  securityCode: string;
}

export interface CardDataIssue {
  field: 'cardNumber' | 'expiryMonth' | 'expiryYear' | 'securityCode' | 'card';
  rule: string;
  /** What is wrong, never with a card value. */
  message: string;
}

/** The card data is not valid; `issues` lists every problem, without any card value. */
export declare class CardDataError extends Error {
  readonly name: 'CardDataError';
  readonly issues: CardDataIssue[];
  readonly field: CardDataIssue['field'];
  readonly rule: string;
}

export interface EncryptCardDataOptions {
  /** RSA padding; default `RSA_PKCS1_OAEP_PADDING` (the description does not say which the service uses). */
  padding?: 'RSA_PKCS1_OAEP_PADDING' | 'RSA_PKCS1_PADDING';
  /** OAEP hash; default `sha256`. */
  oaepHash?: string;
  /** Clock for the expiry check; default now. */
  now?: Date;
}

/** Luhn checksum of a string of digits. */
export declare function passesLuhn(digits: string): boolean;
/** Checks the card and returns the plaintext JSON of section 2.3. Throws a CardDataError. */
export declare function buildCardPlaintext(card: CardData, options?: { now?: Date }): string;
/** Builds, checks and encrypts the card with the merchant's RSA public key (PEM); Base64. */
export declare function encryptCardData(card: CardData, publicKeyPem: string, options?: EncryptCardDataOptions): string;
