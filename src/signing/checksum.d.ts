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

/** Length of a CHECKSUM signature (108). */
export declare const SIGNATURE_LENGTH: 108;
/** The CHECKSUM signature of `text` (the exact serialized body) under the 16-byte merchant key. */
export declare function generateSignature(text: string, merchantKey: string): string;
/** Signs with a given four-character salt (for known-answer tests). */
export declare function generateSignatureWithSalt(text: string, merchantKey: string, salt: string): string;
/** Whether `signature` is the CHECKSUM of `text`; false for any malformed signature, in constant time. */
export declare function verifySignature(text: string, merchantKey: string, signature: unknown): boolean;
/** Equality of two strings in time that depends only on their lengths. */
export declare function constantTimeEqual(a: string, b: string): boolean;
export declare function createChecksumSigner(merchantKey: string): Signer;
export declare function createChecksumVerifier(merchantKey: string): Verifier;
