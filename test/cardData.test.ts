// The card data of encryptedCardData: checked (digits, Luhn, month, year, expiry, CVV), encrypted
// with the merchant's RSA key, and never echoed.

import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildCardPlaintext, CardDataError, encryptCardData, passesLuhn } from '../src/index.js';

const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const NOW = new Date('2026-11-23T00:00:00Z');
const CARD = { cardNumber: '4111111111111111', expiryMonth: '12', expiryYear: '2030', securityCode: '737' };

function issuesOf(card: any) {
  try {
    buildCardPlaintext(card, { now: NOW });
  } catch (e) {
    return e as CardDataError;
  }
  throw new Error('expected a CardDataError');
}

describe('card data', () => {
  it('builds the plaintext of section 2.3 and encrypts it with OAEP-SHA256 by default', () => {
    expect(buildCardPlaintext(CARD, { now: NOW })).toBe('{"cardNumber":"4111111111111111","expiryMonth":"12","expiryYear":"2030","securityCode":"737"}');
    const cipher = encryptCardData(CARD, publicKey, { now: NOW });
    expect(cipher).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const plain = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(cipher, 'base64')).toString();
    expect(JSON.parse(plain)).toEqual(CARD);
    expect(cipher).not.toBe(encryptCardData(CARD, publicKey, { now: NOW }));
  });

  it('encrypts with PKCS#1 v1.5 when asked', () => {
    const cipher = encryptCardData(CARD, publicKey, { padding: 'RSA_PKCS1_PADDING', now: NOW });
    expect(Buffer.from(cipher, 'base64')).toHaveLength(256);
    expect(() => privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(cipher, 'base64'))).toThrow();
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

  it('refuses a bad key and an unknown padding without echoing them', () => {
    expect(() => encryptCardData(CARD, '-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----', { now: NOW })).toThrow(/not a valid PEM/);
    expect(() => encryptCardData(CARD, publicKey, { padding: 'NONE' as any, now: NOW })).toThrow(/padding must be/);
    const ec = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    expect(() => encryptCardData(CARD, ec.publicKey, { now: NOW })).toThrow(/must be an RSA key/);
  });

  it('implements Luhn', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('5555555555554444')).toBe(true);
    expect(passesLuhn('5555555555554445')).toBe(false);
  });
});
