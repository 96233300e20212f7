// Faults armed in the sandbox, met through the typed client: an answer dropped after the operation
// was carried out, an answer held back, a connection reset and HTTP errors before anything is
// carried out. The state afterwards is what a merchant finds when querying, and the sandbox keeps
// answering other requests while an answer is held back.

import { describe, expect } from 'vitest';
import {
  createChecksumSigner,
  createGatewayClient,
  GatewayError,
  GatewayHttpError,
  GatewayNetworkError,
  GatewayTimeoutError,
} from '../../src/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { control, sandboxTest as it, KEY, MID, order, tokenizeBody, walletPay } from './support.js';

/** A typed client for the sandbox that gives up after `timeoutMs`. */
const client = (sandbox: Sandbox, options: { timeoutMs?: number; retry?: boolean } = {}) =>
  createGatewayClient({
    gatewayUrl: sandbox.url,
    routerUrl: sandbox.url,
    signer: createChecksumSigner(KEY),
    clientId: 'C11',
    version: 'v2',
    now: () => sandbox.clock.now(),
    validate: true,
    timeoutMs: options.timeoutMs ?? 5_000,
    ...(options.retry ? { retry: { baseDelayMs: 1, maxDelayMs: 5 } } : {}),
  });

/** What a call threw (it must throw). */
async function thrown(call: Promise<unknown>): Promise<GatewayError> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('the call did not fail');
}

const pay = (sandbox: Sandbox, o: { orderId: string; txnToken: string }, c = client(sandbox)) =>
  c.initiatePayment({ txnToken: o.txnToken, body: walletPay(o.orderId) });
const balance = async (sandbox: Sandbox) =>
  (await control(sandbox, 'GET', '/sandbox/wallets')).json.wallets.find((w: any) => w.name === 'funded');

