// How callers prove who they are (section 5): head signatures checked with the merchant's key, and
// transaction tokens that the sandbox issued for one order and that expire after 15 minutes.
import { verifySignature } from '../signing/checksum.js';

/**
 * Whether `signature` is the merchant's CHECKSUM over the body: the exact text of the envelope's
 * `body` member as received, never a re-serialization (DECISIONS.md, D-36).
 * @param {{ merchantKey: string }} config @param {{ rawBody?: string }} request @param {unknown} signature
 */
export function signatureMatches(config, request, signature) {
  if (typeof signature !== 'string') return false;
  const raw = request.rawBody;
  return raw !== undefined && verifySignature(raw, config.merchantKey, signature);
}

/**
 * A head's clientId selects the merchant key; the sandbox's merchant has one, under its clientId.
 * An absent clientId (where it is optional) means the only key.
 * @param {{ clientId: string }} config @param {unknown} clientId
 */
export function clientIdMatches(config, clientId) {
  return clientId === undefined || clientId === config.clientId;
}

/**
 * The order a transaction token was issued for, when the token is known and unexpired.
 * @param {import('./store.js').Store} store @param {unknown} token @param {number} now
 */
export function orderOfToken(store, token, now) {
  if (typeof token !== 'string') return undefined;
  const entry = store.txnTokens.get(token);
  if (!entry || entry.expiresAt <= now) return undefined;
  return entry;
}
