// The card data of encryptedCardData: checked (digits, Luhn, month, year, expiry, CVV), encrypted
// with the merchant's RSA key (RSA-OAEP on Web Crypto; PKCS#1 v1.5 on node:crypto where the runtime
// has it), and never echoed.

import {
  constants,
  createPublicKey,
  createSign,
  generateKeyPairSync,
  type KeyPairKeyObjectResult,
  privateDecrypt,
  X509Certificate,
} from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { buildCardPlaintext, CardDataError, encryptCardData, passesLuhn } from '../../src/index.js';

const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const NOW = new Date('2026-11-23T00:00:00Z');
const CARD = { cardNumber: '4111111111111111', expiryMonth: '12', expiryYear: '2030', securityCode: '737' };

/** The card of a ciphertext, decrypted with OAEP and the hash on node:crypto. */
const decryptOaep = (cipher: string, oaepHash = 'sha256') =>
  JSON.parse(
    privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash },
      Buffer.from(cipher, 'base64'),
    ).toString(),
  );

/**
 * The card of a PKCS#1 v1.5 ciphertext. Node no longer decrypts that padding (CVE-2023-46809), so
 * the RSA operation is node:crypto's without padding and the padding is read here:
 * 00 02, at least eight nonzero random bytes, 00, the message.
 */
function decryptPkcs1(cipher: string) {
  const block = privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, Buffer.from(cipher, 'base64'));
  expect([block[0], block[1]]).toEqual([0, 2]);
  const end = block.indexOf(0, 2);
  expect(end).toBeGreaterThanOrEqual(10);
  return JSON.parse(block.subarray(end + 1).toString());
}

/** A DER element. */
const der = (tag: number, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  const n = body.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...length]), body]);
};

/** A self-signed X.509 certificate of the key pair (PEM), built here: Node has no certificate maker. */
function certificateOf(publicPem: string, privatePem: string, withVersion = true): string {
  const sha256WithRsa = der(0x30, der(0x06, Buffer.from('2a864886f70d01010b', 'hex')), der(0x05));
  const name = der(
    0x30,
    der(0x31, der(0x30, der(0x06, Buffer.from('550403', 'hex')), der(0x0c, Buffer.from('merchant')))),
  );
  const validity = der(0x30, der(0x17, Buffer.from('260101000000Z')), der(0x17, Buffer.from('360101000000Z')));
  const spki = createPublicKey(publicPem).export({ type: 'spki', format: 'der' });
  const tbs = der(
    0x30,
    ...(withVersion ? [der(0xa0, der(0x02, Buffer.from([2])))] : []),
    der(0x02, Buffer.from([1])),
    sha256WithRsa,
    name,
    validity,
    name,
    spki,
  );
  const signature = createSign('sha256').update(tbs).sign(privatePem);
  const certificate = der(0x30, tbs, sha256WithRsa, der(0x03, Buffer.from([0]), signature));
  return `-----BEGIN CERTIFICATE-----\n${certificate.toString('base64').replace(/.{64}(?!$)/g, '$&\n')}\n-----END CERTIFICATE-----\n`;
}

function issuesOf(card: any) {
  try {
    buildCardPlaintext(card, { now: NOW });
  } catch (e) {
    return e as CardDataError;
  }
  throw new Error('expected a CardDataError');
}

