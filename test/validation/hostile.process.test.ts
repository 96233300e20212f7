// Hostile and broken input for the validation API and the CLI: each gets a clear answer, in
// bounded time, nothing throws out of the API, no prototype is polluted.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, validate } from '../../src/index.js';
import { parseJson } from '../../src/json/parse.js';
import { pointerSegment } from '../../src/json/pointer.js';
import { checkJson, decodeUtf8, NOT_UTF8 } from '../../src/json/scan.js';
import { edited, fcParameters } from '../helpers/arbitraries.js';
import { BIN, runCli } from '../helpers/cli.js';
import { expectPrototypesUnchanged, hostileBodies, nestedObjects, prototypeSnapshot } from '../helpers/hostile.js';

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const example = (name: string) => structuredClone(doc.components.examples[name].value);

function nested(depth: number) {
  let value: any = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

const hostile: [string, () => unknown][] = [
  ['null', () => null],
  ['a number', () => 42],
  ['a string', () => 'head'],
  ['an array', () => [1, 2, 3]],
  ['10 000 levels of nesting in the head', () => ({ head: nested(10_000), body: {} })],
  [
    '10 000 levels of nesting inside a free-form map',
    () => {
      const p = example('PayWithUpi');
      p.body.gatewayInfo = nested(10_000);
      return p;
    },
  ],
  [
    'a 10 MB string',
    () => {
      const p = example('PayWithUpi');
      p.body.txnNote = 'x'.repeat(10_000_000);
      return p;
    },
  ],
  [
    'a 10 MB string where a pattern applies',
    () => {
      const p = example('PayWithUpi');
      p.body.payerAccount = 'a'.repeat(10_000_000);
      return p;
    },
  ],
  [
    'a huge array of bad items',
    () => {
      const p = example('ModifyOrderRequest');
      p.body.goodsInfo = Array.from({ length: 100_000 }, () => ({}));
      return p;
    },
  ],
  [
    '__proto__ and constructor keys',
    () =>
      JSON.parse(
        '{"head":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}},"body":{"__proto__":{"polluted":1}}}',
      ),
  ],
  ['true', () => true],
  ['undefined', () => undefined],
  [
    '10 000 levels of nesting where an array of objects is expected',
    () => {
      const p = example('ModifyOrderRequest');
      p.body.goodsInfo = nested(10_000);
      return p;
    },
  ],
  [
    'a 10 MB key in a closed object',
    () => {
      const p = example('PayWithUpi');
      p.head['k'.repeat(10_000_000)] = 1;
      return p;
    },
  ],
  [
    'a 10 MB string in a secret field',
    () => {
      const p = example('PayWithUpi');
      p.head.token = '7'.repeat(10_000_000);
      return p;
    },
  ],
  [
    'a 10 MB string in an enum field',
    () => {
      const p = example('PayWithUpi');
      p.body.paymentMode = 'U'.repeat(10_000_000);
      return p;
    },
  ],
  [
    'a 10 MB string in a format field',
    () => {
      const p = example('CreateFixedUpiSubscription');
      p.body.callbackUrl = `https://${'a'.repeat(10_000_000)}`;
      p.body.userInfo.email = `${'a'.repeat(10_000_000)}@`;
      return p;
    },
  ],
  [
    'a million items in an array',
    () => {
      const p = example('ModifyOrderRequest');
      p.body.goodsInfo = new Array(1_000_000).fill(0);
      return p;
    },
  ],
  [
    'an object with 200 000 keys',
    () => {
      const p = example('PayWithUpi');
      p.body.gatewayInfo = Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, i]));
      p.head = { ...p.head, ...p.body.gatewayInfo };
      return p;
    },
  ],
  [
    'a cyclic object',
    () => {
      const p = example('ModifyOrderRequest');
      p.body.extendInfo = { self: p };
      p.head.loop = p.head;
      return p;
    },
  ],
];

