// checksumHash of a pay answer's txnInfo (section 2.12): "a checksum over the txnInfo values",
// algorithm not shown. The merchant's CHECKSUM signer signs the values of every other txnInfo
// field taken in the order of their keys (UTF-16 code-unit order, so upper case first) and joined
// with "|"; null is the empty string (docs/decisions.md, D-41, records this and how it meets the
// service's published checksum utility). The sandbox adds it to its answers (sandbox/txnChecksum.ts).
import { verifySignature } from './checksum.js';

/** The keys that hold the checksum itself, left out of the text it signs (the published utility's spelling too). */
const CHECKSUM_KEYS = new Set(['checksumHash', 'CHECKSUMHASH']);

/**
 * The text txnInfo.checksumHash signs: every other field's value, keys in UTF-16 code-unit order
 * (Array.prototype.sort's, as the published utility's sorted map), joined with "|"; null, and the
 * text "null" in any case, as "" (as the service's published checksum utility reads a map). Takes
 * the txnInfo object as received, checksumHash included.
 */
export function txnInfoChecksumText(txnInfo: Record<string, unknown>): string {
  const keys = Object.keys(txnInfo).sort();
  let text = '';
  let first = true;
  for (const k of keys) {
    if (CHECKSUM_KEYS.has(k)) continue;
    const v = txnInfo[k];
    text += `${first ? '' : '|'}${v === null || v === undefined || (typeof v === 'string' && v.toLowerCase() === 'null') ? '' : String(v)}`;
    first = false;
  }
  return text;
}

/**
 * Whether txnInfo.checksumHash is the merchant-key CHECKSUM of the other txnInfo values; takes
 * txnInfo as received. Resolves false for anything that does not verify; rejects with a TypeError
 * only for a merchant key that is not 16 bytes.
 */
export async function verifyTxnInfoChecksum(txnInfo: Record<string, unknown>, merchantKey: string): Promise<boolean> {
  // Callers in JavaScript may pass anything.
  if (!txnInfo || typeof txnInfo !== 'object') return false;
  return verifySignature(txnInfoChecksumText(txnInfo), merchantKey, txnInfo.checksumHash);
}
