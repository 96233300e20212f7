// The CHECKSUM signer and verifier: round trip, length, random salt, tampering, wrong key,
// malformed signatures, a known answer computed independently, constant-time comparison; the
// synchronous form of the sandbox (checksumNode.ts) against the Web Crypto one; the bytes helpers
// they stand on.

import { createCipheriv, createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  constantTimeEqual,
  fromBase64,
  toBase64,
  toHex,
  utf8Bytes,
  utf8Length,
  utf8Text,
} from '../../src/encoding/bytes.js';
import {
  createChecksumSigner,
  createChecksumVerifier,
  generateSignature,
  SIGNATURE_LENGTH,
  verifySignature,
} from '../../src/index.js';
import { generateSignatureWithSalt } from '../../src/signing/checksum.js';
import {
  generateSignatureSync,
  generateSignatureWithSaltSync,
  verifySignatureSync,
} from '../../src/signing/checksumNode.js';

const KEY = 'k3yK3yk3yK3yk3yK';
const BODY = '{"mid":"MERCHANT0001","tokenInfo":{"tokenStatus":"ACTIVE"}}';

/** The published scheme step by step on node:crypto, independently of the package. */
function knownAnswer(text: string, key: string, salt: string): string {
  const digest = createHash('sha256').update(`${text}|${salt}`).digest('hex') + salt;
  const cipher = createCipheriv('aes-128-cbc', Buffer.from(key), Buffer.from('@@@@&&&&####$$$$'));
  return Buffer.concat([cipher.update(digest, 'utf8'), cipher.final()]).toString('base64');
}

