// The heads of each operation family (section 4), built for the caller: timestamps in the form of
// the family, request ids, versions, signature type and transaction tokens. The caller's own head
// fields win.
import { randomUUID } from 'node:crypto';

/** @typedef {{ now: () => number, requestId: () => string, clientId?: string, version?: string, channelId?: string, encryptionKeyVersion?: string }} HeadDefaults */

const epochMs = (/** @type {number} */ t) => String(Math.trunc(t));
const epochSeconds = (/** @type {number} */ t) => String(Math.trunc(t / 1000));

export const defaultRequestId = () => randomUUID();

/**
 * Drops undefined values so optional head fields are absent rather than null.
 * @template {Record<string, unknown>} T @param {T} head @returns {T}
 */
function defined(head) {
  return /** @type {T} */ (Object.fromEntries(Object.entries(head).filter(([, v]) => v !== undefined)));
}

/** Token-service head (tokenize; the webhook uses the same): version v1, epoch ms, signature type. */
export function tokenServiceHead(/** @type {HeadDefaults} */ d, /** @type {{ requestId: string, signatureType: string }} */ call) {
  return defined({ version: 'v1', requestTimestamp: epochMs(d.now()), requestId: call.requestId, signatureType: call.signatureType, clientId: d.clientId, encryptionKeyVersion: d.encryptionKeyVersion });
}

/** Pre-auth head: Unix time in seconds, clientId (mandatory), application version when given. */
export function preAuthHead(/** @type {HeadDefaults} */ d) {
  return defined({ version: d.version, channelId: d.channelId, requestTimestamp: epochSeconds(d.now()), clientId: d.clientId });
}

/** List subscriptions head: tokenType AES with the SSO token; lengths of section 8. */
export function listSubscriptionsHead(/** @type {HeadDefaults} */ d, /** @type {{ token: string }} */ call) {
  return defined({ clientId: d.clientId, version: d.version, requestTimestamp: epochSeconds(d.now()), tokenType: 'AES', token: call.token });
}

/** Pay and modify order head: the order's transaction token with tokenType TXN_TOKEN. */
export function txnTokenHead(/** @type {HeadDefaults} */ d, /** @type {{ txnToken: string, withVersion: boolean }} */ call) {
  const channelId = d.channelId === 'SYSTEM' ? undefined : d.channelId;
  return defined({ requestTimeStamp: epochMs(d.now()), channelId, tokenType: 'TXN_TOKEN', token: call.txnToken, version: call.withVersion ? 'v1' : undefined });
}

/** Create subscription head: epoch ms and the signature (added by the caller of this function). */
export function createSubscriptionHead(/** @type {HeadDefaults} */ d) {
  const channelId = d.channelId === 'WEB' || d.channelId === 'WAP' ? d.channelId : undefined;
  return defined({ requestTimeStamp: epochMs(d.now()), channelId });
}
