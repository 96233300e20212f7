// The receiver's steps 1 to 3 (docs/decisions.md, D-34, D-36, D-113): the bytes, what the signature
// check needs, the signature. Before the signature, no value of the notification is read:
//   1. the bytes: size, UTF-8, not blank; the root object's own punctuation and its nesting (at most
//      32 levels), located without reading a value (outlineObject: strings skipped, brackets counted) -> 400
//   2. head, signatureType, signature, body, located in the text: only the signature and its type are
//      read                                                                    -> 1006, 1005, 1400, 410
//   3. the signature over the exact bytes of the "body" member                 -> 1001
// A forged notification costs a pass over its text that reads no value, and the verifier's check,
// whatever its body holds (a repeated key in it included: 1001).
import { utf8Bytes } from '../encoding/bytes.js';
import { jsonSpace, nestsDeeper, outlineObject } from '../json/outline.js';
import { jsonText, malformedMessage, tooDeepMessage } from '../json/scan.js';
import type { Verifier } from '../signing/checksum.js';
import {
  type Checked,
  issue,
  notJson,
  notRawBody,
  refused,
  SIGNATURE_FAILURE,
  tooLarge,
  verifierFailed,
} from './issues.js';

/** A notification nests four levels deep; deeper text is refused before it is parsed. */
export const MAX_DEPTH = 32;

/** What the signature is checked with: the head's signature and the exact text of the body (D-36). */
interface SignatureBasis {
  signature: string;
  bodyText: string;
}

/** Steps 1 to 3: the raw body's text, once its signature is known to be the service's. */
export async function signedText(
  raw: unknown,
  maxBytes: number,
  verifier: Verifier,
): Promise<Checked<{ text: string }>> {
  if (typeof raw !== 'string' && !(raw instanceof Uint8Array)) return refused(notRawBody());
  if (largerThan(raw, maxBytes)) return refused(tooLarge(maxBytes));
  const read = jsonText(raw);
  if (!read.ok) return refused(notJson(read.message));
  const basis = signatureBasis(read.text, verifier.signatureType);
  if (!basis.ok) return basis;
  let authentic: boolean;
  try {
    authentic = (await verifier.verify(basis.bodyText, basis.signature)) === true;
  } catch {
    return refused(verifierFailed());
  }
  return authentic ? { ok: true, text: read.text } : refused({ ...SIGNATURE_FAILURE });
}

/**
 * Whether the raw body is larger than `limit` bytes of UTF-8. A text of n UTF-16 units has n to 3n
 * bytes, so only one that could be either side of the limit is measured, by encoding it (at most
 * 3 x `limit` bytes): the runtime's encoder takes a fifth of the time of counting byte by byte
 * (utf8Length), which cost a forged notification given as a text more than its reading (target: at
 * most 3x JSON.parse, bench/receiver.mjs, D-113). Equal to `utf8Length(raw) > limit` (test/webhook/webhook.test.ts).
 */
export function largerThan(raw: string | Uint8Array, limit: number): boolean {
  if (typeof raw !== 'string') return raw.byteLength > limit;
  if (raw.length > limit) return true;
  return raw.length * 3 > limit && utf8Bytes(raw).byteLength > limit;
}

