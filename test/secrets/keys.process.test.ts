// Keys are data: a key that is not a field name of the contract (a map key of extendInfo,
// txnRoutingParams, subwalletAmount, FormDetail.headers, ... or an unknown field) never comes out
// of an error, whatever it holds, and every error output stays small whatever the payload's keys.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { HIDDEN_KEY } from '../../src/json/pointer.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import {
  type Direction,
  fcParameters,
  openMapLocations,
  openMapSitesOf,
  operationViews,
  plant,
  type Sample,
  sampleArbitrary,
} from '../helpers/arbitraries.js';
import { runCli } from '../helpers/cli.js';
import { control, MID, rawCall, sandboxFor } from '../sandbox/support.js';

/** A card number sent as a key. */
const SECRET = '4929180731215547';
const options = (s: Sample) => ({ ...(s.query ? { query: s.query } : {}), ...(s.path ? { path: s.path } : {}) });

describe('a secret sent as the key of an open map', () => {
  const { seed } = fcParameters(1);
  const reached = new Set<string>();
  const wanted = new Set<string>();
  for (const view of operationViews) {
    for (const direction of ['request', 'response'] as Direction[]) {
      for (const location of openMapLocations(view.schema(direction))) wanted.add(location);
      it(`is never named by ${view.operationId} ${direction}`, () => {
        let planted = 0;
        for (const sample of fc.sample(sampleArbitrary(view, direction), { seed, numRuns: 60 })) {
          for (const site of openMapSitesOf(view, direction, sample)) {
            reached.add(site.location);
            // A value the map refuses, so an error is reported at the key; or, for a map that takes
            // anything, a valid one (nothing to report, nothing echoed either).
            const variant = plant(sample, [...site.at, SECRET], site.bad ?? 'x');
            const result = validate(view.operationId as never, direction, variant.payload, options(variant));
            expect(JSON.stringify(result)).not.toContain(SECRET);
            if (site.bad !== null) {
              expect(result.valid).toBe(false);
              if (!result.valid) expect(result.errors.some((e) => e.pointer.endsWith(`/${HIDDEN_KEY}`))).toBe(true);
            }
            planted++;
          }
        }
        // Operations whose payloads hold no open map plant nothing.
        expect(planted).toBeGreaterThanOrEqual(0);
      });
    }
  }
  it('reaches every open map of the contract', () => {
    expect(wanted.size).toBeGreaterThanOrEqual(4);
    expect([...wanted].filter((w) => !reached.has(w))).toEqual([]);
  });
});

describe('the size of an error output', () => {
  const modify = (extendInfo: Record<string, unknown>) => ({
    head: { tokenType: 'TXN_TOKEN', token: 'T' },
    body: { extendInfo },
  });

  it('stays small for a 10 MB key and for a thousand keys', () => {
    const huge = validate('modifyOrder', 'request', modify({ [`${SECRET}${'9'.repeat(10_000_000)}`]: 1 }), {
      query: { mid: MID, orderId: 'O' },
    });
    expect(huge.valid).toBe(false);
    expect(JSON.stringify(huge).length).toBeLessThan(10_000);
    const many = validate(
      'modifyOrder',
      'request',
      modify(Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`${SECRET}${i}`, i]))),
      {
        query: { mid: MID, orderId: 'O' },
      },
    );
    expect(many.valid).toBe(false);
    expect(JSON.stringify(many).length).toBeLessThan(100_000);
    expect(JSON.stringify(many)).not.toContain(SECRET);
  });

  it('names a place nested thousands of levels deep in a bounded pointer', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 3000; i++) deep = { mid: deep };
    const result = validate('modifyOrder', 'request', modify({ udf1: deep as Record<string, unknown> }), {
      query: { mid: MID, orderId: 'O' },
    });
    expect(result.valid).toBe(false);
    if (!result.valid) for (const e of result.errors) expect(e.pointer.length).toBeLessThanOrEqual(600);
  });

  it('stays small from the CLI for a 15 MB input of keys', async () => {
    const text = JSON.stringify(modify({ [`${SECRET}${'7'.repeat(15_000_000)}`]: 1 }));
    const run = await runCli(
      ['validate', 'modifyOrder', 'request', '-', '--query', `mid=${MID}`, '--query', 'orderId=O'],
      text,
    );
    expect(run.status).toBe(1);
    expect(run.stdout.length + run.stderr.length).toBeLessThan(10_000);
    expect(run.stdout + run.stderr).not.toContain(SECRET);
  });
});

describe('the sandbox', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await sandboxFor();
  });
  afterAll(() => sandbox.stop());

  it('keeps a secret key out of x-sandbox-issues and out of the control API', async () => {
    const answer = await rawCall(
      sandbox,
      `/aoa-acquiring-biz/v2/modifyOrder?mid=${MID}&orderId=O`,
      JSON.stringify({ head: { tokenType: 'TXN_TOKEN', token: 'T' }, body: { extendInfo: { [SECRET]: 1 } } }),
    );
    const issues = answer.headers.get('x-sandbox-issues') ?? '';
    expect(issues).toContain(HIDDEN_KEY);
    expect(issues).not.toContain(SECRET);
    const created = await control(sandbox, 'POST', '/sandbox/orders', {
      txnAmount: { value: '10.00' },
      extendInfo: { [SECRET]: 1 },
    });
    expect(created.status).toBe(400);
    expect(JSON.stringify(created.json)).not.toContain(SECRET);
    const unknown = await control(sandbox, 'POST', '/sandbox/orders', { txnAmount: { value: '10.00' }, [SECRET]: 1 });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.json)).not.toContain(SECRET);
  });
});
