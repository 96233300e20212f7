// One reading of a query wherever one is judged (validate(), the proxy, the sandbox, the HAR reader):
// a parameter of the contract given more than once is the problem repeatedParameter, never its first
// or last value; the three forms validate() takes read alike; the typed client never repeats one.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChecksumSigner, createGatewayClient, validate } from '../../src/index.js';
import { type RunningProxy, startProxy } from '../../src/proxy/server.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { readQuery } from '../../src/validation/query.js';
import { fcParameters } from '../helpers/arbitraries.js';
import { contractExamples } from '../helpers/examples.js';
import { control, MID, order, rawCall, sandboxFor, T0, walletPay } from '../sandbox/support.js';

const PAY = contractExamples().find(
  (e) => e.operationId === 'initiatePayment' && e.direction === 'request' && e.name === 'payWithWallet',
);
if (!PAY) throw new Error('no payWithWallet example');
const NAMES = ['mid', 'orderId'];

describe('readQuery', () => {
  /** A query as a list of (name, value) pairs: contract names and others, some repeated. */
  const pairs = fc.array(
    fc.tuple(fc.constantFrom('mid', 'orderId', 'other', 'x y', '__proto__'), fc.string({ maxLength: 6 })),
    { maxLength: 8 },
  );

  it('reads a query string, a URLSearchParams and a record of arrays alike; a repeated contract parameter is its problem, never a value', () => {
    fc.assert(
      fc.property(pairs, (list) => {
        const search = new URLSearchParams(list);
        const record: Record<string, string[]> = Object.create(null);
        for (const [name, value] of list) record[name] = [...(record[name] ?? []), value];
        const readings = [
          readQuery(search.toString(), NAMES),
          readQuery(`?${search}`, NAMES),
          readQuery(search, NAMES),
          readQuery(record, NAMES),
        ];
        for (const reading of readings) {
          expect({ ...reading.query }).toEqual({ ...readings[0]?.query });
          expect(reading.issues).toEqual(readings[0]?.issues);
        }
        const reading = readings[0];
        for (const name of new Set(list.map(([n]) => n))) {
          const values = list.filter(([n]) => n === name).map(([, v]) => v);
          const repeated = values.length > 1 && NAMES.includes(name);
          expect(reading?.repeated.includes(name)).toBe(repeated);
          if (repeated) {
            expect(Object.hasOwn(reading?.query ?? {}, name)).toBe(false);
            expect(reading?.issues).toContainEqual(
              expect.objectContaining({ in: 'query', pointer: `/${name}`, rule: 'repeatedParameter' }),
            );
          } else expect(reading?.query[name]).toBe(values[0]);
        }
        expect(reading?.issues.length).toBe(reading?.repeated.length);
      }),
      fcParameters(1_000),
    );
  });

  it('takes a record of strings as it is', () => {
    const query = { mid: 'M', orderId: 'O' };
    expect(readQuery(query, NAMES)).toEqual({ query, issues: [], repeated: [] });
  });
});

describe('validate() with a query as received', () => {
  it('accepts the example with its query in every form', () => {
    const query = PAY.query as Record<string, string>;
    for (const form of [
      query,
      new URLSearchParams(query),
      `?${new URLSearchParams(query)}`,
      { mid: [query.mid as string], orderId: query.orderId },
    ])
      expect(validate('initiatePayment', 'request', PAY.payload, { query: form })).toEqual({ valid: true });
  });

  it('refuses a repeated orderId in every form, naming it, without a missing parameter besides', () => {
    const query = PAY.query as Record<string, string>;
    const text = `mid=${query.mid}&orderId=${query.orderId}&orderId=OTHER`;
    for (const form of [
      text,
      new URLSearchParams(text),
      { mid: query.mid, orderId: [query.orderId as string, 'OTHER'] },
    ]) {
      const verdict = validate('initiatePayment', 'request', PAY.payload, { query: form });
      expect(verdict.valid).toBe(false);
      if (verdict.valid) continue;
      expect(verdict.errors.map((e) => [e.in, e.pointer, e.rule])).toEqual([
        ['query', '/orderId', 'repeatedParameter'],
      ]);
      expect(verdict.resultCode?.code).toBeTypeOf('string');
    }
  });
});