/** Step 2: the signature and the body's text, located in the text, or the first problem that keeps the signature from being checked. */
function signatureBasis(text: string, signatureType: string): Checked<SignatureBasis> {
  const outline = envelopeForSignature(text);
  if ('unreadable' in outline) return refused(notJson(outline.unreadable));
  return basisIn(outline.envelope, outline.bodyText, signatureType);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The signature and the body's text, or the first problem that keeps the signature from being checked. */
function basisIn(envelope: unknown, bodyText: string | undefined, signatureType: string): Checked<SignatureBasis> {
  const shape = 'the notification is {"head": {...}, "body": {...}}';
  if (!isObject(envelope)) return refused(issue('', 'type', `The payload must be a JSON object: ${shape}.`));
  const { head } = envelope;
  if (!Object.hasOwn(envelope, 'head')) return refused(issue('/head', 'required', `"head" is missing: ${shape}.`));
  if (!isObject(head)) return refused(issue('/head', 'type', '"head" must be a JSON object.'));
  if (!Object.hasOwn(head, 'signatureType'))
    return refused(
      issue(
        '/head/signatureType',
        'required',
        `"signatureType" is missing from the head: it names the signature scheme (${signatureType}).`,
      ),
    );
  if (head.signatureType !== signatureType)
    return refused(
      issue(
        '/head/signatureType',
        'const',
        `"signatureType" must be "${signatureType}", the scheme this receiver verifies.`,
      ),
    );
  if (!Object.hasOwn(head, 'signature'))
    return refused(
      issue('/head/signature', 'required', '"signature" is missing from the head: every notification is signed.'),
    );
  const { signature } = head;
  if (typeof signature !== 'string' || signature.length === 0)
    return refused(issue('/head/signature', 'type', '"signature" must be a non-empty string.'));
  if (bodyText === undefined) return refused(issue('/body', 'required', `"body" is missing: ${shape}.`));
  return { ok: true, signature, bodyText };
}

/** Stands for a head member whose value is not a string: nothing of it is needed, so it is not built. */
const NOT_A_STRING = Object.freeze({});

/** What keeps the text from being read as far as the signature check needs: a message of checkJson's kind. */
type Unreadable = { unreadable: string };

/**
 * The envelope as far as the signature check needs it (basisIn), located in the text without reading
 * anything else (outlineObject): whether the root is an object, the head with its `signatureType` and
 * `signature` (each built only when it is a string), and the exact text of the first body member, when
 * there is one (the signature's basis, D-36). Or why the text cannot be read that far: the root
 * object's own punctuation is broken, or its values nest deeper than MAX_DEPTH.
 */
function envelopeForSignature(text: string): { envelope: unknown; bodyText?: string } | Unreadable {
  const start = jsonSpace(text, 0);
  if (text.charCodeAt(start) !== 0x7b) return notAnObject(text, start);
  const root = outlineObject(text, start, ['head', 'body'], MAX_DEPTH);
  if (!root.ok) return { unreadable: 'tooDeep' in root ? tooDeepMessage(MAX_DEPTH) : malformedMessage(text, root.at) };
  const after = jsonSpace(text, root.end);
  if (after < text.length) return { unreadable: malformedMessage(text, after) };
  const envelope: Record<string, unknown> = {};
  const head = root.members.get('head');
  if (head !== undefined) {
    const read = headForSignature(text, head.start);
    if ('unreadable' in read) return read;
    envelope.head = read.head;
  }
  const body = root.members.get('body');
  if (body === undefined) return { envelope };
  return { envelope, bodyText: text.slice(body.start, body.end) };
}

/**
 * A text whose root is not an object, which no notification is: nested too deep, or not JSON (said
 * as checkJson says it), or JSON (a root of the wrong type: basisIn says so). JSON.parse tells the
 * last two apart, at the cost of the reference of the receiver's target (D-113).
 */
function notAnObject(text: string, start: number): { envelope: null } | Unreadable {
  if (nestsDeeper(text, start, MAX_DEPTH)) return { unreadable: tooDeepMessage(MAX_DEPTH) };
  try {
    JSON.parse(text);
  } catch {
    return { unreadable: 'malformed JSON (and a notification is an object: {"head": {...}, "body": {...}})' };
  }
  return { envelope: null };
}

/** The head's `signatureType` and `signature`, each built only when it is a string; null for a head that is not an object. */
function headForSignature(text: string, start: number): { head: Record<string, unknown> | null } | Unreadable {
  if (text.charCodeAt(start) !== 0x7b) return { head: null }; // not an object: what it is does not matter
  const outline = outlineObject(text, start, ['signatureType', 'signature']);
  if (!outline.ok)
    return { unreadable: 'tooDeep' in outline ? tooDeepMessage(MAX_DEPTH) : malformedMessage(text, outline.at) };
  const head: Record<string, unknown> = {};
  for (const [name, { start: from, end }] of outline.members) {
    if (text.charCodeAt(from) !== 0x22) head[name] = NOT_A_STRING;
    else {
      try {
        head[name] = JSON.parse(text.slice(from, end));
      } catch {
        return { unreadable: malformedMessage(text, from) }; // a bad escape or a control character
      }
    }
  }
  return { head };
}
