// What a faulty service does to an envelope once it has decided what to say: the body serialized
// once and the head's signature made over exactly those bytes (where the envelope has one), and
// `txnInfo.checksumHash` recomputed over the other txnInfo values, both with the merchant key, so
// that a fault that is not about a signature breaks nothing but what it means to break.
import { generateSignatureSync } from '../../../src/signing/checksumNode.js';
import { txnInfoChecksumText } from '../../../src/signing/txnInfoChecksum.js';

/** The sandbox's merchant key (docs/sandbox.md): the faulty services sign with it too. */
export const FRONT_KEY = 'SandboxTestKey01';
/** Another key: a signature made with it is a wrong one. */
export const WRONG_KEY = 'WrongMerchantKey';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** An envelope, parsed: `{ head, body }` (either may be missing in what a client sent). */
export interface Envelope {
  head: Json;
  body: Json;
}

/** The envelope of a JSON text, or undefined when the text is not one. */
export function envelopeOf(text: string): Envelope | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  return { head: isObject(value.head) ? value.head : {}, body: isObject(value.body) ? value.body : {} };
}

/** A deep copy of a JSON value (an envelope a fault edits without touching the one it read). */
export const copy = <T>(value: T): T => structuredClone(value);

/**
 * The text of an envelope: the body serialized once; where the head has a `signature`, it is made
 * again over those bytes with `key` (the merchant key unless a fault signs with another).
 */
export function envelopeText(envelope: Envelope, key: string = FRONT_KEY): string {
  const bodyText = JSON.stringify(envelope.body);
  const head =
    'signature' in envelope.head
      ? { ...envelope.head, signature: generateSignatureSync(bodyText, key) }
      : envelope.head;
  return `{"head":${JSON.stringify(head)},"body":${bodyText}}`;
}

/** `txnInfo` with its checksumHash made again over its other values with `key`. */
export function withChecksum(txnInfo: Json, key: string = FRONT_KEY): Json {
  return { ...txnInfo, checksumHash: generateSignatureSync(txnInfoChecksumText(txnInfo), key) };
}

/** The object at a path of an envelope, made when missing (for a fault that edits it). */
export function objectAt(root: Json, ...keys: string[]): Json {
  let node = root;
  for (const key of keys) {
    const next = node[key];
    if (isObject(next)) node = next;
    else {
      const made: Json = {};
      node[key] = made;
      node = made;
    }
  }
  return node;
}

/** A string at a path, or undefined. */
export function stringAt(root: unknown, ...keys: string[]): string | undefined {
  let node = root;
  for (const key of keys) node = isObject(node) ? node[key] : undefined;
  return typeof node === 'string' ? node : undefined;
}