describe('validate() with hostile payloads', () => {
  for (const [what, make] of hostile) {
    it(`answers ${what} with a verdict, without throwing`, () => {
      const before = prototypeSnapshot();
      const payload = make();
      let invalid = 0;
      for (const op of operations) {
        for (const direction of ['request', 'response'] as const) {
          const result = validate(op.operationId, direction, payload);
          if (!result.valid) {
            invalid++;
            expect(result.errors.length).toBeGreaterThan(0);
            expect(result.errors.length).toBeLessThanOrEqual(101);
            for (const e of result.errors) expect(typeof e.message).toBe('string');
          }
        }
      }
      expect(invalid).toBeGreaterThanOrEqual(13);
      expectPrototypesUnchanged(before);
    });
  }

  it('never throws for JavaScript values that JSON cannot hold, even right after an invalid payload', () => {
    const throwing = {
      get head() {
        throw new Error('unreadable');
      },
      body: {},
    };
    const deepThrowing = {
      head: {},
      body: {
        get cardInfo() {
          throw new Error('unreadable');
        },
        paymentMode: 'CREDIT_CARD',
      },
    };
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const values: [string, unknown][] = [
      ['a getter that throws', throwing],
      ['a getter that throws where the first problem is elsewhere', deepThrowing],
      [
        'a proxy whose traps throw',
        new Proxy(
          {},
          {
            get() {
              throw new Error('trap');
            },
            ownKeys() {
              throw new Error('trap');
            },
            getOwnPropertyDescriptor() {
              throw new Error('trap');
            },
          },
        ),
      ],
      ['a revoked proxy', revoked.proxy],
      ['a BigInt', 10n],
      ['a symbol', Symbol('payload')],
      ['a function', () => ({})],
      [
        'an object without prototype',
        Object.assign(Object.create(null), { head: Object.create(null), body: Object.create(null) }),
      ],
      ['a frozen payload', Object.freeze(example('PayWithUpi'))],
      ['a sparse array', [, , 1]],
    ];
    for (const [what, value] of values) {
      for (const op of operations) {
        for (const direction of ['request', 'response'] as const) {
          // An invalid payload first: a validator that throws must not report that payload's errors.
          validate(op.operationId, direction, { head: 1, body: 2 });
          let result: ReturnType<typeof validate> | undefined;
          expect(() => {
            result = validate(op.operationId, direction, value, { query: {}, path: {} });
          }, `${what} ${op.operationId} ${direction}`).not.toThrow();
          if (result && !result.valid) {
            expect(
              result.errors.every((e) => typeof e.message === 'string' && typeof e.pointer === 'string'),
              what,
            ).toBe(true);
            expect(
              result.errors.some((e) => e.pointer === '/head' && e.rule === 'type' && what.startsWith('a getter')),
              `stale errors: ${what}`,
            ).toBe(false);
          }
        }
      }
    }
  });

  it('describes at most 100 issues and counts the rest', () => {
    const p = example('ModifyOrderRequest');
    p.body.goodsInfo = Array.from({ length: 5_000 }, () => ({}));
    const result = validate('modifyOrder', 'request', p, { query: { mid: 'M', orderId: 'O' } });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors).toHaveLength(101);
    expect(result.errors[0]).toMatchObject({ pointer: '/body/goodsInfo/0/description', rule: 'required' });
    expect(result.errors[100]).toMatchObject({ rule: 'moreProblems' });
    expect(result.errors[100].message).toMatch(/^14900 more problem\(s\) not listed/);
  });

  it('lists the first hundred problems of a payload of 100 000 bad items, and counts the rest, in linear time', () => {
    // Each item breaks the rules of a schema compiled as a function of its own: its errors are pushed, not copied (D-138).
    const p = example('ModifyOrderRequest');
    p.body.goodsInfo = Array.from({ length: 100_000 }, () => ({}));
    const result = validate('modifyOrder', 'request', p, { query: { mid: 'M', orderId: 'O' } });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors).toHaveLength(101);
    expect(result.errors[0]).toMatchObject({ pointer: '/body/goodsInfo/0/description', rule: 'required' });
    expect(result.errors[100]).toMatchObject({ rule: 'moreProblems' });
    expect(result.errors[100].message).toMatch(/^299900 more problem\(s\) not listed/);
  });

  it('does not echo a 10 MB value in its issues', () => {
    const p = example('PayWithUpi');
    p.body.payerAccount = `4111111111111111${'9'.repeat(1000)}`;
    const text = JSON.stringify(validate('initiatePayment', 'request', p));
    expect(text).not.toContain('4111111111111111');
    expect(text.length).toBeLessThan(5_000);
  });
});