describe('arming faults', () => {
  it('arms, lists and disarms faults through the control API', async ({ sandbox }) => {
    const armed = await control(sandbox, 'POST', '/sandbox/faults', {
      operationId: 'initiatePayment',
      fault: 'delay',
      delayMs: 250,
      count: 2,
    });
    expect(armed).toMatchObject({
      status: 201,
      json: {
        id: expect.stringMatching(/^FLT\d+$/),
        operationId: 'initiatePayment',
        fault: 'delay',
        delayMs: 250,
        remaining: 2,
      },
    });
    await control(sandbox, 'POST', '/sandbox/faults', { operationId: 'notifyTokenStatus', fault: 'duplicate-webhook' });
    const listed = await control(sandbox, 'GET', '/sandbox/faults');
    expect(listed.json.faults.map((f: any) => [f.operationId, f.fault, f.remaining])).toEqual([
      ['initiatePayment', 'delay', 2],
      ['notifyTokenStatus', 'duplicate-webhook', 1],
    ]);
    const cleared = await fetch(`${sandbox.url}/sandbox/faults`, { method: 'DELETE' });
    expect([cleared.status, await cleared.json()]).toEqual([200, { cleared: 2 }]);
    expect((await control(sandbox, 'GET', '/sandbox/faults')).json).toEqual({ faults: [] });
    // The overview lists the three calls.
    const calls = (await control(sandbox, 'GET', '/sandbox')).json.control.map((c: any) => `${c.method} ${c.path}`);
    expect(calls).toEqual(
      expect.arrayContaining(['POST /sandbox/faults', 'GET /sandbox/faults', 'DELETE /sandbox/faults']),
    );
  });

  it.for([
    [{ operationId: 'initiatePayment', fault: 'explode' }, '/fault'],
    [{ operationId: 'payNow', fault: 'reset' }, '/operationId'],
    [{ operationId: 'initiatePayment', fault: 'delay' }, '/delayMs'],
    [{ operationId: 'initiatePayment', fault: 'delay', delayMs: 60_001 }, '/delayMs'],
    [{ operationId: 'initiatePayment', fault: 'reset', delayMs: 10 }, '/delayMs'],
    [{ operationId: 'initiatePayment', fault: 'reset', count: 0 }, '/count'],
    [{ operationId: 'initiatePayment', fault: 'reset', count: 1.5 }, '/count'],
    [{ operationId: 'notifyTokenStatus', fault: 'drop-answer' }, '/fault'],
    [{ operationId: 'initiatePayment', fault: 'duplicate-webhook' }, '/fault'],
    [{ operationId: 'initiatePayment', fault: 'reset', '4111111111111111': 1 }, '/<unknown key>'],
  ])('refuses %j, naming %s', async ([body, pointer], { sandbox }) => {
    const answer = await control(sandbox, 'POST', '/sandbox/faults', body);
    expect(answer).toMatchObject({ status: 400, json: { error: { code: 'invalid-request', pointer } } });
    expect(JSON.stringify(answer.json)).not.toContain('4111111111111111');
    expect(() => sandbox.faults.arm(body as any)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('holds at most 100 armed faults', async ({ sandbox }) => {
    for (let i = 0; i < 100; i++) sandbox.faults.arm({ operationId: 'listSubscriptions', fault: 'http-500' });
    const refused = await control(sandbox, 'POST', '/sandbox/faults', {
      operationId: 'listSubscriptions',
      fault: 'http-500',
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toMatch(/At most 100/);
    expect(sandbox.faults.clear()).toBe(100);
  });
});

describe('answers that go wrong', () => {
  it('drop-answer: the payment is made and the answer lost; the order shows it paid, and paying again is refused 201', async ({
    sandbox,
  }) => {
    const o = order(sandbox);
    const before = await balance(sandbox);
    sandbox.faults.arm({ operationId: 'initiatePayment', fault: 'drop-answer' });
    const error = await thrown(pay(sandbox, o));
    expect(error).toBeInstanceOf(GatewayNetworkError);
    expect(error.nextStep).toMatchObject({ action: 'query-status' });
    // What the merchant finds when querying: the payment went through.
    const seen = await control(sandbox, 'GET', `/sandbox/orders/${o.orderId}`);
    expect(seen.json).toMatchObject({ status: 'PAID' });
    const after = await balance(sandbox);
    expect(after.balance).not.toBe(before.balance);
    // The fault was used up: paying again is answered, and refused as already paid.
    const again = await pay(sandbox, o);
    expect(again).toMatchObject({ outcome: 'failure', code: '201', nextStep: { action: 'already-paid' } });
    expect((await balance(sandbox)).balance).toBe(after.balance);
    expect(sandbox.faults.list()).toEqual([]);
  });

  it('drop-answer on tokenize: the token is created, and listed by the control API', async ({ sandbox }) => {
    sandbox.faults.arm({ operationId: 'tokenizeCard', fault: 'drop-answer' });
    const before = (await control(sandbox, 'GET', '/sandbox/tokens?limit=1000')).json.tokens.length;
    await thrown(client(sandbox).tokenizeCard({ mid: MID, body: await tokenizeBody(sandbox, '4111111111111111') }));
    expect((await control(sandbox, 'GET', '/sandbox/tokens?limit=1000')).json.tokens).toHaveLength(before + 1);
  });

  it('delay: the operation is carried out at once, the answer comes later; a client that gives up first is told to query the status', async ({
    sandbox,
  }) => {
    const o = order(sandbox);
    sandbox.faults.arm({ operationId: 'initiatePayment', fault: 'delay', delayMs: 1_500 });
    const error = await thrown(pay(sandbox, o, client(sandbox, { timeoutMs: 150 })));
    expect(error).toBeInstanceOf(GatewayTimeoutError);
    expect(error.nextStep).toMatchObject({ action: 'query-status' });
    expect((await control(sandbox, 'GET', `/sandbox/orders/${o.orderId}`)).json).toMatchObject({ status: 'PAID' });
  });

  it('delay: the sandbox answers other requests while an answer is held back, and the held answer is the real one', async ({
    sandbox,
  }) => {
    const slow = order(sandbox);
    const fast = order(sandbox);
    sandbox.faults.arm({ operationId: 'initiatePayment', fault: 'delay', delayMs: 600 });
    const finished: string[] = [];
    const held = pay(sandbox, slow).then((r) => {
      finished.push('held');
      return r;
    });
    // Let the held request reach the sandbox before the others.
    while ((await control(sandbox, 'GET', `/sandbox/orders/${slow.orderId}`)).json.status !== 'PAID')
      await new Promise((r) => setTimeout(r, 5));
    const other = await pay(sandbox, fast);
    finished.push('other payment');
    expect((await control(sandbox, 'GET', '/sandbox/clock')).status).toBe(200);
    finished.push('control call');
    expect(other.code).toBe('0000');
    expect((await held).code).toBe('0000');
    expect(finished).toEqual(['other payment', 'control call', 'held']);
  });

  it('reset: the connection is closed before anything is carried out; the order is unchanged', async ({ sandbox }) => {
    const o = order(sandbox, '100.00');
    sandbox.faults.arm({ operationId: 'modifyOrder', fault: 'reset' });
    const error = await thrown(
      client(sandbox).modifyOrder({
        mid: MID,
        orderId: o.orderId,
        txnToken: o.txnToken,
        body: { txnAmount: { value: '250.00', currency: 'INR' } },
      }),
    );
    expect(error).toBeInstanceOf(GatewayNetworkError);
    expect(error.nextStep).toMatchObject({ action: 'query-status' });
    const seen = (await control(sandbox, 'GET', `/sandbox/orders/${o.orderId}`)).json;
    expect(seen).toMatchObject({ status: 'CREATED', txnAmount: { value: '100.00' } });
  });

  it('http-500: plain text before anything is carried out; the order is still open and pays afterwards', async ({
    sandbox,
  }) => {
    const o = order(sandbox);
    sandbox.faults.arm({ operationId: 'initiatePayment', fault: 'http-500' });
    const raw = await fetch(`${sandbox.url}/aoa-acquiring-biz/v2/payment?mid=${MID}&orderId=${o.orderId}`, {
      method: 'POST',
      body: '{}',
    });
    expect([raw.status, raw.headers.get('content-type'), raw.headers.get('x-sandbox-fault'), await raw.text()]).toEqual(
      [500, 'text/plain; charset=utf-8', 'http-500', 'Internal Server Error'],
    );
    sandbox.faults.arm({ operationId: 'initiatePayment', fault: 'http-500' });
    const error = await thrown(pay(sandbox, o));
    expect(error).toBeInstanceOf(GatewayHttpError);
    expect(error).toMatchObject({ status: 500, nextStep: { action: 'query-status' } });
    expect((await control(sandbox, 'GET', `/sandbox/orders/${o.orderId}`)).json).toMatchObject({ status: 'CREATED' });
    expect((await pay(sandbox, o)).code).toBe('0000');
  });

  it('http-503 with a count: the next two calls fail with Retry-After, the third is answered; an opted-in retry of list subscriptions gets through', async ({
    sandbox,
  }) => {
    const list = (c = client(sandbox)) =>
      c.listSubscriptions({ token: 'SSO-TOKEN', body: { mid: MID, custId: 'CUST_NONE' } as any });
    sandbox.faults.arm({ operationId: 'listSubscriptions', fault: 'http-503', count: 2 });
    const first = await thrown(list());
    expect(first).toMatchObject({ status: 503, nextStep: { action: 'retry-later' } });
    const raw = await fetch(`${sandbox.url}/subscription/list/all`, { method: 'POST', body: '{}' });
    expect([raw.status, raw.headers.get('retry-after')]).toEqual([503, '1']);
    await raw.text();
    expect((await list()).code).not.toBeUndefined();
    // Once more, with the client's retries on: the 503 is repeated because listing is idempotent.
    sandbox.faults.arm({ operationId: 'listSubscriptions', fault: 'http-503' });
    const retried = await list(client(sandbox, { retry: true }));
    expect(retried.code).not.toBeUndefined();
    expect(sandbox.faults.list()).toEqual([]);
  });
});
