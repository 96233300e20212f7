// The formats the validators check with our own code (scripts/lib/formats.mjs, shipped as
// generated/formats.js) give exactly ajv-formats' full verdicts: on hand-picked cases (impossible
// days, leap years, leap seconds, time zones, IP literals in URIs, percent-encoding, compressed
// IPv6) and on generated strings. Their fast paths only ever accept what the full checks accept.
// And the keyword code the generator writes (scripts/lib/keywordCode.mjs) gives AJV's own verdicts
// and errors. Speed is measured in the benchmark (`npm run bench -- --only formats`), never here.

import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';
import { checkSync } from 'recheck';
import { describe, expect, it } from 'vitest';
import * as shippedModule from '../../generated/formats.js';
import { createAjv } from '../../scripts/lib/ajvBuild.mjs';
import * as oursModule from '../../scripts/lib/formats.mjs';
import { validate } from '../../src/validation/validate.js';
import { edited, fcParameters } from '../helpers/arbitraries.js';

const ours = oursModule as {
  exactFormats: Record<string, ((s: string) => boolean) | { validate: (s: string) => boolean }>;
  commonUri: (s: string) => boolean;
  commonIpv6: (s: string) => boolean;
  COMMON_URI: RegExp;
};
const shipped = shippedModule as typeof ours;
const contract = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const example = (name: string) => structuredClone(contract.components.examples[name].value);
const full: Record<string, any> = (formatsModule as any).fullFormats ?? (formatsModule as any).default.fullFormats;

/**
 * RFC 3339 `date-time` (section 5.6) read from its grammar: `full-date`, then `T` (or `t`, or a
 * space, as its note allows), then `full-time` with `Z` (or `z`) or a `+hh:mm` / `-hh:mm` offset;
 * days of each month and leap years, hours to 23, a leap second only at 23:59:60 UTC. The date-time
 * check is held to this, not to ajv-formats, which takes any white space between date and time,
 * offsets without a colon (`+0530`, `+05`) and the hour 24 of a leap second (D-62).
 */