describe('the proxy and the sandbox read a repeated parameter alike', () => {
  let sandbox: Sandbox;
  let enforcing: RunningProxy;
  let reporting: RunningProxy;
  beforeAll(async () => {
    sandbox = await sandboxFor();
    enforcing = await startProxy({ gatewayUpstream: sandbox.url, routerUpstream: sandbox.url, port: 0, enforce: true });
    reporting = await startProxy({ gatewayUpstream: sandbox.url, routerUpstream: sandbox.url, port: 0 });
  });
  afterAll(async () => {
    await enforcing?.stop();
    await reporting?.stop();
    await sandbox?.stop();
  });

  /** A wallet payment of a new order whose query names the order twice: another id first, the real one last. */
  function twice() {
    const o = order(sandbox);
    const text = JSON.stringify({
      head: {
        requestTimeStamp: String(T0),
        channelId: 'WEB',
        tokenType: 'TXN_TOKEN',
        token: o.txnToken,
        version: 'v1',
      },
      body: walletPay(o.orderId),
    });
    return { o, text, path: `/aoa-acquiring-biz/v2/payment?mid=${MID}&orderId=ORDER-ELSEWHERE&orderId=${o.orderId}` };
  }
  const orderStatus = async (orderId: string) =>
    (await control(sandbox, 'GET', `/sandbox/orders/${orderId}`)).json.status;

  it('enforce refuses it with 422 and never forwards it', async () => {
    const { o, text, path } = twice();
    const answer = await fetch(`${enforcing.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    expect(answer.status).toBe(422);
    const problem = (await answer.json()) as { errors: { in: string; pointer: string; rule: string }[] };
    expect(problem.errors).toContainEqual(
      expect.objectContaining({ in: 'query', pointer: '/orderId', rule: 'repeatedParameter' }),
    );
    expect(await orderStatus(o.orderId)).toBe('CREATED');
  });

  it('the sandbox answers it as a request that breaks the contract and pays nothing; report mode records it invalid', async () => {
    const direct = twice();
    const answer = await rawCall(sandbox, direct.path, direct.text);
    expect(answer.json.body.resultInfo.resultCode).not.toBe('0000');
    expect(answer.headers.get('x-sandbox-issues') ?? '').toContain('repeatedParameter');
    expect(await orderStatus(direct.o.orderId)).toBe('CREATED');

    const through = twice();
    const forwarded = await fetch(`${reporting.url}${through.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: through.text,
    });
    expect(forwarded.status).toBe(200);
    expect(
      reporting
        .report()
        .cases.at(-1)
        ?.errors.map((e) => e.rule),
    ).toContain('repeatedParameter');
    expect(await orderStatus(through.o.orderId)).toBe('CREATED');
  });
});

describe('the typed client', () => {
  it('never sends a parameter of the contract twice (generated arguments)', async () => {
    const urls: string[] = [];
    const answer = JSON.stringify({ head: {}, body: {} });
    const client = createGatewayClient({
      gatewayUrl: 'http://gateway.test',
      routerUrl: 'http://router.test/base/',
      signer: createChecksumSigner('SandboxTestKey01'),
      clientId: 'C11',
      fetch: async (request: Request) => {
        urls.push(request.url);
        return new Response(answer, { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    const id = fc.string({ minLength: 1, maxLength: 10 });
    await fc.assert(
      fc.asyncProperty(id, id, id, async (mid, orderId, requestId) => {
        urls.length = 0;
        const calls = [
          client.initiatePayment({ txnToken: 'T', body: { ...walletPay(orderId), mid } }),
          client.modifyOrder({ mid, orderId, txnToken: 'T', body: {} as never }),
          client.tokenizeCard({ mid, requestId, body: { encryptedCardData: 'ZW5jcnlwdGVk' } as never }),
        ];
        await Promise.allSettled(calls);
        expect(urls.length).toBe(calls.length);
        for (const url of urls) {
          const params = new URL(url).searchParams;
          for (const name of new Set(params.keys())) expect(params.getAll(name), `${name} in ${url}`).toHaveLength(1);
        }
      }),
      fcParameters(200),
    );
  });
});
