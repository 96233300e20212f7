// validateMany(): many payloads in one run, each with exactly validate()'s verdict; what a run keeps
// is bounded; problems are placed on the line of their field.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { modifyOrderRequest } from '../../generated/validators/modifyOrderRequest.js';
import { pointerOffset, pointerPosition } from '../../src/json/position.js';
import { issuesFromAjv, type ValidationIssue } from '../../src/validation/errors.js';
import { validate } from '../../src/validation/validate.js';
import { type CaseResult, type PayloadRecord, validateMany } from '../../src/validation/validateMany.js';
import { contractExamples } from '../helpers/examples.js';
import { loadFixtures } from '../helpers/fixtures.js';

const contract = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));

/** The issues of a modify order request, and how many reads of the contract describing them took. */
function describeCounted(payload: unknown): { issues: ValidationIssue[]; reads: number } {
  let reads = 0;
  const proxies = new WeakMap<object, object>();
  const counted = (node: object): object => {
    let proxy = proxies.get(node);
    if (!proxy) {
      proxy = new Proxy(node, {
        get(target, key) {
          reads++;
          const value = Reflect.get(target, key);
          return value && typeof value === 'object' ? counted(value) : value;
        },
      });
      proxies.set(node, proxy);
    }
    return proxy;
  };
  modifyOrderRequest(payload);
  const issues = issuesFromAjv(
    modifyOrderRequest.errors ?? [],
    counted(contract),
    '#/components/schemas/ModifyOrderRequest',
    payload,
  );
  return { issues, reads };
}

/** A case's problems without the places reports add, to compare with validate()'s. */
const bare = (c: CaseResult) => c.errors.map(({ line: _l, column: _c, ...issue }) => issue);

