// The merchant's RSA public key, from the PEM forms node:crypto's createPublicKey reads, as the
// SubjectPublicKeyInfo (SPKI) DER that Web Crypto imports: a public key (SPKI, "PUBLIC KEY"), a
// PKCS#1 public key ("RSA PUBLIC KEY"), a certificate ("CERTIFICATE"), or a private key whose
// public half is wanted ("PRIVATE KEY", PKCS#8; "RSA PRIVATE KEY", PKCS#1). Read with a few lines
// of DER: only the structure around the key, never more.
import { type Bytes, concatBytes, fromBase64 } from '../encoding/bytes.js';

/** Why a key was refused: not a key at all, or a key of another type (EC, Ed25519, RSA-PSS, ...). */
export type KeyProblem = 'invalid' | 'not-rsa';

export class PublicKeyError extends Error {
  override readonly name = 'PublicKeyError';
  constructor(readonly problem: KeyProblem) {
    super(problem);
  }
}

const SEQUENCE = 0x30;
const INTEGER = 0x02;
const BIT_STRING = 0x03;
const OCTET_STRING = 0x04;
const OBJECT_IDENTIFIER = 0x06;
/** [0], the certificate's version. */
const VERSION_TAG = 0xa0;
/** rsaEncryption, 1.2.840.113549.1.1.1, the OID of an RSA key (RSASSA-PSS keys have another). */
const RSA_ENCRYPTION = Uint8Array.of(0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01);
/** AlgorithmIdentifier { rsaEncryption, NULL }. */
const RSA_ALGORITHM = Uint8Array.of(0x30, 0x0d, 0x06, 0x09, ...RSA_ENCRYPTION, 0x05, 0x00);

/** One DER element: its tag, where it starts, where its contents start and where it ends. */
interface Element {
  tag: number;
  start: number;
  body: number;
  end: number;
}

const invalid = () => new PublicKeyError('invalid');

function element(der: Uint8Array, at: number, end: number): Element {
  if (at + 2 > end) throw invalid();
  const tag = der[at] as number;
  let length = der[at + 1] as number;
  let body = at + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 3 || body + count > end) throw invalid();
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (der[body++] as number);
  }
  if (body + length > end) throw invalid();
  return { tag, start: at, body, end: body + length };
}

/** The elements inside a constructed element, each of the expected tag where `tags` gives one. */
function children(der: Uint8Array, parent: Element, ...tags: number[]): Element[] {
  const out: Element[] = [];
  for (let at = parent.body; at < parent.end; ) {
    const child = element(der, at, parent.end);
    out.push(child);
    at = child.end;
  }
  tags.forEach((tag, i) => {
    if (out[i]?.tag !== tag) throw invalid();
  });
  return out;
}

/** The whole of a DER text as one element of the tag. */
function root(der: Uint8Array, tag: number): Element {
  const e = element(der, 0, der.length);
  if (e.tag !== tag || e.end !== der.length) throw invalid();
  return e;
}

const bytesOf = (der: Uint8Array, e: Element) => der.subarray(e.start, e.end);

function checkRsaAlgorithm(der: Uint8Array, algorithm: Element): void {
  const [oid] = children(der, algorithm, OBJECT_IDENTIFIER) as [Element];
  const value = der.subarray(oid.body, oid.end);
  if (value.length !== RSA_ENCRYPTION.length || value.some((b, i) => b !== RSA_ENCRYPTION[i]))
    throw new PublicKeyError('not-rsa');
}

/** SPKI { AlgorithmIdentifier, BIT STRING }: checked, and refused unless its algorithm is rsaEncryption. */
function checkedSpki(der: Uint8Array): Bytes {
  const [algorithm] = children(der, root(der, SEQUENCE), SEQUENCE, BIT_STRING) as [Element];
  checkRsaAlgorithm(der, algorithm);
  return Uint8Array.from(der);
}

/** A DER element of the tag around the contents. */
function encode(tag: number, contents: Uint8Array): Bytes {
  const n = contents.length;
  const length =
    n < 0x80
      ? [n]
      : n < 0x100
        ? [0x81, n]
        : n < 0x10000
          ? [0x82, n >> 8, n & 0xff]
          : [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
  return concatBytes([Uint8Array.of(tag, ...length), contents]);
}

/** The SPKI of a PKCS#1 RSAPublicKey { modulus, publicExponent }. */
function spkiOfRsaPublicKey(der: Uint8Array): Bytes {
  children(der, root(der, SEQUENCE), INTEGER, INTEGER);
  return encode(SEQUENCE, concatBytes([RSA_ALGORITHM, encode(BIT_STRING, concatBytes([Uint8Array.of(0), der]))]));
}

/** The public half of a PKCS#1 RSAPrivateKey { version, modulus, publicExponent, ... }. */
function spkiOfRsaPrivateKey(der: Uint8Array): Bytes {
  const [, modulus, exponent] = children(der, root(der, SEQUENCE), INTEGER, INTEGER, INTEGER) as [
    Element,
    Element,
    Element,
  ];
  return spkiOfRsaPublicKey(encode(SEQUENCE, concatBytes([bytesOf(der, modulus), bytesOf(der, exponent)])));
}

/** PKCS#8 PrivateKeyInfo { version, AlgorithmIdentifier, OCTET STRING { RSAPrivateKey }, ... }. */
function spkiOfPkcs8(der: Uint8Array): Bytes {
  const [, algorithm, key] = children(der, root(der, SEQUENCE), INTEGER, SEQUENCE, OCTET_STRING) as [
    Element,
    Element,
    Element,
  ];
  checkRsaAlgorithm(der, algorithm);
  return spkiOfRsaPrivateKey(der.subarray(key.body, key.end));
}

/** Certificate { TBSCertificate { [0] version, serial, signature, issuer, validity, subject, SPKI, ... }, ... }. */
function spkiOfCertificate(der: Uint8Array): Bytes {
  const [tbs] = children(der, root(der, SEQUENCE), SEQUENCE) as [Element];
  const fields = children(der, tbs);
  const spki = fields[fields[0]?.tag === VERSION_TAG ? 6 : 5];
  if (spki?.tag !== SEQUENCE) throw invalid();
  return checkedSpki(bytesOf(der, spki));
}

/** Per PEM label, its SPKI; null for keys of other types that createPublicKey reads. */
const READERS: Record<string, ((der: Uint8Array) => Bytes) | null> = {
  'PUBLIC KEY': checkedSpki,
  'RSA PUBLIC KEY': spkiOfRsaPublicKey,
  CERTIFICATE: spkiOfCertificate,
  'PRIVATE KEY': spkiOfPkcs8,
  'RSA PRIVATE KEY': spkiOfRsaPrivateKey,
  'EC PRIVATE KEY': null,
  'DSA PRIVATE KEY': null,
};

/**
 * The SPKI DER of the RSA public key in the first key block of a PEM text (text around the block
 * is ignored, as createPublicKey ignores it). Throws a PublicKeyError: `invalid` for what is not
 * such a key, `not-rsa` for a key of another type.
 */
export function rsaSpkiOfPem(pem: unknown): Bytes {
  if (typeof pem !== 'string') throw invalid();
  for (const block of pem.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----([^-]*)-----END \1-----/g)) {
    const label = block[1] as string;
    if (!(label in READERS)) continue;
    const read = READERS[label];
    if (!read) throw new PublicKeyError('not-rsa');
    const der = fromBase64((block[2] as string).replace(/\s+/g, ''));
    if (!der || der.length === 0) throw invalid();
    return read(der);
  }
  throw invalid();
}
