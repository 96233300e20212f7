// The result-code tables as one lookup (scripts/lib/codeTableCode.mjs) give AJV's own verdicts and
// errors, error for error, against AJV's code for the same `oneOf` (the plain form): on generated
// objects of every table of the contract (codes of the table and others, statuses right and
// wrong, messages of any type, fields missing) and on the responses that hold them. The tables
// are found by their shape: each table of the contract is one, and a `oneOf` of another shape
// keeps AJV's code. Size is the benchmark's (`npm run bench -- --only bundle`), never here.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.js';
import { createAjv } from '../../scripts/lib/ajvBuild.mjs';
import { codeTableOf } from '../../scripts/lib/codeTableCode.mjs';
import { fcParameters } from '../helpers/arbitraries.js';
import { contractExamples } from '../helpers/examples.js';

const contract = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const schemas = contract.components.schemas as Record<string, any>;

/** Every schema of the contract whose `oneOf` pins a result code per branch. */
const tables = Object.entries(schemas).filter(([, schema]) =>
  schema.oneOf?.every((b: any) => b.properties && Object.values(b.properties).some((p: any) => 'const' in p)),
);
const tableNames = tables.filter(([, s]) => codeTableOf(s.oneOf, s.oneOf[0].required[0])).map(([name]) => name);

const lookup = createAjv(contract, { allErrors: true, messages: false });
const plain = createAjv(contract, { allErrors: true, messages: false }, undefined, { codeTables: false });
const validator = (ajv: typeof lookup, name: string) => {
  const v = ajv.getSchema(`openapi.json#/components/schemas/${name}`);
  if (!v) throw new Error(`${name} is not compiled`);
  return v;
};
/** Both forms on one value: the same verdict and the same errors, in order. */
const same = (name: string, value: unknown) => {
  const mine = validator(lookup, name);
  const theirs = validator(plain, name);
  expect([mine(value), mine.errors ?? null], JSON.stringify(value)).toEqual([theirs(value), theirs.errors ?? null]);
};

describe('a result-code table compiled as one lookup', () => {
  it('is every table of the contract that pins its code and status per branch', () => {
    expect(tableNames.sort()).toEqual(
      expect.arrayContaining([
        'ModifyOrderResultInfo',
        'PaymentResultInfo',
        'PreAuthResult',
        'TokenizeResultInfo',
        'WebhookResultInfo',
      ]),
    );
  });

  it('is not a oneOf of any other shape: those keep AJV’s code', () => {
    expect(codeTableOf(schemas.PaymentRequestBody.oneOf, 'paymentMode')).toBeNull();
    const table = schemas.PaymentResultInfo.oneOf;
    const withExtra = [{ ...table[0], properties: { ...table[0].properties, extra: { type: 'string' } } }, table[1]];
    expect(codeTableOf(withExtra, 'resultCode')).toBeNull();
    expect(codeTableOf([table[0], table[0]], 'resultCode')).toBeNull(); // a code twice
  });

  for (const name of tableNames) {
    const schema = schemas[name];
    const table = codeTableOf(schema.oneOf, schema.oneOf[0].required[0]);
    if (!table) throw new Error(`${name} is no table`);
    const codes = table.rows.map(([code]) => code);
    const statuses = [...new Set(table.rows.map(([, [, status]]) => status))];
    const absent = fc.constant(undefined);
    const field = (values: string[]) =>
      fc.oneof(fc.constantFrom(...values), fc.string({ maxLength: 6 }), fc.integer(), fc.constant(null), absent);
    const object = fc
      .record({
        [table.tag]: field(codes),
        [table.status]: field(statuses),
        ...(table.message ? { [table.message]: fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), absent) } : {}),
        other: fc.oneof(absent, fc.string({ maxLength: 4 })),
      })
      .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));

    it(`gives AJV's verdicts and errors on generated objects: ${name}`, () => {
      fc.assert(
        fc.property(object, (value) => {
          same(name, value);
        }),
        fcParameters(300),
      );
      same(name, []);
      same(name, 'text');
    });
  }

  it('gives AJV’s verdicts and errors on every response of the contract, its result fields broken', () => {
    const responses = contractExamples().filter((e) => e.direction === 'response');
    expect(responses.length).toBeGreaterThan(10);
    for (const example of responses) {
      const name = operations.find((o) => o.operationId === example.operationId)?.response.schema ?? '';
      same(name, example.payload);
      const broken = structuredClone(example.payload) as any;
      const info = broken.body?.resultInfo ?? broken.body;
      if (info && typeof info === 'object') {
        for (const key of ['resultStatus', 'status']) if (key in info) info[key] = 'NOT_A_STATUS';
        for (const key of ['resultMsg', 'statusMessage']) if (key in info) info[key] = 1;
      }
      same(name, broken);
    }
  });
});