describe('validateMany()', () => {
  it('gives validate()’s verdict on every fixture and every example of the contract, payload by payload', async () => {
    const records: PayloadRecord[] = [
      ...loadFixtures().map((f) => ({
        name: f.file,
        operationId: f.operationId,
        direction: f.direction,
        payload: f.payload,
        query: f.query,
        path: f.path,
      })),
      ...contractExamples().map((e) => ({
        name: e.name,
        operationId: e.operationId,
        direction: e.direction,
        payload: e.payload,
        query: e.query,
        path: e.path,
      })),
      // The same payloads without their parameters: the requests of four operations become invalid.
      ...contractExamples().map((e) => ({
        name: `${e.name} alone`,
        operationId: e.operationId,
        direction: e.direction,
        payload: e.payload,
      })),
    ];
    const result = await validateMany(records);
    expect(result.cases).toHaveLength(records.length);
    let invalid = 0;
    for (const [i, record] of records.entries()) {
      const c = result.cases[i] as CaseResult;
      const verdict = validate(record.operationId as any, record.direction as any, record.payload, {
        query: record.query,
        path: record.path,
      });
      expect(c.valid, record.name).toBe(verdict.valid);
      expect(bare(c), record.name).toEqual(verdict.valid ? [] : verdict.errors);
      expect(c.resultCode, record.name).toEqual(verdict.valid ? undefined : verdict.resultCode);
      expect(c.errorCount).toBe(verdict.valid ? 0 : verdict.errors.length);
      if (!verdict.valid) invalid++;
    }
    expect(result.counts).toEqual({ cases: records.length, valid: records.length - invalid, invalid, skipped: 0 });
    // Every fixture is invalid, every example valid with its parameters; without them, the requests of tokenize, pay, modify order and create subscription are not.
    expect(invalid).toBe(
      loadFixtures().length + contractExamples().filter((e) => e.direction === 'request' && (e.query || e.path)).length,
    );
  });

  it('judges the payload alone with parameters: false, as validate() does', async () => {
    const records = contractExamples().map((e) => ({
      operationId: e.operationId,
      direction: e.direction,
      payload: e.payload,
    }));
    const result = await validateMany(records, { parameters: false });
    expect(result.counts.invalid).toBe(0);
  });

  it('takes any iterable, sync or async, read one record at a time', async () => {
    const [example] = contractExamples();
    let read = 0;
    async function* records() {
      for (let i = 0; i < 3; i++) {
        read++;
        yield {
          operationId: example?.operationId,
          direction: example?.direction,
          payload: example?.payload,
          query: example?.query,
          path: example?.path,
        };
      }
    }
    expect((await validateMany(records())).counts).toMatchObject({ cases: 3, valid: 3 });
    expect(read).toBe(3);
    const fromSet = await validateMany(new Set([{ operationId: 'modifyOrder', direction: 'request', payload: {} }]));
    expect(fromSet.counts.invalid).toBe(1);
  });

  it('fails a record that could not be read, or that names no operation or direction, and lists skipped ones', async () => {
    const secretLooking = '4929180731215548';
    const result = await validateMany([
      {
        name: 'broken.json',
        source: { file: 'broken.json' },
        unreadable: { rule: 'json', message: 'The input is not JSON: malformed JSON at line 1, column 3.' },
      },
      { name: 'a', operationId: 'payNow', direction: 'request', payload: {} },
      { name: 'b', operationId: secretLooking, direction: 'request', payload: {} },
      { name: 'c', operationId: 'initiatePayment', direction: 'sideways', payload: {} },
      { name: 'd', skipped: 'GET cdn.example/app.js: no operation of the contract at this address' },
    ]);
    expect(result.counts).toEqual({ cases: 4, valid: 0, invalid: 4, skipped: 1 });
    expect(result.cases.map((c) => [c.name, c.operationId, c.errors.map((e) => e.rule)])).toEqual([
      ['broken.json', '<unknown>', ['json']],
      ['a', 'payNow', ['operationId']],
      ['b', '<unknown>', ['operationId']],
      ['c', 'initiatePayment', ['direction']],
    ]);
    expect(result.cases[0]).toMatchObject({ file: 'broken.json', line: 1, errors: [{ line: 1 }] });
    expect(JSON.stringify(result)).not.toContain(secretLooking);
    expect(result.skipped).toEqual([
      { index: 4, name: 'd', reason: 'GET cdn.example/app.js: no operation of the contract at this address' },
    ]);
  });

  it('keeps at most 100 problems per case and maxKeptIssues in the run, and counts them all', async () => {
    const goods = Array.from({ length: 300 }, () => ({ unknown: 1 }));
    const payload = { head: { tokenType: 'TXN_TOKEN', token: 'T' }, body: { goodsInfo: goods } };
    const record = { operationId: 'modifyOrder', direction: 'request', payload, query: { mid: 'M', orderId: 'O' } };
    const result = await validateMany([record, record, record], { maxKeptIssues: 150 });
    const [first, second, third] = result.cases as [CaseResult, CaseResult, CaseResult];
    expect(first.errors).toHaveLength(100);
    expect(first.errorCount).toBeGreaterThan(100);
    expect(second.errors).toHaveLength(50);
    expect(third.errors).toHaveLength(1);
    expect(third.errorCount).toBe(first.errorCount);
  });

  it('describes a payload of many unknown keys, or of many invalid items, with work that does not grow with them', async () => {
    const [example] = contractExamples().filter((e) => e.operationId === 'modifyOrder' && e.direction === 'request');
    const withKeys = (n: number) => {
      const payload = structuredClone(example?.payload);
      payload.body.TXN_AMOUNT = '1.00';
      for (let k = 0; k < n; k++) payload.body[`unknownKey${k}`] = k;
      return payload;
    };
    const withItems = (n: number) => {
      const payload = structuredClone(example?.payload);
      payload.body.goodsInfo = Array.from({ length: n }, (_, i) => ({ unknownKey: i, TXN_AMOUNT: i }));
      return payload;
    };
    // The unknown keys of one object are one problem; the first is named by the field it most likely meant.
    const keys = withKeys(150);
    const [one] = (
      await validateMany([{ operationId: 'modifyOrder', direction: 'request', payload: keys }], { parameters: false })
    ).cases as [CaseResult];
    expect(one.errors.map((e) => [e.pointer, e.rule])).toEqual([['/body/<unknown key>', 'additionalProperties']]);
    expect(one.errors[0]?.message).toContain('Did you mean "txnAmount"?');
    expect(bare(one)).toEqual(
      (validate('modifyOrder', 'request', keys, { parameters: false }) as { errors: unknown[] }).errors,
    );
    // The work is counted as reads of the contract: each unknown key was placed in the contract,
    // worded and then dropped as the same problem (4.6 ms a payload against 0.03 ms valid; 10 000
    // such NDJSON lines took 41 s), and each of a hundred items placed the same rules again.
    const few = describeCounted(withKeys(1));
    const many = describeCounted(withKeys(150));
    expect(many.issues).toEqual(few.issues);
    expect(many.reads, `${few.reads} reads for 1 unknown key`).toBeLessThanOrEqual(few.reads + 50);
    const item = describeCounted(withItems(1));
    const items = describeCounted(withItems(150));
    expect(items.issues).toHaveLength(101);
    expect(items.reads, `${item.reads} reads for 1 invalid item`).toBeLessThanOrEqual(2 * item.reads + 200);
  });

  it('stops at maxCases and says so', async () => {
    function* endless() {
      for (;;) yield { operationId: 'preAuthorize', direction: 'request', payload: {} };
    }
    const result = await validateMany(endless(), { maxCases: 5 });
    expect(result.cases).toHaveLength(5);
    expect(result.truncated).toBe(true);
  });

  it('keeps names to one line of at most 200 characters', async () => {
    const result = await validateMany([
      { name: `a\nb\u001b[31m${'x'.repeat(300)}`, operationId: 'preAuthorize', direction: 'request', payload: {} },
    ]);
    const name = result.cases[0]?.name as string;
    expect(name).toMatch(/^a\?b\?\[31mx+\.\.\.$/);
    expect(name.length).toBe(200);
  });

  it('places each problem on the line and column of its field, within the record’s text', async () => {
    const text =
      '{\n  "head": {\n    "tokenType": "TXN_TOKEN"\n  },\n  "body": {\n    "txnAmount": {"value": "1.001", "currency": "INR"}\n  }\n}\n';
    const result = await validateMany([
      {
        operationId: 'modifyOrder',
        direction: 'request',
        payload: JSON.parse(text),
        query: { mid: 'M', orderId: 'O' },
        source: { file: 'order.json', text },
      },
      // An NDJSON line: the payload inside the record, on line 7 of its file.
      {
        operationId: 'modifyOrder',
        direction: 'request',
        payload: JSON.parse(text),
        source: {
          file: 'cases.ndjson',
          line: 7,
          text: JSON.stringify({ operationId: 'modifyOrder', payload: JSON.parse(text) }),
          pointer: '/payload',
        },
      },
    ]);
    const [file, line] = result.cases as [CaseResult, CaseResult];
    const where = (c: CaseResult, pointer: string) => c.errors.find((e) => e.pointer === pointer);
    expect(where(file, '/body/txnAmount/value')).toMatchObject({ line: 6, column: 28 });
    // A missing field is placed at the object that lacks it.
    expect(where(file, '/head/token')).toMatchObject({ line: 2, column: 11 });
    expect(where(line, '/body/txnAmount/value')).toMatchObject({ line: 7, column: 103 });
    // Query parameters are not in the text: the payload's line.
    expect(where(line, '/mid')).toMatchObject({ in: 'query', line: 7 });
  });
});

describe('JSON positions', () => {
  const text = '\ufeff { "a" : [1, {"b\\u0063": "x", "d": [[], {"e": null}]}], "f/g": {"h~i": true} }';
  // Each offset is where the value starts: `"x"`, `null`, `true`.
  it.each([
    ['', 2],
    ['/a', 10],
    ['/a/1/bc', 26],
    ['/a/1/d/1/e', 47],
    ['/f~1g/h~0i', 72],
    // Not there: the closest ancestor.
    ['/a/7', 10],
    ['/a/1/missing', 14],
    ['/a/0/deeper', 11],
  ])('%s starts at %i', (pointer, offset) => {
    expect(pointerOffset(text, pointer)).toBe(offset);
  });

  it('counts lines and columns from 1', () => {
    expect(pointerPosition('{\n "a": {\n  "b": 1\n }\n}', '/a/b')).toEqual({ line: 3, column: 8 });
  });
});
