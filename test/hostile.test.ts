// Hostile and broken input for the validation API and the CLI: each gets a clear answer, in
// bounded time, nothing throws out of the API, no prototype is polluted.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { validate, operations } from '../src/index.js';
import { parseJson, duplicateKey } from '../src/cli/json.js';
import { runCli } from './helpers/cli.js';

const doc = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8'));
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
  ['10 000 levels of nesting inside a free-form map', () => { const p = example('PayWithUpi'); p.body.gatewayInfo = nested(10_000); return p; }],
  ['a 10 MB string', () => { const p = example('PayWithUpi'); p.body.txnNote = 'x'.repeat(10_000_000); return p; }],
  ['a 10 MB string where a pattern applies', () => { const p = example('PayWithUpi'); p.body.payerAccount = 'a'.repeat(10_000_000); return p; }],
  ['a huge array of bad items', () => { const p = example('ModifyOrderRequest'); p.body.goodsInfo = Array.from({ length: 100_000 }, () => ({})); return p; }],
  ['__proto__ and constructor keys', () => JSON.parse('{"head":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}},"body":{"__proto__":{"polluted":1}}}')],
];

describe('validate() with hostile payloads', () => {
  for (const [what, make] of hostile) {
    it(`answers ${what} with a verdict, without throwing`, () => {
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
      expect(({} as any).polluted).toBeUndefined();
      expect((Object.prototype as any).polluted).toBeUndefined();
    });
  }

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

  it('describes only the first problem of a payload too large to list them all', () => {
    const p = example('ModifyOrderRequest');
    p.body.goodsInfo = Array.from({ length: 100_000 }, () => ({}));
    const result = validate('modifyOrder', 'request', p, { query: { mid: 'M', orderId: 'O' } });
    expect(!result.valid && result.errors.map((e) => [e.pointer, e.rule])).toEqual([['/body/goodsInfo/0/description', 'required'], ['', 'moreProblems']]);
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
  it('refuses duplicate keys and says where', () => {
    expect(parseJson('{"head":{"token":"a","token":"b"},"body":{}}')).toEqual({ ok: false, message: 'duplicate key at /head/token: a key may appear only once in an object' });
    expect(duplicateKey('{"a":[{"x":1},{"x":1,"y":{"x":2}}],"b":"\\"a\\":1","a\\u0062":1}')).toBeNull();
    expect(duplicateKey('{"a":[{"x":1},{"x":1,"x":2}]}')).toBe('/a/1/x');
    expect(duplicateKey('{"a\\u0062":1,"ab":2}')).toBe('/ab');
  });

  it('refuses invalid UTF-8, binary input and empty input', () => {
    expect(parseJson(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))).toEqual({ ok: false, message: 'the input is not valid UTF-8 text' });
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
  it.each([
    ['duplicate keys', '{"head":{"a":1,"a":2},"body":{}}', /duplicate key at \/head\/a/],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]), /not valid UTF-8/],
    ['binary input', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]), /not valid UTF-8|malformed JSON/],
    ['empty input', '', /the input is empty/],
    ['only whitespace', '  \n ', /the input is empty/],
  ])('exits 2 on %s with one line', async (_what, input, message) => {
    const result = await runCli(['validate', 'modifyOrder', 'request', '-'], input as any);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 on input over --max-bytes', async () => {
    const result = await runCli(['validate', 'modifyOrder', 'request', '-', '--max-bytes', '100'], JSON.stringify(example('ModifyOrderRequest')));
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/larger than 100 bytes/);
  });

  it('exits 1 on 10 000 levels of nesting and on a non-object root, quickly', async () => {
    const deep = await runCli(['validate', 'modifyOrder', 'request', '-'], `${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    expect(deep.status).toBe(1);
    const number = await runCli(['validate', 'modifyOrder', 'request', '-'], '42');
    expect(number.status).toBe(1);
    expect(JSON.parse(number.stdout)).toMatchObject({ pointer: '', rule: 'type' });
  });
});