describe('CHECKSUM', () => {
  it('round-trips and is always 108 characters', async () => {
    for (let i = 0; i < 200; i++) {
      const text = `${BODY}${i}${'é'.repeat(i % 7)}`;
      const signature = await generateSignature(text, KEY);
      expect(signature).toHaveLength(SIGNATURE_LENGTH);
      expect(await verifySignature(text, KEY, signature)).toBe(true);
    }
  });

  it('signs and verifies with promises', () => {
    expect(generateSignature(BODY, KEY)).toBeInstanceOf(Promise);
    expect(verifySignature(BODY, KEY, 'x')).toBeInstanceOf(Promise);
  });

  it('uses a random salt: two signatures of one text differ, both verify', async () => {
    const a = await generateSignature(BODY, KEY);
    const b = await generateSignature(BODY, KEY);
    expect(a).not.toBe(b);
    expect((await verifySignature(BODY, KEY, a)) && (await verifySignature(BODY, KEY, b))).toBe(true);
  });

  it('matches a known answer computed step by step from the published scheme', async () => {
    const salt = 'aB3#';
    const expected = knownAnswer(BODY, KEY, salt);
    expect(await generateSignatureWithSalt(BODY, KEY, salt)).toBe(expected);
    expect(await verifySignature(BODY, KEY, expected)).toBe(true);
  });

  it('gives, byte for byte, the signatures the package gave on node:crypto', async () => {
    // Signed by the package's earlier implementation (node:crypto's cipher and hash, Buffer's Base64).
    const earlier: [string, string, string, string][] = [
      [
        BODY,
        KEY,
        'aB3#',
        'oFPApkHWKBDgUFMRTjsEXvFZUyvxN/QFLCsC11zRZiwAY875hLTScqeYWtNV3Ej7HhLyTe5cI83Bd9H+xTRse/loXYOsLuZHz0cTZ+fk3g8=',
      ],
      [
        '',
        'SandboxTestKey01',
        'zzzz',
        'hsKH7rVCLtmVeQTF5kJUS7W7z74+Dr6DscevB7wRX5IuDH6tPcU/FZlcLDn55e4uHm7lEBlm33d8Q51B7zxS+/pJyopM2amelXvyxfAIVVg=',
      ],
      [
        'é€😀 and more',
        KEY,
        '@@##',
        'ypAdBDRIpVILfzmMqH2tsZsBpwUQRMtz/ia0ZfDXAT7GOXp1imlOXv5jTkh0EDf+Ht182FRUlNqnuFJGHApCJgsLzmVLuo4ndvMuH3oH0Cs=',
      ],
    ];
    for (const [text, key, salt, signature] of earlier) {
      expect(await generateSignatureWithSalt(text, key, salt)).toBe(signature);
      expect(generateSignatureWithSaltSync(text, key, salt)).toBe(signature);
      expect(await verifySignature(text, key, signature)).toBe(true);
      expect(verifySignatureSync(text, key, signature)).toBe(true);
    }
  });

  it('matches the known answer for any text, key and salt (UTF-8 of every kind, lone surrogates included)', async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@#';
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 16, maxLength: 16 }),
        fc.string({ unit: fc.constantFrom(...alphabet), minLength: 4, maxLength: 4 }),
        async (text, key, salt) => {
          const expected = knownAnswer(text, key, salt);
          expect(await generateSignatureWithSalt(text, key, salt)).toBe(expected);
          expect(await verifySignature(text, key, expected)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
    expect(await generateSignatureWithSalt('\ud800 lone', KEY, 'abcd')).toBe(knownAnswer('\ufffd lone', KEY, 'abcd'));
  });

  it('rejects a tampered body, a wrong key and malformed signatures without throwing', async () => {
    const signature = await generateSignature(BODY, KEY);
    expect(await verifySignature(BODY.replace('ACTIVE', 'DEAD'), KEY, signature)).toBe(false);
    expect(await verifySignature(`${BODY} `, KEY, signature)).toBe(false);
    expect(await verifySignature(BODY, 'another-key-16by', signature)).toBe(false);
    for (const bad of [
      '',
      'short',
      'x'.repeat(108),
      `${signature.slice(0, 107)}!`,
      signature.slice(1),
      null,
      42,
      undefined,
      {},
    ]) {
      expect(await verifySignature(BODY, KEY, bad)).toBe(false);
    }
  });

  it('accepts one Base64 spelling per signature: unused bits set in the last character are refused', async () => {
    const signature = await generateSignature(BODY, KEY);
    // 80 bytes: the last group holds two bytes in three characters, the last of which has two unused bits.
    const last = signature.at(-2) as string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const other = `${signature.slice(0, -2)}${alphabet[alphabet.indexOf(last) | 1]}=`;
    expect(Buffer.from(other, 'base64')).toEqual(Buffer.from(signature, 'base64'));
    expect(other).not.toBe(signature);
    expect(await verifySignature(BODY, KEY, other)).toBe(false);
    expect(verifySignatureSync(BODY, KEY, other)).toBe(false);
    expect(await createChecksumVerifier(KEY).verify(BODY, other)).toBe(false);
  });

  it('compares in constant time (XOR accumulated over every byte of equal-length arrays)', async () => {
    expect(constantTimeEqual(utf8Bytes('abc'), utf8Bytes('abc'))).toBe(true);
    expect(constantTimeEqual(utf8Bytes('abc'), utf8Bytes('abd'))).toBe(false);
    expect(constantTimeEqual(utf8Bytes('abc'), utf8Bytes('abcd'))).toBe(false);
    expect(constantTimeEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true);
    expect(readFileSync(new URL('../../src/encoding/bytes.ts', import.meta.url), 'utf8')).toMatch(
      /difference \|= \(a\[i\] as number\) \^ \(b\[i\] as number\)/,
    );
    expect(readFileSync(new URL('../../src/signing/checksum.ts', import.meta.url), 'utf8')).toMatch(
      /return constantTimeEqual\(plain, /,
    );
    // The verifier's last step is this comparison: a one-character change in the digest is refused.
    const salt = 'zzzz';
    expect(await verifySignature(BODY, KEY, await generateSignatureWithSalt(`${BODY}x`, KEY, salt))).toBe(false);
  });

  it('refuses keys that are not 16 bytes, without echoing the key', async () => {
    for (const key of ['short-secret', 'a-very-long-merchant-secret-key']) {
      for (const call of [
        () => generateSignature(BODY, key),
        () => verifySignature(BODY, key, 'x'),
        async () => createChecksumSigner(key),
        async () => createChecksumVerifier(key),
        async () => generateSignatureSync(BODY, key),
        async () => verifySignatureSync(BODY, key, 'x'),
      ]) {
        const error = await call().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toMatch(/16 bytes/);
        expect((error as Error).message).not.toContain(key);
      }
    }
    // At creation, synchronously: a signer with a bad key is never handed out.
    expect(() => createChecksumSigner('bad')).toThrow(TypeError);
    expect(() => createChecksumVerifier(42 as any)).toThrow(/must be a string/);
  });

  it('plugs into the client and the webhook as signer and verifier', async () => {
    const signer = createChecksumSigner(KEY);
    const verifier = createChecksumVerifier(KEY);
    expect(signer.signatureType).toBe('CHECKSUM');
    expect(await verifier.verify(BODY, await signer.sign(BODY))).toBe(true);
    expect(await verifier.verify(BODY, await createChecksumSigner('0000000000000000').sign(BODY))).toBe(false);
    const signatures = await Promise.all(Array.from({ length: 20 }, (_, i) => signer.sign(`${BODY}${i}`)));
    expect(await Promise.all(signatures.map((s, i) => verifier.verify(`${BODY}${i}`, s)))).toEqual(
      signatures.map(() => true),
    );
    for (const bad of ['', 'x'.repeat(108), null, 42]) expect(await verifier.verify(BODY, bad as any)).toBe(false);
  });

  it('imports the merchant key into Web Crypto once per signer and verifier', async () => {
    const subtle = globalThis.crypto.subtle;
    const importKey = subtle.importKey.bind(subtle);
    let imports = 0;
    const spy = new Proxy(subtle, {
      get: (target, name) => {
        if (name === 'importKey')
          return (...args: Parameters<SubtleCrypto['importKey']>) => {
            imports++;
            return importKey(...args);
          };
        const value = Reflect.get(target, name, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const own = Object.getOwnPropertyDescriptor(globalThis.crypto, 'subtle');
    Object.defineProperty(globalThis.crypto, 'subtle', { value: spy, configurable: true });
    try {
      const signer = createChecksumSigner(KEY);
      const verifier = createChecksumVerifier(KEY);
      expect(imports).toBe(0);
      for (let i = 0; i < 5; i++) expect(await verifier.verify(BODY, await signer.sign(BODY))).toBe(true);
      expect(imports).toBe(2);
    } finally {
      if (own) Object.defineProperty(globalThis.crypto, 'subtle', own);
      else delete (globalThis.crypto as { subtle?: unknown }).subtle;
    }
    expect(globalThis.crypto.subtle).toBe(subtle);
  });
});

describe('CHECKSUM, synchronous form of the sandbox (checksumNode.ts)', () => {
  it('gives the signatures of the Web Crypto form for fixed salts, and the known answer', async () => {
    for (const [text, salt] of [
      [BODY, 'aB3#'],
      ['', 'zzzz'],
      ['é€😀 and more', '@@##'],
      [`${BODY}\ud800`, 'AAAA'],
    ] as const) {
      const sync = generateSignatureWithSaltSync(text, KEY, salt);
      expect(sync).toBe(await generateSignatureWithSalt(text, KEY, salt));
      expect(sync).toBe(knownAnswer(text, KEY, salt));
    }
  });

  it("verifies the Web Crypto form's signatures, and the Web Crypto form verifies its own", async () => {
    for (let i = 0; i < 50; i++) {
      const text = `${BODY}${i}${'é'.repeat(i % 5)}`;
      const web = await generateSignature(text, KEY);
      const sync = generateSignatureSync(text, KEY);
      expect(sync).toHaveLength(SIGNATURE_LENGTH);
      expect(verifySignatureSync(text, KEY, web)).toBe(true);
      expect(await verifySignature(text, KEY, sync)).toBe(true);
      expect(await createChecksumVerifier(KEY).verify(text, sync)).toBe(true);
      expect(verifySignatureSync(`${text}x`, KEY, web)).toBe(false);
      expect(await verifySignature(`${text}x`, KEY, sync)).toBe(false);
    }
  });

  it('refuses what the Web Crypto form refuses, without throwing', async () => {
    const signature = generateSignatureSync(BODY, KEY);
    for (const bad of [
      '',
      'short',
      'x'.repeat(108),
      `${signature.slice(0, 107)}!`,
      signature.slice(1),
      null,
      42,
      undefined,
      {},
    ]) {
      expect(verifySignatureSync(BODY, KEY, bad)).toBe(false);
      expect(await verifySignature(BODY, KEY, bad)).toBe(false);
    }
    expect(verifySignatureSync(BODY, 'another-key-16by', signature)).toBe(false);
    expect(() => verifySignatureSync(42 as any, KEY, signature)).toThrow(TypeError);
    await expect(verifySignature(42 as any, KEY, signature)).rejects.toThrow(TypeError);
  });

  it('is imported only by Node-only modules; the Web Crypto form does not import it', () => {
    expect(readFileSync(new URL('../../src/signing/checksum.ts', import.meta.url), 'utf8')).not.toMatch(
      /from '\.\/checksumNode/,
    );
  });
});

describe('bytes on Web APIs', () => {
  it("Base64 as Buffer's, both ways", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const text = toBase64(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64'));
        expect(fromBase64(text)).toEqual(new Uint8Array(bytes));
      }),
    );
  });

  it("reads any spelling as Buffer.from(text, 'base64') reads it (missing padding, unused bits set)", () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...alphabet), minLength: 1, maxLength: 60 }),
        fc.integer({ min: 0, max: 2 }),
        (body, padding) => {
          const text = `${body}${'='.repeat(padding)}`;
          expect(fromBase64(text)).toEqual(new Uint8Array(Buffer.from(text, 'base64')));
        },
      ),
    );
    expect(fromBase64('ab!c')).toBeUndefined();
    expect(fromBase64('ab=c')).toBeUndefined();
    expect(fromBase64('')).toEqual(new Uint8Array(0));
  });

  it("UTF-8 as Buffer's: bytes, lengths, text, hex", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 100 }), (text) => {
        expect(utf8Bytes(text)).toEqual(new Uint8Array(Buffer.from(text, 'utf8')));
        expect(utf8Length(text)).toBe(Buffer.byteLength(text));
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        expect(utf8Text(bytes)).toBe(Buffer.from(bytes).toString('utf8'));
        expect(toHex(bytes)).toBe(Buffer.from(bytes).toString('hex'));
      }),
    );
    expect(utf8Text(utf8Bytes('\ufeffa'))).toBe('\ufeffa');
  });
});