function rfc3339DateTime(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const leapYear = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leapYear ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (month < 1 || month > 12 || day < 1 || day > (days[month - 1] as number)) return false;
  const [sign, offsetHours, offsetMinutes] = [m[7], Number(m[8] ?? 0), Number(m[9] ?? 0)];
  if (hour > 23 || minute > 59 || second > 60 || offsetHours > 23 || offsetMinutes > 59) return false;
  if (second < 60) return true;
  const utc = hour * 60 + minute - (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  return ((utc % 1440) + 1440) % 1440 === 23 * 60 + 59;
}

const check =
  (f: unknown) =>
  (s: string): boolean =>
    typeof f === 'function'
      ? f(s)
      : f instanceof RegExp
        ? f.test(s)
        : (f as { validate: (s: string) => boolean }).validate(s);
const NAMES = ['date', 'time', 'date-time', 'uri', 'ipv6'] as const;
const oursOf = (name: string) => check(ours.exactFormats[name]);
/** What each check is held to: ajv-formats' full check, and RFC 3339 itself for date-time. */
const fullOf = (name: string) => (name === 'date-time' ? rfc3339DateTime : check(full[name]));

const CASES: Record<(typeof NAMES)[number], string[]> = {
  date: [
    '2026-02-01',
    '2026-02-28',
    '2026-02-29',
    '2026-02-30',
    '2024-02-29',
    '2000-02-29',
    '1900-02-29',
    '2100-02-29',
    '2400-02-29',
    '2026-04-31',
    '2026-12-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '0000-01-01',
    '9999-12-31',
    '2026-1-01',
    '2026/01/01',
    '2026-01-01 ',
    ' 2026-01-01',
    '2026-01-01\n',
    '20260101',
    '２０２６-01-01',
    '2026-01-0a',
    '',
  ],
  time: [
    '10:15:30Z',
    '10:15:30z',
    '10:15:30',
    '10:15:30.123Z',
    '10:15:30.Z',
    '10:15:30.1234567890123+05:30',
    '10:15:30+05:30',
    '10:15:30+0530',
    '10:15:30+05',
    '10:15:30+05:',
    '10:15:30+5:30',
    '10:15:30+24:00',
    '10:15:30+23:60',
    '10:15:30-00:00',
    '23:59:60Z',
    '23:59:60.999Z',
    '23:59:61Z',
    '23:58:60Z',
    '22:59:60Z',
    '23:59:60+00:00',
    '05:29:60+05:30',
    '05:30:60+05:30',
    '00:59:60+01:00',
    '22:59:60-01:00',
    '23:59:59.99999999999999999Z',
    '12:00:59.99999999999999999Z',
    '24:00:00Z',
    '23:60:00Z',
    '99:99:99Z',
    '1:15:30Z',
    '10:15Z',
    '10:15:30ZZ',
    '10:15:30 Z',
    '',
  ],
  'date-time': [
    '2026-01-21T10:15:30+05:30',
    '2026-01-21t10:15:30z',
    '2026-01-21 10:15:30Z',
    '2026-01-21\u00a010:15:30Z',
    '2026-01-21\u200a10:15:30Z',
    '2026-01-21\u2028 10:15:30Z',
    '2026-01-21\t10:15:30Z',
    '2026-01-21\u200b10:15:30Z',
    '2026-01-21TT10:15:30Z',
    '2026-01-21T10:15:30',
    '2026-02-30T10:15:30Z',
    '2024-02-29T23:59:60Z',
    '2026-06-30T23:59:60Z',
    '2026-06-30T18:29:60-05:30',
    '2026-01-21T',
    'T10:15:30Z',
    '2026-01-21X10:15:30Z',
    '2026-01-2110:15:30Z',
    // Where ajv-formats is laxer than RFC 3339: any white space as the separator, offsets without
    // a colon, the hour 24 of a leap second. A long fraction of 59 seconds is 59 seconds.
    '2026-01-21\u300010:15:30Z',
    '2026-01-21\r10:15:30Z',
    '2026-01-21\u2029 10:15:30Z',
    '2026-01-21T10:15:30+0530',
    '2026-01-21T10:15:30+05',
    '2026-01-21T10:15:30-0000',
    '2026-06-30T24:59:60+01:00',
    '2026-07-01T00:59:60+01:00',
    '2026-06-30T24:00:00Z',
    '2026-06-30T23:59:60.5Z',
    '2026-06-30T23:59:61Z',
    '2026-01-21T12:00:59.99999999999999999Z',
    '2026-01-21T10:15:30+24:00',
    '2026-01-21T10:15:30-00:00',
    '',
  ],
  uri: [
    'https://merchant.example.com/subscription/callback',
    'HTTPS://Merchant.Example.COM/Path?q=1#Top',
    'http://example.com',
    'http://example.com/',
    'http://example.com:8080/a/b;c=d?e=f&g=h#i/j?k',
    'http://example.com:/x',
    'http://example.com:80a',
    'http://example.com!x',
    'http://',
    'http:///path',
    'http:/single',
    'http://user:pass@example.com/',
    'http://[::1]:8080/',
    'http://[2001:db8::7]/c=GB?objectClass?one',
    'http://[v7.fe80::1]/',
    'http://192.168.0.1/x',
    'http://256.1.1.1/x',
    'http://ex%41mple.com/',
    'http://example.com/a%20b',
    'http://example.com/a%2',
    'http://example.com/a%zz',
    'http://example.com/a b',
    'http://example.com/é',
    'http://example.com/#frag#more',
    'http://example.com/?q=[x]',
    'mailto:asha@example.com',
    'urn:isbn:0451450523',
    'tel:+91-98765-43210',
    'ldap://[2001:db8::7]/c=GB',
    'news:comp.infosystems.www.servers.unix',
    '1http://example.com',
    '//example.com/path',
    '/relative/path',
    'relative',
    'http:',
    ':',
    '',
  ],
  ipv6: [
    '2001:db8::1',
    '2001:0db8:85a3:0000:0000:8a2e:0370:7334',
    '2001:DB8::A',
    '::',
    '::1',
    '1::',
    '1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7::',
    '::2:3:4:5:6:7:8',
    '1::3:4:5:6:7:8',
    '1:2:3:4:5:6:7:8:9',
    '1::2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7',
    '1::2::3',
    ':1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:',
    '12345::',
    'g::1',
    '::ffff:192.168.1.1',
    '::ffff:192.168.01.1',
    '::ffff:256.1.1.1',
    '1:2:3:4:5:6:1.2.3.4',
    '1:2:3:4:5:6:7:1.2.3.4',
    '1:2:3:4:5::1.2.3.4',
    '1:2:3:4:5:6::1.2.3.4',
    '::1.2.3.4',
    '1.2.3.4',
    '203.0.113.10',
    'fe80::1%eth0',
    '[::1]',
    '',
  ],
};

describe('exact formats', () => {
  for (const name of NAMES) {
    it(`${name}: the same verdicts as ${name === 'date-time' ? 'RFC 3339' : "ajv-formats' full check"} on chosen cases`, () => {
      const mine = oursOf(name);
      const theirs = fullOf(name);
      const verdicts = CASES[name].map((s) => [s, mine(s)]);
      expect(verdicts).toEqual(CASES[name].map((s) => [s, theirs(s)]));
      // Both answers occur among the cases.
      expect(new Set(verdicts.map(([, v]) => v))).toEqual(new Set([true, false]));
    });
  }

  it('date-time: strictly RFC 3339, where ajv-formats is laxer', () => {
    const dateTime = oursOf('date-time');
    const ajv = check(full['date-time']);
    for (const laxer of [
      '2026-01-21\t10:15:30Z',
      '2026-01-21\u00a010:15:30Z',
      '2026-01-21\u300010:15:30Z',
      '2026-01-21T10:15:30+0530',
      '2026-01-21T10:15:30+05',
      '2026-06-30T24:59:60+01:00',
    ]) {
      expect(ajv(laxer), JSON.stringify(laxer)).toBe(true);
      expect(dateTime(laxer), JSON.stringify(laxer)).toBe(false);
    }
    for (const valid of [
      '2026-01-21T10:15:30Z',
      '2026-01-21t10:15:30z',
      '2026-01-21 10:15:30+05:30',
      '2026-07-01T00:59:60+01:00',
      '2026-06-30T23:59:60.5Z',
    ])
      expect(dateTime(valid), valid).toBe(true);
    // time keeps ajv-formats' full check.
    expect(oursOf('time')('10:15:30+0530')).toBe(true);
  });

  it('refuse impossible days and accept leap days and leap seconds as the full checks do', () => {
    const date = oursOf('date');
    expect([date('2026-02-30'), date('2026-04-31'), date('2023-02-29'), date('1900-02-29')]).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect([date('2024-02-29'), date('2000-02-29')]).toEqual([true, true]);
    const time = oursOf('time');
    expect([time('23:59:60Z'), time('05:29:60+05:30'), time('23:59:60+05:30'), time('10:15:30')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  // Strings built from the characters that matter to each format, around valid examples.
  const chars = (alphabet: string) => fc.constantFrom(...alphabet);
  const noisy = (seeds: string[], alphabet: string) =>
    fc.oneof(
      edited(fc.constantFrom(...seeds), chars(alphabet), 60),
      fc.array(chars(alphabet), { maxLength: 30 }).map((a) => a.join('')),
    );
  const ALPHABETS: Record<(typeof NAMES)[number], string> = {
    date: '0123456789-9:T ',
    time: '0123456789:.Zz+-60 ',
    'date-time': '0123456789-:.TtZz+ \t\u00a0\u2028\u3000',
    uri: "aZ09:/?#[]@!$&'()*+,;=%-._~ é\\",
    ipv6: '0123456789abcdefABCDEFg:.:',
  };

  for (const name of NAMES) {
    it(`${name}: the same verdicts as ${name === 'date-time' ? 'RFC 3339' : "ajv-formats' full check"} on generated strings`, () => {
      const mine = oursOf(name);
      const theirs = fullOf(name);
      fc.assert(
        fc.property(noisy(CASES[name], ALPHABETS[name]), (s) => mine(s) === theirs(s)),
        fcParameters(3000),
      );
    });
  }

  it('take a fast path only for strings the full checks accept', () => {
    fc.assert(
      fc.property(noisy(CASES.uri, ALPHABETS.uri), (s) => !ours.commonUri(s) || full.uri(s)),
      fcParameters(3000),
    );
    fc.assert(
      fc.property(noisy(CASES.ipv6, ALPHABETS.ipv6), (s) => !ours.commonIpv6(s) || full.ipv6.test(s)),
      fcParameters(3000),
    );
  });

  it('are what the package ships (generated/formats.js)', () => {
    for (const name of NAMES)
      for (const s of CASES[name]) expect(check(shipped.exactFormats[name])(s)).toBe(oursOf(name)(s));
  });

  it('keep the fast path of URIs free of catastrophic backtracking', () => {
    expect(checkSync(ours.COMMON_URI.source, ours.COMMON_URI.flags, { timeout: 10_000 }).status).toBe('safe');
  });

  it('are the ones validate() uses: 2026-02-30 is not a date', () => {
    const sub = example('CreateFixedUpiSubscription');
    sub.body.subscriptionStartDate = '2026-02-30';
    const result = validate('createSubscription', 'request', sub, { parameters: false });
    expect(!result.valid && result.errors.map((e) => [e.pointer, e.rule])).toContainEqual([
      '/body/subscriptionStartDate',
      'format',
    ]);
  });

  it('leave any other format ajv-formats checks with a function unknown, so that using one fails loudly', () => {
    const doc = { openapi: '3.1.0', components: { schemas: { X: { type: 'string', format: 'byte' } } } };
    expect(() => createAjv(doc).getSchema('openapi.json#/components/schemas/X')).toThrow(/unknown format "byte"/);
  });
});

describe('keyword code of the generator', () => {
  /** Our AJV and a plain one, on the same schema: the same verdict and the same errors. */
  function sameAsAjv(schema: object, values: unknown[]) {
    const doc = { openapi: '3.1.0', components: { schemas: { X: schema } } };
    for (const allErrors of [false, true]) {
      const mine = createAjv(doc, { allErrors }).getSchema('openapi.json#/components/schemas/X');
      const plainAjv = new Ajv2020({ strict: true, allErrors });
      plainAjv.addVocabulary(['openapi', 'components']);
      const plain = plainAjv.addSchema(doc, 'openapi.json').getSchema('openapi.json#/components/schemas/X');
      if (!plain) throw new Error('not compiled');
      if (!mine) throw new Error('not compiled');
      for (const value of values) {
        expect([mine(value), mine.errors ?? null], JSON.stringify(value)).toEqual([plain(value), plain.errors ?? null]);
      }
    }
  }

  const astral = '\u{1F600}';
  const strings = [
    '',
    'a',
    'ab',
    astral,
    `${astral}${astral}`,
    `a${astral}`,
    'abcde',
    `${astral.repeat(3)}a`,
    'x'.repeat(9),
    astral.repeat(5),
    '\ud800',
    '\ud800\ud800',
  ];

  it('minLength and maxLength: the characters of a string counted as AJV counts them', () => {
    for (const limit of [0, 1, 2, 3, 5]) {
      sameAsAjv({ type: 'string', minLength: limit }, strings);
      sameAsAjv({ type: 'string', maxLength: limit }, strings);
    }
  });

  it('$ref: the errors of a referenced schema of its own, in order, however many items break it', () => {
    // Item holds a reference itself, so AJV compiles it as a function of its own: its errors are added to the caller's.
    const doc = {
      openapi: '3.1.0',
      components: {
        schemas: {
          X: { type: 'object', properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Item' } } } },
          Item: {
            type: 'object',
            required: ['name'],
            properties: { name: { $ref: '#/components/schemas/Name' }, n: { type: 'integer' } },
          },
          Name: { type: 'string', minLength: 2 },
        },
      },
    };
    const values = [
      { items: [] },
      { items: [{ name: 'ab' }, {}, { name: 'a', n: 'x' }, 3, { name: 'abc', n: 1 }] },
      { items: Array.from({ length: 50 }, (_, i) => (i % 3 ? {} : { name: 'x' })) },
    ];
    for (const allErrors of [false, true]) {
      const mine = createAjv(doc, { allErrors }).getSchema('openapi.json#/components/schemas/X');
      const plainAjv = new Ajv2020({ strict: true, allErrors });
      plainAjv.addVocabulary(['openapi', 'components']);
      const plain = plainAjv.addSchema(doc, 'openapi.json').getSchema('openapi.json#/components/schemas/X');
      if (!plain || !mine) throw new Error('not compiled');
      for (const value of values)
        expect([mine(value), mine.errors ?? null], JSON.stringify(value)).toEqual([plain(value), plain.errors ?? null]);
    }
  });

  it('additionalProperties: the same keys refused, for schemas of up to and past eight properties', () => {
    for (const size of [3, 8, 9, 24]) {
      const names = Array.from({ length: size }, (_, i) => `p${i}`);
      const schema = {
        type: 'object',
        properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
        additionalProperties: false,
      };
      const values = [
        {},
        Object.fromEntries(names.map((n) => [n, 'v'])),
        { p0: 'v', extra: 1 },
        { toString: 'x' },
        { hasOwnProperty: 'x' },
        JSON.parse('{"__proto__": "x"}'),
        { constructor: 1, p1: 2 },
      ];
      sameAsAjv(schema, values);
      sameAsAjv({ ...schema, patternProperties: { '^x-': {} } }, [...values, { 'x-a': 1 }]);
    }
  });
});
