// The sandbox's txnInfo.checksumHash (section 2.12; signing/txnInfoChecksum.ts has the text it
// signs and its check): added to every pay answer, so signed synchronously (checksumNode.ts).
import { generateSignatureSync } from '../signing/checksumNode.js';
import { txnInfoChecksumText } from '../signing/txnInfoChecksum.js';

/** Adds its checksumHash to txnInfo (in place) and returns it. */
export function withChecksumHash<T extends Record<string, unknown>>(
  txnInfo: T,
  merchantKey: string,
): T & { checksumHash: string } {
  return Object.assign(txnInfo, { checksumHash: generateSignatureSync(txnInfoChecksumText(txnInfo), merchantKey) });
}
