// What the control API trusts: a caller on the machine that addresses the sandbox by its own
// address, never a web page. A request with a foreign Origin (or one a browser marks cross-site),
// or a Host other than the address the sandbox is bound to, is refused; a control body must be
// JSON, so that no page can send one without a preflight (the bank page also takes the form its
// bankForm declares). The operations are served as before.
import { request } from 'node:http';
import { describe, expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { clientFor, control, sandboxTest as it, MID, order, payBody, sandboxFor, walletPay } from './support.js';

/** A request as any client may send it: every header given as is, Host included. */
function raw(sandbox: Sandbox, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; json: any }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: sandbox.port,
        method,
        path,
        headers: { host: `127.0.0.1:${sandbox.port}`, ...headers },
        setHost: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A payment of an order left in process (the slow wallet), and its order id. */
async function pendingPayment(sandbox: Sandbox) {
  const o = order(sandbox, '1.00', { svcSsoToken: 'sso-pending-wallet' });
  await clientFor(sandbox).initiatePayment({
    txnToken: o.txnToken,
    body: payBody(o.orderId, { paymentMode: 'WALLET', walletInfo: { paymentFlow: 'PAY' } }),
  });
  return o.orderId;
}

const status = async (sandbox: Sandbox, orderId: string) =>
  (await control(sandbox, 'GET', `/sandbox/orders/${orderId}`)).json.status;

describe('control API: a foreign Origin is refused', () => {
  it('refuses a web page of another origin, whatever the call: 403, nothing changes', async ({ sandbox }) => {
    const orderId = await pendingPayment(sandbox);
    for (const origin of [
      'http://evil.example',
      'https://127.0.0.1',
      `http://127.0.0.1:${sandbox.port + 1}`,
      'null',
      `http://localhost:${sandbox.port}.evil.example`,
    ]) {
      const reset = await raw(sandbox, 'POST', '/sandbox/reset', { origin });
      expect(reset.status).toBe(403);
      expect(reset.json.error.code).toBe('foreign-origin');
      expect((await raw(sandbox, 'GET', '/sandbox/wallets', { origin })).status).toBe(403);
      const completed = await raw(
        sandbox,
        'POST',
        `/sandbox/orders/${orderId}/complete`,
        { origin, 'content-type': 'application/json' },
        '{"outcome":"success"}',
      );
      expect(completed.status).toBe(403);
    }
    expect(await status(sandbox, orderId)).toBe('PENDING');
  });

  it("accepts the sandbox's own origins, and a caller that sends none", async ({ sandbox }) => {
    for (const origin of [`http://127.0.0.1:${sandbox.port}`, `http://localhost:${sandbox.port}`])
      expect((await raw(sandbox, 'GET', '/sandbox', { origin })).status).toBe(200);
    expect((await raw(sandbox, 'GET', '/sandbox')).status).toBe(200);
  });

  it('refuses a request a browser marks as cross-site (Sec-Fetch-Site), even without an Origin', async ({
    sandbox,
  }) => {
    for (const site of ['cross-site', 'same-site'])
      expect((await raw(sandbox, 'GET', '/sandbox/faults', { 'sec-fetch-site': site })).status).toBe(403);
    for (const site of ['same-origin', 'none'])
      expect((await raw(sandbox, 'GET', '/sandbox/faults', { 'sec-fetch-site': site })).status).toBe(200);
  });
});

describe('control API: the Host must be the address the sandbox is bound to', () => {
  it('refuses another Host (a rebound DNS name, another port): 403', async ({ sandbox }) => {
    for (const host of [
      'evil.example',
      `evil.example:${sandbox.port}`,
      `127.0.0.1:${sandbox.port + 1}`,
      '127.0.0.1',
      `localhost.evil.example:${sandbox.port}`,
    ]) {
      const answer = await raw(sandbox, 'GET', '/sandbox', { host });
      expect(answer.status).toBe(403);
      expect(answer.json.error.code).toBe('foreign-host');
    }
    expect((await raw(sandbox, 'POST', '/sandbox/reset', { host: 'evil.example' })).status).toBe(403);
  });

  it('accepts 127.0.0.1, localhost and [::1] at its port, in any case', async ({ sandbox }) => {
    for (const host of [
      `127.0.0.1:${sandbox.port}`,
      `localhost:${sandbox.port}`,
      `LOCALHOST:${sandbox.port}`,
      `[::1]:${sandbox.port}`,
    ])
      expect((await raw(sandbox, 'GET', '/sandbox/clock', { host })).status).toBe(200);
  });

  it('accepts the host it was told to bind, when that is another name of the machine', async () => {
    const bound = await sandboxFor({ host: 'localhost' });
    try {
      const answer = await fetch(`http://localhost:${bound.port}/sandbox/clock`);
      expect(answer.status).toBe(200);
    } finally {
      await bound.stop();
    }
  });
});

describe('control API: a body must be JSON', () => {
  it('refuses text/plain and form bodies with 415: no fault armed, no payment completed', async ({ sandbox }) => {
    const armed = await raw(
      sandbox,
      'POST',
      '/sandbox/faults',
      { 'content-type': 'text/plain' },
      '{"operationId":"initiatePayment","fault":"drop-answer"}',
    );
    expect(armed.status).toBe(415);
    expect(armed.json.error.code).toBe('unsupported-media-type');
    expect(sandbox.faults.list()).toEqual([]);
    const orderId = await pendingPayment(sandbox);
    const form = await raw(
      sandbox,
      'POST',
      `/sandbox/orders/${orderId}/complete`,
      { 'content-type': 'application/x-www-form-urlencoded' },
      'outcome=success',
    );
    expect(form.status).toBe(415);
    expect((await raw(sandbox, 'POST', '/sandbox/orders', {}, '{"txnAmount":{"value":"1.00"}}')).status).toBe(415);
    expect(await status(sandbox, orderId)).toBe('PENDING');
    // JSON with its charset is JSON; an empty body needs no type.
    const json = await raw(
      sandbox,
      'POST',
      `/sandbox/orders/${orderId}/complete`,
      { 'content-type': 'Application/JSON; charset=utf-8' },
      '{"outcome":"success"}',
    );
    expect(json.status).toBe(200);
    expect((await raw(sandbox, 'DELETE', '/sandbox/faults')).status).toBe(200);
  });

  it('the bank page takes the form its bankForm declares, from a caller that is not a web page of another origin', async ({
    sandbox,
  }) => {
    const o = order(sandbox);
    const paid = await clientFor(sandbox).initiatePayment({
      txnToken: o.txnToken,
      body: payBody(o.orderId, { paymentMode: 'NET_BANKING', channelCode: 'SBI' }),
    });
    const form = (paid.data.body as any).bankForm.redirectForm;
    const path = new URL(form.actionURL).pathname;
    const fields = new URLSearchParams({ ...form.content, action: 'submit' }).toString();
    const refused = await raw(sandbox, 'POST', path, { ...form.headers, origin: 'http://evil.example' }, fields);
    expect(refused.status).toBe(403);
    expect(await status(sandbox, o.orderId)).toBe('PENDING');
    const submitted = await raw(sandbox, 'POST', path, form.headers, fields);
    expect(submitted.status).toBe(200);
    expect(await status(sandbox, o.orderId)).toBe('PAID');
  });
});

describe('the operations', () => {
  it('are served as before, whatever the Origin, Host or body type', async ({ sandbox }) => {
    const o = order(sandbox);
    const body = JSON.stringify({ head: { tokenType: 'TXN_TOKEN', token: o.txnToken }, body: walletPay(o.orderId) });
    const answer = await raw(
      sandbox,
      'POST',
      `/aoa-acquiring-biz/v2/payment?mid=${MID}&orderId=${o.orderId}`,
      { origin: 'http://evil.example', host: 'gateway.example', 'content-type': 'text/plain' },
      body,
    );
    expect(answer.status).toBe(200);
    expect(answer.json.body.resultInfo.resultCode).toBe('0000');
  });
});
