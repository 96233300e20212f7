// The heads of each operation family (section 4), built for the caller: timestamps in the form of
// the family, request ids, versions, signature type and transaction tokens. The caller's own head
// fields win. Which family an operation belongs to is its head schema in the operation index.
import type { OperationInfo } from '../../generated/operations.js';

/** What the heads are built from: the client's settings and this call's values. */
export interface HeadInput {
  now: () => number;
  clientId?: string | undefined;
  /** Pre-auth and list subscriptions: the application version. */
  version?: string | undefined;
  channelId?: string | undefined;
  encryptionKeyVersion?: string | undefined;
  /** Token service: the request id (also in the query). */
  requestId?: string | undefined;
  /** Token service: the signer's scheme. */
  signatureType?: string | undefined;
  /** Pay, modify order, list subscriptions: the head `token`. */
  token?: string | undefined;
}

export type Head = Record<string, unknown>;
type HeadSchema = OperationInfo['head']['schema'];

const epochMs = (t: number) => String(Math.trunc(t));
const epochSeconds = (t: number) => String(Math.trunc(t / 1000));

/** A random UUID (version 4) from the runtime's Web Crypto. */
export const defaultRequestId = (): string => globalThis.crypto.randomUUID();

/** Drops undefined values so optional head fields are absent rather than null. */
function defined(head: Head): Head {
  return Object.fromEntries(Object.entries(head).filter(([, v]) => v !== undefined));
}

/** Token-service head (tokenize; the webhook uses the same): version v1, epoch ms, signature type. */
export function tokenServiceHead(d: HeadInput): Head {
  return defined({
    version: 'v1',
    requestTimestamp: epochMs(d.now()),
    requestId: d.requestId,
    signatureType: d.signatureType,
    clientId: d.clientId,
    encryptionKeyVersion: d.encryptionKeyVersion,
  });
}

/** Pre-auth head: Unix time in seconds, clientId (mandatory), application version when given. */
function preAuthHead(d: HeadInput): Head {
  return defined({
    version: d.version,
    channelId: d.channelId,
    requestTimestamp: epochSeconds(d.now()),
    clientId: d.clientId,
  });
}

/** List subscriptions head: tokenType AES with the SSO token; lengths of section 8. */
function listSubscriptionsHead(d: HeadInput): Head {
  return defined({
    clientId: d.clientId,
    version: d.version,
    requestTimestamp: epochSeconds(d.now()),
    tokenType: 'AES',
    token: d.token,
  });
}

/** Pay and modify order head: the order's transaction token with tokenType TXN_TOKEN; pay's head also carries version v1. */
function txnTokenHead(d: HeadInput, withVersion: boolean): Head {
  const channelId = d.channelId === 'SYSTEM' ? undefined : d.channelId;
  return defined({
    requestTimeStamp: epochMs(d.now()),
    channelId,
    tokenType: 'TXN_TOKEN',
    token: d.token,
    version: withVersion ? 'v1' : undefined,
  });
}

/** Create subscription head: epoch ms and the signature (added when the body is signed). */
function createSubscriptionHead(d: HeadInput): Head {
  const channelId = d.channelId === 'WEB' || d.channelId === 'WAP' ? d.channelId : undefined;
  return defined({ requestTimeStamp: epochMs(d.now()), channelId });
}

/** Per head schema of the contract, how its head is built: the compiler asks for every one. */
export const headBuilders: Record<HeadSchema, (d: HeadInput) => Head> = {
  TokenServiceRequestHead: tokenServiceHead,
  PreAuthRequestHead: preAuthHead,
  ListSubscriptionsRequestHead: listSubscriptionsHead,
  PaymentRequestHead: (d) => txnTokenHead(d, true),
  ModifyOrderRequestHead: (d) => txnTokenHead(d, false),
  CreateSubscriptionRequestHead: createSubscriptionHead,
};
