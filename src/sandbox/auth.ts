// How callers prove who they are (section 5): head signatures checked with the merchant's key, and
// transaction tokens that the sandbox issued for one order and that expire after 15 minutes.
import { verifySignatureSync } from '../signing/checksumNode.js';
import type { IssuedTxnToken } from './records.js';
import type { Store } from './store.js';

/**
 * Whether `signature` is the merchant's CHECKSUM over the body: the exact text of the envelope's
 * `body` member as received, never a re-serialization (docs/decisions.md, D-36).
 */
export function signatureMatches(
  config: { readonly merchantKey: string },
  request: { readonly rawBody: string | undefined },
  signature: unknown,
): boolean {
  if (typeof signature !== 'string') return false;
  const raw = request.rawBody;
  return raw !== undefined && verifySignatureSync(raw, config.merchantKey, signature);
}

/**
 * A head's clientId selects the merchant key; the sandbox's merchant has one, under its clientId.
 * An absent clientId (where it is optional) means the only key.
 */
export function clientIdMatches(config: { readonly clientId: string }, clientId: unknown): boolean {
  return clientId === undefined || clientId === config.clientId;
}

/** The order a transaction token was issued for, when the token is known and unexpired. */
export function orderOfToken(store: Store, token: unknown, now: number): IssuedTxnToken | undefined {
  if (typeof token !== 'string') return undefined;
  const entry = store.txnTokens.get(token);
  if (!entry || entry.expiresAt <= now) return undefined;
  return entry;
}