describe('card data', () => {
  it('builds the plaintext of section 2.3 and encrypts it with OAEP-SHA256 by default', async () => {
    expect(buildCardPlaintext(CARD, { now: NOW })).toBe(
      '{"cardNumber":"4111111111111111","expiryMonth":"12","expiryYear":"2030","securityCode":"737"}',
    );
    const pending = encryptCardData(CARD, publicKey, { now: NOW });
    expect(pending).toBeInstanceOf(Promise);
    const cipher = await pending;
    expect(cipher).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(cipher, 'base64')).toHaveLength(256);
    expect(decryptOaep(cipher)).toEqual(CARD);
    expect(cipher).not.toBe(await encryptCardData(CARD, publicKey, { now: NOW }));
  });

  it.each([
    ['sha1', 'sha1'],
    ['sha256', 'sha256'],
    ['sha384', 'sha384'],
    ['sha512', 'sha512'],
    ['SHA-256', 'sha256'],
    ['SHA384', 'sha384'],
  ])('encrypts with OAEP and the hash %s', async (oaepHash, nodeHash) => {
    expect(decryptOaep(await encryptCardData(CARD, publicKey, { oaepHash, now: NOW }), nodeHash)).toEqual(CARD);
  });

  it('refuses an OAEP hash it does not know, without echoing it', async () => {
    for (const oaepHash of ['md5', 'sha224', 'sha3-256', '', 'constructor', 42 as any]) {
      const error = await encryptCardData(CARD, publicKey, { oaepHash, now: NOW }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toBe('oaepHash must be sha1, sha256, sha384 or sha512.');
    }
  });

  it('encrypts with PKCS#1 v1.5 when asked, on node:crypto', async () => {
    const cipher = await encryptCardData(CARD, publicKey, { padding: 'RSA_PKCS1_PADDING', now: NOW });
    expect(Buffer.from(cipher, 'base64')).toHaveLength(256);
    expect(decryptPkcs1(cipher)).toEqual(CARD);
    expect(() => decryptOaep(cipher)).toThrow();
    expect(cipher).not.toBe(await encryptCardData(CARD, publicKey, { padding: 'RSA_PKCS1_PADDING', now: NOW }));
  });

  it('says which runtimes encrypt with PKCS#1 v1.5 where node:crypto is absent, and still encrypts with OAEP there', async () => {
    vi.stubGlobal('process', { ...process, getBuiltinModule: undefined });
    try {
      const error = await encryptCardData(CARD, publicKey, { padding: 'RSA_PKCS1_PADDING', now: NOW }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(
        /PKCS#1 v1\.5 encryption .* needs a runtime with node:crypto, such as Node, Bun or Deno/,
      );
      expect((error as Error).message).toMatch(/RSA-OAEP .* works everywhere/);
      expect(decryptOaep(await encryptCardData(CARD, publicKey, { now: NOW }))).toEqual(CARD);
    } finally {
      vi.unstubAllGlobals();
    }
    vi.stubGlobal('process', undefined);
    try {
      await expect(encryptCardData(CARD, publicKey, { padding: 'RSA_PKCS1_PADDING', now: NOW })).rejects.toThrow(
        /needs a runtime with node:crypto/,
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('takes the key in every PEM form node:crypto read: SPKI, PKCS#1, a certificate, a private key', async () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forms = {
      spki: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      pkcs1: pair.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      certificate: certificateOf(
        pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      ),
      'certificate without a version': certificateOf(
        pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        false,
      ),
      pkcs8: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      'pkcs1 private': pair.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    };
    expect(forms.pkcs1).toMatch(/^-----BEGIN RSA PUBLIC KEY-----/);
    expect(new X509Certificate(forms.certificate).publicKey.equals(pair.publicKey)).toBe(true);
    for (const [form, pem] of Object.entries({
      ...forms,
      'CRLF line ends': forms.spki.replace(/\n/g, '\r\n'),
      'text around the block': `a key:\n${forms.pkcs1}and more text`,
    })) {
      // node:crypto reads it as this RSA key ...
      expect(createPublicKey(pem).equals(pair.publicKey), form).toBe(true);
      // ... and so does encryptCardData, with both paddings.
      for (const padding of ['RSA_PKCS1_OAEP_PADDING', 'RSA_PKCS1_PADDING'] as const) {
        const cipher = Buffer.from(await encryptCardData(CARD, pem, { padding, now: NOW }), 'base64');
        const block = privateDecrypt(
          padding === 'RSA_PKCS1_PADDING'
            ? { key: pair.privateKey, padding: constants.RSA_NO_PADDING }
            : { key: pair.privateKey, oaepHash: 'sha256' },
          cipher,
        );
        expect(
          block.subarray(block.length - buildCardPlaintext(CARD, { now: NOW }).length).toString(),
          `${form}, ${padding}`,
        ).toBe(buildCardPlaintext(CARD, { now: NOW }));
      }
    }
  });

  it.each([
    [{ ...CARD, cardNumber: '4111111111111112' }, 'cardNumber', 'luhn'],
    [{ ...CARD, cardNumber: '4111-1111-1111-1111' }, 'cardNumber', 'pattern'],
    [{ ...CARD, cardNumber: '41111111111' }, 'cardNumber', 'pattern'],
    [{ ...CARD, expiryMonth: '13' }, 'expiryMonth', 'pattern'],
    [{ ...CARD, expiryMonth: '1' }, 'expiryMonth', 'pattern'],
    [{ ...CARD, expiryYear: '30' }, 'expiryYear', 'pattern'],
    [{ ...CARD, expiryYear: '2026', expiryMonth: '10' }, 'expiryYear', 'expired'],
    [{ ...CARD, securityCode: '12' }, 'securityCode', 'pattern'],
    [{ ...CARD, securityCode: '12345' }, 'securityCode', 'pattern'],
    [{ ...CARD, extra: 'x' }, 'card', 'additionalProperties'],
  ])('rejects %j at the right field and rule', (card, field, rule) => {
    const error = issuesOf(card);
    expect(error).toBeInstanceOf(CardDataError);
    expect(error.issues).toContainEqual(expect.objectContaining({ field, rule }));
  });

  it('accepts a card expiring this month', () => {
    expect(() => buildCardPlaintext({ ...CARD, expiryMonth: '11', expiryYear: '2026' }, { now: NOW })).not.toThrow();
  });

  it('never puts a card value into an error', () => {
    const card = { cardNumber: '4111111111111112', expiryMonth: '13', expiryYear: '1999', securityCode: '98765' };
    const error = issuesOf(card);
    for (const text of [error.message, String(error), JSON.stringify(error), error.stack ?? '']) {
      for (const value of ['4111111111111112', '98765', '1999', '"13"']) expect(text).not.toContain(value);
    }
    expect(error.issues.map((i) => i.field).sort()).toEqual(['cardNumber', 'expiryMonth', 'securityCode']);
  });

  it('refuses a bad key and an unknown padding without echoing them', async () => {
    const refusal = (pem: unknown, options = {}) => encryptCardData(CARD, pem as string, { now: NOW, ...options });
    await expect(refusal('-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----')).rejects.toThrow(
      /not a valid PEM/,
    );
    await expect(refusal(publicKey, { padding: 'NONE' })).rejects.toThrow(/padding must be/);
    const body = publicKey.split('\n').slice(1, -2).join('');
    for (const pem of [
      '',
      'not a key',
      42,
      undefined,
      `-----BEGIN PUBLIC KEY-----\n${body.slice(0, 40)}\n-----END PUBLIC KEY-----`,
      `-----BEGIN PUBLIC KEY-----\n${body}AAAA\n-----END PUBLIC KEY-----`,
      `-----BEGIN RSA PUBLIC KEY-----\n${body}\n-----END RSA PUBLIC KEY-----`,
      `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`,
      `-----BEGIN PUBLIC KEY-----\n${body}\n-----END RSA PUBLIC KEY-----`,
      `-----BEGIN FOO-----\n${body}\n-----END FOO-----`,
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
        type: 'pkcs8',
        format: 'pem',
        cipher: 'aes-256-cbc',
        passphrase: 'p',
      }),
    ]) {
      for (const padding of ['RSA_PKCS1_OAEP_PADDING', 'RSA_PKCS1_PADDING']) {
        const error = await refusal(pem, { padding }).catch((e: unknown) => e);
        expect(error, String(pem)).toBeInstanceOf(TypeError);
        expect((error as Error).message).toBe('The public key is not a valid PEM-encoded key.');
      }
    }
    for (const type of ['ec', 'ed25519', 'rsa-pss'] as const) {
      const other = generateKeyPairSync(
        type as 'ec',
        { namedCurve: 'P-256', modulusLength: 2048 } as any,
      ) as unknown as KeyPairKeyObjectResult;
      for (const pem of [
        other.publicKey.export({ type: 'spki', format: 'pem' }),
        other.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      ]) {
        await expect(refusal(pem), type).rejects.toThrow(/must be an RSA key/);
        await expect(refusal(pem, { padding: 'RSA_PKCS1_PADDING' }), type).rejects.toThrow(/must be an RSA key/);
      }
    }
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await expect(refusal(ec.privateKey.export({ type: 'sec1', format: 'pem' }))).rejects.toThrow(/must be an RSA key/);
  });

  it('refuses a key too small for the card, with either padding', async () => {
    const small = generateKeyPairSync('rsa', { modulusLength: 512 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    for (const options of [{ oaepHash: 'sha512' }, { padding: 'RSA_PKCS1_PADDING' as const }]) {
      await expect(encryptCardData(CARD, small, { now: NOW, ...options })).rejects.toThrow(
        /could not be encrypted with this key/,
      );
    }
  });

  it('checks the card before the key', async () => {
    await expect(
      encryptCardData({ ...CARD, cardNumber: '4111111111111112' }, 'not a key', { now: NOW }),
    ).rejects.toThrow(CardDataError);
  });

  it('implements Luhn', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('5555555555554444')).toBe(true);
    expect(passesLuhn('5555555555554445')).toBe(false);
  });
});
