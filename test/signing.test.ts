// The CHECKSUM signer and verifier: round trip, length, random salt, tampering, wrong key,
// malformed signatures, a known answer computed independently, constant-time comparison.

import { createCipheriv, createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createChecksumSigner, createChecksumVerifier, generateSignature, SIGNATURE_LENGTH, verifySignature } from '../src/index.js';
import { constantTimeEqual, generateSignatureWithSalt } from '../src/signing/checksum.js';

const KEY = 'k3yK3yk3yK3yk3yK';
const BODY = '{"mid":"MERCHANT0001","tokenInfo":{"tokenStatus":"ACTIVE"}}';

describe('CHECKSUM', () => {
  it('round-trips and is always 108 characters', () => {
    for (let i = 0; i < 200; i++) {
      const text = `${BODY}${i}${'é'.repeat(i % 7)}`;
      const signature = generateSignature(text, KEY);
      expect(signature).toHaveLength(SIGNATURE_LENGTH);
      expect(verifySignature(text, KEY, signature)).toBe(true);
    }
  });

  it('uses a random salt: two signatures of one text differ, both verify', () => {
    const a = generateSignature(BODY, KEY);
    const b = generateSignature(BODY, KEY);
    expect(a).not.toBe(b);
    expect(verifySignature(BODY, KEY, a) && verifySignature(BODY, KEY, b)).toBe(true);
  });

  it('matches a known answer computed step by step from the published scheme', () => {
    const salt = 'aB3#';
    const digest = createHash('sha256').update(`${BODY}|${salt}`).digest('hex') + salt;
    const cipher = createCipheriv('aes-128-cbc', Buffer.from(KEY), Buffer.from('@@@@&&&&####$$$$'));
    const expected = Buffer.concat([cipher.update(digest, 'utf8'), cipher.final()]).toString('base64');
    expect(generateSignatureWithSalt(BODY, KEY, salt)).toBe(expected);
    expect(verifySignature(BODY, KEY, expected)).toBe(true);
  });

  it('rejects a tampered body, a wrong key and malformed signatures without throwing', () => {
    const signature = generateSignature(BODY, KEY);
    expect(verifySignature(BODY.replace('ACTIVE', 'DEAD'), KEY, signature)).toBe(false);
    expect(verifySignature(`${BODY} `, KEY, signature)).toBe(false);
    expect(verifySignature(BODY, 'another-key-16by', signature)).toBe(false);
    for (const bad of ['', 'short', 'x'.repeat(108), `${signature.slice(0, 107)}!`, signature.slice(1), null, 42, undefined, {}]) {
      expect(verifySignature(BODY, KEY, bad)).toBe(false);
    }
  });

  it('compares in constant time (crypto.timingSafeEqual over equal-length buffers)', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(readFileSync(new URL('../src/signing/checksum.ts', import.meta.url), 'utf8')).toMatch(/timingSafeEqual\(x, y\)/);
    // The verifier's last step is this comparison: a one-character change in the digest is refused.
    const salt = 'zzzz';
    expect(verifySignature(BODY, KEY, generateSignatureWithSalt(`${BODY}x`, KEY, salt))).toBe(false);
  });

  it('refuses keys that are not 16 bytes, without echoing the key', () => {
    for (const key of ['short-secret', 'a-very-long-merchant-secret-key']) {
      let message = '';
      try {
        generateSignature(BODY, key);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toMatch(/16 bytes/);
      expect(message).not.toContain(key);
    }
    expect(() => createChecksumSigner('bad')).toThrow(TypeError);
  });

  it('plugs into the client and the webhook as signer and verifier', async () => {
    const signer = createChecksumSigner(KEY);
    const verifier = createChecksumVerifier(KEY);
    expect(signer.signatureType).toBe('CHECKSUM');
    expect(await verifier.verify(BODY, await signer.sign(BODY))).toBe(true);
    expect(await verifier.verify(BODY, await createChecksumSigner('0000000000000000').sign(BODY))).toBe(false);
  });
});
