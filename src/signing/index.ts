// `gateway-contract/signing`: the service's CHECKSUM signature of a body and of txnInfo, on the
// runtime's Web Crypto (SubtleCrypto). Web-standard.
export type { Signer, Verifier } from './checksum.js';
export {
  createChecksumSigner,
  createChecksumVerifier,
  generateSignature,
  SIGNATURE_LENGTH,
  verifySignature,
} from './checksum.js';
export { txnInfoChecksumText, verifyTxnInfoChecksum } from './txnInfoChecksum.js';