describe('parsing untrusted JSON text', () => {
  /** The JSON Pointer of the first key repeated in an object of the text (valid JSON otherwise), or null. */
  const duplicateKey = (text: string): string | null => {
    const checked = checkJson(text);
    if (checked.ok) return null;
    const found = /^duplicate key at (.*): a key may appear only once in an object$/.exec(checked.message);
    if (!found) throw new Error(`not JSON: ${checked.message}`);
    return found[1] as string;
  };

  it('refuses duplicate keys and says where', () => {
    expect(parseJson('{"head":{"token":"a","token":"b"},"body":{}}')).toEqual({
      ok: false,
      message: 'duplicate key at /head/token: a key may appear only once in an object',
    });
    expect(duplicateKey('{"a":[{"x":1},{"x":1,"y":{"x":2}}],"b":"\\"a\\":1","a\\u0062":1}')).toBeNull();
    expect(duplicateKey('{"a":[{"x":1},{"x":1,"x":2}]}')).toBe('/<unknown key>/1/<unknown key>');
    expect(duplicateKey('{"body":{"goodsInfo":[{"price":1},{"price":1,"price":2}]}}')).toBe('/body/goodsInfo/1/price');
    expect(duplicateKey('{"m\\u0069d":1,"mid":2}')).toBe('/mid');
    // Escaped quotes and backslashes inside strings do not end them.
    expect(duplicateKey('{"q\\"":"\\\\","q\\"":1}')).toBe('/<unknown key>');
    expect(duplicateKey('{"mid":"a\\"b\\\\","head":{"mid":"\\\\\\"","mid":0}}')).toBe('/head/mid');
    expect(duplicateKey('{"s":"\\\\","t":"\\\\\\\\"}')).toBeNull();
  });

  it('finds the first repeated key as a reading that keeps every key of every open object would, in objects of few and many keys', () => {
    /** The reference: a recursive reading of the value that keeps each object's keys in a Set. */
    function reference(text: string): string | null {
      let i = 0;
      /** The way down: keys (shown as pointers show them) and array indices. */
      const path: string[] = [];
      const space = () => {
        while (/\s/.test(text[i] ?? '')) i++;
      };
      const string = () => {
        const start = i;
        i++;
        while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
        i++;
        return JSON.parse(text.slice(start, i)) as string;
      };
      const value = (): string | null => {
        space();
        if (text[i] === '{') {
          i++;
          const seen = new Set<string>();
          space();
          while (text[i] !== '}') {
            space();
            const key = string();
            if (seen.has(key)) return [...path, pointerSegment(key)].map((k) => `/${k}`).join('');
            seen.add(key);
            space();
            i++; // :
            path.push(pointerSegment(key));
            const found = value();
            path.pop();
            if (found) return found;
            space();
            if (text[i] === ',') i++;
            space();
          }
          i++;
          return null;
        }
        if (text[i] === '[') {
          i++;
          let n = 0;
          space();
          while (text[i] !== ']') {
            path.push(String(n++));
            const found = value();
            path.pop();
            if (found) return found;
            space();
            if (text[i] === ',') i++;
            space();
          }
          i++;
          return null;
        }
        if (text[i] === '"') string();
        else while (i < text.length && !/[,\]}\s]/.test(text[i] as string)) i++;
        return null;
      };
      return value();
    }
    const key = fc.constantFrom('mid', 'orderId', 'a', 'b', 'x\\"y', 'm\u0069d', 'head', 'body');
    const leaf = fc.oneof(fc.integer(), fc.constantFrom('"s"', '"\\\\"', 'true', 'null'));
    const json: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf.map(String),
        fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
        fc
          .array(
            fc.tuple(
              fc.oneof(
                key,
                fc.nat(40).map((n) => `k${n}`),
              ),
              tie('value'),
            ),
            { maxLength: 45 },
          )
          .map((members) => `{${members.map(([k, v]) => `"${k}": ${v}`).join(' ,')}}`),
      ),
    })).value;
    fc.assert(
      fc.property(json, (text) => duplicateKey(text) === reference(text)),
      fcParameters(300),
    );
    // An object of many keys with one repeated far from its first use.
    const many = Array.from({ length: 100 }, (_, n) => `"k${n}":${n}`);
    expect(duplicateKey(`{"body":{${many.join(',')}}}`)).toBeNull();
    expect(duplicateKey(`{"body":{${[...many, '"k5":0'].join(',')}}}`)).toBe('/body/<unknown key>');
    expect(
      duplicateKey(`{"body":{${[...many.slice(0, 40), '"mid":1', ...many.slice(40), '"mid":2'].join(',')}}}`),
    ).toBe('/body/mid');
  });

  it("checkJson gives parseJson's verdict without building the value, on JSON.parse's grammar, and its message for a repeated key", () => {
    /** Whether checkJson and parseJson agree, and their grammar is JSON.parse's: what they call malformed it refuses, what they accept it reads. */
    const same = (input: string | Uint8Array) => {
      const parsed = parseJson(input);
      const checked = checkJson(input);
      if (parsed.ok !== checked.ok) return false;
      if (!parsed.ok && !checked.ok && parsed.message !== checked.message) return false;
      const text = typeof input === 'string' ? input : decodeUtf8(input);
      if (text === null) return !checked.ok && checked.message === NOT_UTF8;
      let parses = true;
      try {
        JSON.parse(text.replace(/^\ufeff/, ''));
      } catch {
        parses = false;
      }
      return checked.ok ? parses : !(parses && /^malformed JSON/.test(checked.message));
    };
    const cases = [
      '{}',
      '[]',
      '0',
      '-0',
      '-',
      '01',
      '1.',
      '1.5',
      '1e',
      '1E+2',
      '1e-2',
      '.5',
      '+1',
      '-a',
      '1.e2',
      '2.0E',
      '"a"',
      String.raw`"\x"`,
      String.raw`"\u12"`,
      String.raw`"\u12G4"`,
      String.raw`"\u00e9"`,
      String.raw`"\/"`,
      String.raw`"\ud800"`,
      '"\u0001"',
      '"\t"',
      '"\ud800"',
      'tru',
      'nul',
      'True',
      'falsey',
      'null null',
      '\u00a0{}',
      '{} ',
      '\ufeff{}',
      '\ufeff\ufeff{}',
      '[1,]',
      '[,1]',
      '{"a":1,}',
      '{"a" 1}',
      '{a:1}',
      "{'a':1}",
      '{"a":1 "b":2}',
      '[1 2]',
      '{"a":[}',
      '{"a":{]}',
      '[[[]]]',
      '{"a":{"b":{"a":1,"a":2}}}',
      '{"a":1,"a":2,"b":}',
      String.raw`{"\u0061":1,"a":2}`,
      '{"a":1}}',
      '[1]]',
      ' \n\t',
      '\u2028{}',
      '{"a":1}\u0000',
      '"unterminated',
      '{"head":{"token":"a","token":"b"},"body":{}}',
    ];
    for (const text of cases) expect(same(text), JSON.stringify(text)).toBe(true);
    for (const body of hostileBodies())
      expect(same(typeof body.bytes === 'string' ? body.bytes : new Uint8Array(body.bytes)), body.what).toBe(true);
    // Valid JSON of every shape, then broken by a few edits of the characters that matter to the grammar.
    const key = fc.constantFrom('mid', 'a', 'b', 'x\\"y', 'm\\u0069d', '\\u0061');
    const text = fc.letrec<{ value: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.json({ maxDepth: 2 }),
        fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
        fc
          .array(
            fc.tuple(
              fc.oneof(
                key,
                fc.nat(40).map((n) => `k${n}`),
              ),
              tie('value'),
            ),
            { maxLength: 40 },
          )
          .map((members) => `{${members.map(([k, v]) => `"${k}": ${v}`).join(' ,')}}`),
      ),
    })).value;
    const broken = edited(text, fc.constantFrom(...'{}[]":,\\ .-+e0u1tfn\u0001'), 200);
    fc.assert(fc.property(fc.oneof(text, broken), same), fcParameters(2000));
    // With a limit of nesting, the same message as parseJson.
    expect(checkJson('[[[1]]]', { maxDepth: 2 })).toEqual(parseJson('[[[1]]]', { maxDepth: 2 }));
    // Objects of many keys (a table of hashes), a key repeated far from its first use, spelled with escapes or not.
    const many = Array.from({ length: 100 }, (_, n) => `"k${n}":${n}`);
    for (const text of [
      '{"a":1,"b":[{},{"c":1,"c":2}]}',
      '{"mid":[0,{"head":{"mid":1,"mid":2}}],"mid":3}',
      `{"body":{${many.join(',')}}}`,
      `{"body":{${[...many, '"k5":0'].join(',')}}}`,
      `{"body":{${[...many.slice(0, 40), '"mid":1', ...many.slice(40), '"m\\u0069d":2'].join(',')}}}`,
      `{"body":{${[...many, '"k5":0'].join(',')},"x":}}`,
    ])
      expect(same(text), text.slice(-40)).toBe(true);
  });

  it('refuses invalid UTF-8, binary input and empty input', () => {
    expect(parseJson(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))).toEqual({
      ok: false,
      message: 'the input is not valid UTF-8 text',
    });
    expect(parseJson(Buffer.from([0x00, 0x01, 0x02, 0x89, 0x50, 0x4e, 0x47]))).toMatchObject({ ok: false });
    expect(parseJson('')).toEqual({ ok: false, message: 'the input is empty' });
    expect(parseJson(Buffer.from('\ufeff{}'))).toEqual({ ok: true, value: {} });
  });

  it('handles 10 000 levels of nesting without recursion', () => {
    const text = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    expect(parseJson(text).ok).toBe(true);
  });
});

