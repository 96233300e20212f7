// Hostile request bodies (as bytes on the wire) and a check that no built-in prototype changed.
import { expect } from 'vitest';

export const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
export const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

export interface HostileBody {
  what: string;
  bytes: string | Buffer;
  /** whether the text is well-formed JSON (true) or must be refused by the parser (false) */
  json: boolean;
}

const TEN_MB = 10_000_000;

/** Every kind of hostile body, each once. */
export function hostileBodies(): HostileBody[] {
  return [
    { what: 'a null root', bytes: 'null', json: true },
    { what: 'a number root', bytes: '42', json: true },
    { what: 'a string root', bytes: '"head"', json: true },
    { what: 'a boolean root', bytes: 'true', json: true },
    { what: 'an array root', bytes: '[{"head":{},"body":{}}]', json: true },
    { what: '10 000 levels of objects in the head', bytes: `{"head":${nestedObjects(10_000)},"body":{}}`, json: true },
    { what: '10 000 levels of arrays at the root', bytes: nestedArrays(10_000), json: true },
    {
      what: '10 000 levels of arrays where an array of objects is expected',
      bytes: `{"head":{},"body":{"goodsInfo":${nestedArrays(10_000)}}}`,
      json: true,
    },
    {
      what: 'a 10 MB string in a secret field',
      bytes: `{"head":{"tokenType":"TXN_TOKEN","token":"${'7'.repeat(TEN_MB)}"},"body":{}}`,
      json: true,
    },
    {
      what: 'a 10 MB string where a pattern applies',
      bytes: `{"head":{},"body":{"payerAccount":"${'a'.repeat(TEN_MB)}","paymentMode":"UPI"}}`,
      json: true,
    },
    { what: 'a 10 MB key', bytes: `{"head":{"${'k'.repeat(TEN_MB)}":1},"body":{}}`, json: true },
    {
      what: 'a huge array of objects',
      bytes: `{"head":{},"body":{"goodsInfo":[${Array(200_000).fill('{}').join(',')}]}}`,
      json: true,
    },
    {
      what: 'a huge array of numbers',
      bytes: `{"head":{},"body":{"goodsInfo":[${Array(1_000_000).fill('0').join(',')}]}}`,
      json: true,
    },
    {
      what: 'an object with 200 000 keys',
      bytes: `{"head":{${Array.from({ length: 200_000 }, (_, i) => `"k${i}":1`).join(',')}},"body":{}}`,
      json: true,
    },
    {
      what: '__proto__ and constructor keys',
      bytes:
        '{"head":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}},"body":{"__proto__":{"polluted":1},"extendInfo":{"__proto__":"x","constructor":"y"}}}',
      json: true,
    },
    { what: 'duplicate keys', bytes: '{"head":{"token":"a","token":"b"},"body":{}}', json: false },
    {
      what: 'a duplicate __proto__ key',
      bytes: '{"__proto__":{"polluted":1},"__proto__":{"polluted":2}}',
      json: false,
    },
    { what: 'invalid UTF-8', bytes: Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]), json: false },
    {
      what: 'a lone surrogate in UTF-8 bytes',
      bytes: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
      json: false,
    },
    { what: 'empty input', bytes: '', json: false },
    { what: 'only whitespace', bytes: ' \n\t ', json: false },
    { what: 'only a byte order mark', bytes: Buffer.from([0xef, 0xbb, 0xbf]), json: false },
    {
      what: 'binary input',
      bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff, 0xd8]),
      json: false,
    },
    { what: 'a NUL byte inside a string', bytes: Buffer.from('{"head":"a\u0000b"}'), json: false },
    { what: 'UTF-16 text', bytes: Buffer.from('\ufeff{"head":{},"body":{}}', 'utf16le'), json: false },
    { what: 'JSON cut short', bytes: '{"head":{"token":"abc', json: false },
  ];
}

/** The own properties of the built-in prototypes, to compare before and after. */
export function prototypeSnapshot() {
  const protos = [
    Object.prototype,
    Array.prototype,
    Function.prototype,
    String.prototype,
    Number.prototype,
    Boolean.prototype,
  ];
  return protos.map((proto) =>
    Reflect.ownKeys(proto).map((key) => {
      const d = Object.getOwnPropertyDescriptor(proto, key)!;
      return { key, value: d.value, get: d.get, set: d.set, writable: d.writable, enumerable: d.enumerable };
    }),
  );
}

/** Fails when any built-in prototype gained, lost or changed a property, or an empty object shows one. */
export function expectPrototypesUnchanged(before: ReturnType<typeof prototypeSnapshot>) {
  const after = prototypeSnapshot();
  for (let i = 0; i < before.length; i++) {
    expect(after[i].map((p) => p.key)).toEqual(before[i].map((p) => p.key));
    after[i].forEach((p, j) => {
      const q = before[i][j];
      expect(
        p.value === q.value &&
          p.get === q.get &&
          p.set === q.set &&
          p.writable === q.writable &&
          p.enumerable === q.enumerable,
        String(p.key),
      ).toBe(true);
    });
  }
  const probe: any = {};
  expect(probe.polluted).toBeUndefined();
  expect(Object.getPrototypeOf(probe)).toBe(Object.prototype);
}