describe('the CLI with hostile input', () => {
  it.concurrent.for([
    ['duplicate keys', '{"head":{"token":1,"token":2},"body":{}}', /duplicate key at \/head\/token/],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]), /not valid UTF-8/],
    [
      'binary input',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]),
      /not valid UTF-8|malformed JSON/,
    ],
    ['empty input', '', /the input is empty/],
    ['only whitespace', '  \n ', /the input is empty/],
  ])('fails the case on %s, with its reason in one line', async ([, input, message], { expect }) => {
    const result = await runCli(['validate', 'modifyOrder', 'request', '-'], input as any);
    expect(result.status).toBe(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      name: 'standard input',
      pointer: '',
      rule: 'json',
      message,
    });
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('fails the case on input over --max-bytes, without reading it', async () => {
    const result = await runCli(
      ['validate', 'modifyOrder', 'request', '-', '--max-bytes', '100'],
      JSON.stringify(example('ModifyOrderRequest')),
    );
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      rule: 'maxBytes',
      message: expect.stringMatching(/larger than 100 bytes/),
    });
  });

  it('exits 1 on 10 000 levels of nesting and on a non-object root, quickly', async () => {
    const deep = await runCli(
      ['validate', 'modifyOrder', 'request', '-'],
      `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    );
    expect(deep.status).toBe(1);
    const number = await runCli(
      ['validate', 'modifyOrder', 'request', '-', '--query', 'mid=M', '--query', 'orderId=O'],
      '42',
    );
    expect(number.status).toBe(1);
    expect(JSON.parse(number.stdout)).toMatchObject({ pointer: '', rule: 'type' });
  });
});

describe('hostile bodies, parsed and validated as the CLI does', () => {
  it.each(hostileBodies().map((b) => [b.what, b] as const))('%s: a verdict or a one-line refusal', (_what, body) => {
    const before = prototypeSnapshot();
    const parsed = parseJson(typeof body.bytes === 'string' ? body.bytes : body.bytes);
    expect(parsed.ok).toBe(body.json);
    if (!parsed.ok)
      expect(parsed.message).toMatch(/^(the input is (empty|not valid UTF-8 text)|malformed JSON|duplicate key at )/);
    else {
      let invalid = 0;
      for (const op of operations)
        for (const direction of ['request', 'response'] as const)
          if (!validate(op.operationId, direction, parsed.value).valid) invalid++;
      expect(invalid).toBeGreaterThanOrEqual(13); // a head alone is a valid modify order request
    }
    expectPrototypesUnchanged(before);
  });
});

describe('the CLI process with hostile bodies', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-contract-hostile-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // A heap far smaller than the machine's: input handling that grew with anything but the input's size would fail.
  const BOUNDED = { NODE_OPTIONS: '--max-old-space-size=256' };

  it.each(hostileBodies().map((b) => [b.what, b] as const))(
    '%s: exit 1 with JSON lines, in bounded memory',
    async (_what, body) => {
      const path = join(dir, 'body.json');
      writeFileSync(path, body.bytes);
      const [fromStdin, fromFile] = await Promise.all([
        runCli(
          ['validate', 'initiatePayment', 'request', '-', '--query', 'mid=M', '--query', 'orderId=O'],
          body.bytes as any,
          BOUNDED,
        ),
        runCli(['validate', 'notifyTokenStatus', 'request', path], undefined, BOUNDED),
      ]);
      for (const result of [fromStdin, fromFile]) {
        expect(result.status).toBe(1);
        if (body.json) {
          const lines = result.stdout.trim().split('\n');
          expect(lines.length).toBeLessThanOrEqual(102);
          for (const line of lines)
            expect(JSON.parse(line)).toMatchObject({
              in: expect.any(String),
              pointer: expect.any(String),
              rule: expect.any(String),
              message: expect.any(String),
            });
          expect(result.stdout.length).toBeLessThan(50_000);
        } else {
          // Not JSON: one failed case with its reason.
          expect(JSON.parse(result.stdout)).toMatchObject({ pointer: '', rule: 'json' });
          expect(result.stdout.length).toBeLessThan(500);
          expect(result.stderr.trim().split('\n')).toHaveLength(1);
        }
        expect(result.stderr).not.toMatch(/\n\s+at |Error|EPIPE/);
      }
    },
  );

  it('refuses nesting deeper than 1 000 levels before parsing, in every input form, within the heap --max-bytes allows', async () => {
    // 16 MB of brackets is 8 million levels: parsed, it took over 1 GB and the process died out
    // of memory. Each reader refuses it as a failed case, having built nothing.
    const levels = 8_000_000;
    const deep = `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const file = join(dir, 'deep.json');
    writeFileSync(file, deep);
    const lines = join(dir, 'deep.ndjson');
    writeFileSync(lines, `{"operationId":"modifyOrder","direction":"request","payload":${deep}}\n`);
    const har = join(dir, 'deep.har');
    writeFileSync(
      har,
      JSON.stringify({
        log: {
          entries: [
            {
              request: {
                method: 'POST',
                url: 'https://router.example/aoa-acquiring-biz/v2/modifyOrder',
                postData: { text: deep.slice(4_000_000, -4_000_000) },
              },
            },
          ],
        },
      }),
    );
    const atLimit = join(dir, 'limit.json');
    writeFileSync(atLimit, `{"head":{},"body":{"extendInfo":${nestedObjects(998)}}}`);
    const runs = [
      ['validate', 'modifyOrder', 'request', file],
      ['validate', '--ndjson', lines],
      ['validate', '--har', har],
    ];
    // The runs at once: each is its own process with its own heap.
    const [judged, ...results] = await Promise.all([
      runCli(['validate', 'modifyOrder', 'request', atLimit, '--no-parameters']),
      ...runs.map((args) =>
        runCli([...args, '--format', 'json', '--max-bytes', String(17_000_000)], undefined, {
          NODE_OPTIONS: '--max-old-space-size=512',
        }),
      ),
    ]);
    for (const result of results) {
      expect(result.status, result.stderr.slice(0, 300)).toBe(1);
      const [line, ...more] = result.stdout.trim().split('\n');
      expect(more).toEqual([]);
      expect(JSON.parse(line as string)).toMatchObject({
        pointer: '',
        rule: 'maxDepth',
        message: expect.stringMatching(/nested deeper than 1000 levels/),
      });
    }
    // 1 000 levels in all are read and judged.
    expect(JSON.parse(judged.stdout.trim().split('\n')[0] as string).rule).not.toBe('maxDepth');
  });

  it('stops quietly when the reader closes the pipe early (`| head -1`)', async () => {
    const body = JSON.stringify({ head: {}, body: { goodsInfo: Array.from({ length: 3_000 }, () => ({})) } });
    const child = spawn(process.execPath, [BIN, 'validate', 'modifyOrder', 'request', '-'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const status = await new Promise((resolve) => {
      child.on('close', resolve);
      child.stdin.end(body);
    });
    expect(status).toBe(1);
    // The summary line only: no stack trace, no EPIPE.
    expect(stderr).toMatch(/^1 payload: 0 valid, 1 invalid\n$/);
  });
});
