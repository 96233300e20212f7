// The sandbox as a server: it never crashes and always answers in the operation's own envelope
// (never Prism's 422), never echoes a secret, keeps its control API apart under /sandbox/, and runs
// from the command line with --help, a free port and Ctrl-C.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect, Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { resolve as resolvePath } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateSignature } from '../../src/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { BIN, runCli } from '../helpers/cli.js';
import { clientFor, control, expectValidAnswer, KEY, MID, order, rawCall, sandboxFor, walletPay } from './support.js';

let sandbox: Sandbox;
const logs: string[] = [];
beforeAll(async () => {
  sandbox = await sandboxFor({ maxBodyBytes: 4096, onLog: (line) => logs.push(line) });
});
afterAll(async () => {
  await sandbox.stop();
  expect(sandbox.answerProblems).toEqual([]);
});

const OPERATIONS = [
  ['tokenizeCard', `/coft-center/coft/merchant/${MID}/tokenize?requestId=R1`, '400'],
  ['preAuthorize', '/order/v2/preAuth', '501'],
  ['listSubscriptions', '/subscription/list/all', '400'],
  ['initiatePayment', `/aoa-acquiring-biz/v2/payment?mid=${MID}&orderId=O1`, '2222'],
  ['modifyOrder', `/aoa-acquiring-biz/v2/modifyOrder?mid=${MID}&orderId=O1`, '2222'],
  ['createSubscription', `/aoa-subscription/api/v2/subscription/create?mid=${MID}&orderId=O1`, '501'],
] as const;

/** The result code of an answer, wherever its operation keeps it. */
const codeOf = (answer: any) => answer.body.resultInfo?.resultCode ?? answer.body.statusCode;

describe("sandbox server: bad input gets the operation's envelope", () => {
  it.each(OPERATIONS)(
    '%s: malformed JSON, a non-object, invalid UTF-8 and repeated keys get %s',
    async (operationId, path, code) => {
      for (const text of [
        '{"head": {',
        '[1,2]',
        '"text"',
        'null',
        '',
        Buffer.from([0x7b, 0xff, 0x7d]),
        '{"head":{},"head":{}}',
      ]) {
        const answer = await rawCall(sandbox, path, text);
        expect(answer.status).toBe(200);
        expect(codeOf(answer.json)).toBe(code);
        expectValidAnswer(operationId, answer.json);
      }
    },
  );

  it.each(OPERATIONS)(
    '%s: a body above the size limit gets HTTP 413 with the envelope, and the sandbox goes on',
    async (operationId, path, code) => {
      const answer = await rawCall(sandbox, path, JSON.stringify({ head: {}, body: { pad: 'x'.repeat(5000) } }));
      expect(answer.status).toBe(413);
      expect(codeOf(answer.json)).toBe(code);
      expectValidAnswer(operationId, answer.json);
      const o = order(sandbox);
      expect(
        (await clientFor(sandbox).initiatePayment({ txnToken: o.txnToken, body: walletPay(o.orderId) })).code,
      ).toBe('0000');
    },
  );

  it('any JSON at all gets HTTP 200 and a valid envelope of the operation (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...OPERATIONS),
        fc.oneof(
          fc.jsonValue({ maxDepth: 4 }),
          fc.record({ head: fc.jsonValue({ maxDepth: 2 }), body: fc.jsonValue({ maxDepth: 3 }) }),
        ),
        async ([operationId, path], value) => {
          const answer = await rawCall(sandbox, path, JSON.stringify(value));
          expect(answer.status).toBe(200);
          expectValidAnswer(operationId, answer.json);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a request that breaks the contract gets the code validate() names and the issues in x-sandbox-issues, never a 422', async () => {
    const o = order(sandbox);
    const answer = await rawCall(
      sandbox,
      `/aoa-acquiring-biz/v2/payment?mid=${MID}&orderId=${o.orderId}`,
      JSON.stringify({
        head: { tokenType: 'TXN_TOKEN', token: o.txnToken },
        body: { ...walletPay(o.orderId), requestType: 'PAYMNT' },
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.json.body.resultInfo).toMatchObject({
      resultCode: '1001',
      resultStatus: 'F',
      resultMsg: 'Invalid requestType',
    });
    expect(JSON.parse(answer.headers.get('x-sandbox-issues')!)).toEqual([
      expect.objectContaining({ in: 'body', pointer: '/body/requestType', rule: 'enum' }),
    ]);
  });

  it('never echoes a card number, CVV, MPIN, token, SSO token or signature: not in answers, headers or logs', async () => {
    const o = order(sandbox);
    const secrets = ['4111111111111111', '987', '135790', o.txnToken, 'sso-funded-wallet', 'SECRET-SIGNATURE-VALUE'];
    const calls = [
      [
        `/aoa-acquiring-biz/v2/payment?mid=${MID}&orderId=${o.orderId}`,
        {
          head: { tokenType: 'TXN_TOKEN', token: o.txnToken },
          body: {
            ...walletPay(o.orderId),
            paymentMode: 'CREDIT_CARD',
            cardInfo: {
              cardFlowType: 'NEW_CARD',
              cardUniqueId: '4111111111111111',
              cvv: '987',
              expiryMonth: '13',
              expiryYear: '2030',
            },
            mpin: '135790',
          },
        },
      ],
      [
        '/order/v2/preAuth',
        {
          head: { clientId: 'C11', signature: 'SECRET-SIGNATURE-VALUE' },
          body: {
            mid: MID,
            orderId: 'P-SECRET',
            txnAmount: '1.00',
            paymentMode: 'BALANCE',
            svcSsoToken: 'sso-funded-wallet',
            userInfo: { custId: 'C' },
          },
        },
      ],
      [
        `/coft-center/coft/merchant/${MID}/tokenize?requestId=R9`,
        {
          head: {
            version: 'v1',
            requestTimestamp: '1768989600000',
            requestId: 'R9',
            signature: 'SECRET-SIGNATURE-VALUE',
            signatureType: 'CHECKSUM',
          },
          body: {
            cardSource: 'CARD_ON_FILE',
            encryptedCardData: '4111111111111111',
            userInfo: { custId: 'C' },
            tokenizationConsent: { userConsent: 1, createdAt: 'Jan 21, 2026 10:15:30 AM' },
          },
        },
      ],
    ] as const;
    for (const [path, payload] of calls) {
      const answer = await rawCall(sandbox, path, JSON.stringify(payload));
      // The answer's own head.signature is the sandbox's CHECKSUM of the answer, Base64 over a random
      // salt: a three-digit CVV can stand in it by chance. It is a value of the sandbox, not an echo.
      const own = (JSON.parse(answer.text) as { head?: { signature?: unknown } }).head?.signature;
      const text = typeof own === 'string' && own.length === 108 ? answer.text.replace(own, '') : answer.text;
      const seen = text + JSON.stringify([...answer.headers]);
      for (const secret of secrets) expect(seen).not.toContain(secret);
    }
    for (const secret of secrets) expect(logs.join('\n')).not.toContain(secret);
  });
});

describe("sandbox server: signatures cover the body's exact bytes", () => {
  it('verifies the signature over the body as sent (spacing kept), not over a re-serialization', async () => {
    const body = {
      mid: MID,
      orderId: 'P-BYTES-1',
      txnAmount: '1.00',
      paymentMode: 'BALANCE',
      svcSsoToken: 'sso-funded-wallet',
      userInfo: { custId: 'C' },
    };
    const pretty = JSON.stringify(body, null, 2);
    const send = (text: string, signature: string) =>
      rawCall(
        sandbox,
        '/order/v2/preAuth',
        `{\n  "head": {"clientId": "C11", "signature": "${signature}"},\n  "body": ${text}\n}`,
      );
    expect((await send(pretty, await generateSignature(pretty, KEY))).json.body.statusCode).toBe('01');
    const compact = { ...body, orderId: 'P-BYTES-2' };
    const answer = await send(JSON.stringify(compact, null, 1), await generateSignature(JSON.stringify(compact), KEY));
    expect(answer.json.body.statusCode).toBe('330');
  });
});

describe('sandbox server: routes and control API', () => {
  it('answers 405 for another method on an operation, 404 elsewhere, and survives a broken HTTP request', async () => {
    const get = await fetch(`${sandbox.url}/order/v2/preAuth`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await fetch(`${sandbox.url}/nowhere`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await control(sandbox, 'GET', '/sandbox/nothing-here')).status).toBe(404);
    expect((await control(sandbox, 'GET', '/sandbox/reset')).status).toBe(405);
    const garbage = await new Promise<string>((resolve) => {
      const socket = connect(sandbox.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (d) => {
        text += d;
      });
      socket.on('close', () => resolve(text));
    });
    expect(garbage).toMatch(/^HTTP\/1\.1 400/);
    expect((await control(sandbox, 'GET', '/sandbox/clock')).status).toBe(200);
  });

  it('answers 431 to headers too large, and 413 to a body too large that a fetch client streams', async () => {
    const headers = await fetch(`${sandbox.url}/order/v2/preAuth`, {
      method: 'POST',
      headers: { 'x-large': 'a'.repeat(20_000) },
      body: '{}',
    });
    expect(headers.status).toBe(431);
    const chunk = new Uint8Array(65_536).fill(0x20);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent >= 30_000_000) c.close();
        else {
          sent += chunk.length;
          c.enqueue(chunk);
        }
      },
    });
    const large = await fetch(`${sandbox.url}/aoa-acquiring-biz/v2/payment?mid=${MID}&orderId=O1`, {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit);
    expect(large.status).toBe(413);
    expect(codeOf(await large.json())).toBe('2222');
  });

  it('closes a request whose body never arrives, after requestTimeoutMs', async () => {
    const slow = await sandboxFor({ requestTimeoutMs: 300 });
    try {
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(slow.port, '127.0.0.1', () =>
          socket.write(
            `POST /order/v2/preAuth HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"head":`,
          ),
        );
        let text = '';
        socket.on('data', (d) => {
          text += d;
        });
        socket.on('close', () => resolve(text));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await slow.stop();
    }
  });

  it('GET /sandbox describes the operations and the control calls, never the merchant key', async () => {
    const { json } = await control(sandbox, 'GET', '/sandbox');
    expect(json.operations.map((o: any) => o.operationId)).toEqual([
      'tokenizeCard',
      'preAuthorize',
      'listSubscriptions',
      'initiatePayment',
      'modifyOrder',
      'createSubscription',
    ]);
    expect(json.control.map((c: any) => `${c.method} ${c.path}`)).toContain('POST /sandbox/orders/{orderId}/complete');
    expect(json.merchant).toMatchObject({
      mids: [MID],
      clientId: 'C11',
      merchantKey: 'the documented default test key',
    });
    expect(JSON.stringify(json)).not.toContain('SandboxTestKey01');
    expect((await control(sandbox, 'GET', '/sandbox/instruments')).json.cards.numbers.length).toBeGreaterThan(5);
  });

  it('docs/sandbox.md documents every control call and every test card', async () => {
    const section = readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');
    for (const { method, path } of (await control(sandbox, 'GET', '/sandbox')).json.control)
      expect(section).toContain(`${method} ${path}`);
    for (const card of (await control(sandbox, 'GET', '/sandbox/instruments')).json.cards.numbers)
      expect(section).toContain(`\`${card.number}\``);
  });

  it('the clock moves only forward, by a positive amount', async () => {
    const before = (await control(sandbox, 'GET', '/sandbox/clock')).json.epochMs;
    expect((await control(sandbox, 'POST', '/sandbox/clock/advance', { minutes: -1 })).status).toBe(400);
    expect((await control(sandbox, 'POST', '/sandbox/clock/advance', {})).status).toBe(400);
    expect((await control(sandbox, 'POST', '/sandbox/clock/advance', { minutes: 2 })).json.epochMs).toBe(
      before + 120_000,
    );
  });

  it('refuses an advance above its maximum, or past the year 9999, with a 400 problem; the sandbox goes on', async () => {
    const s = await sandboxFor();
    try {
      for (const body of [{ ms: 1e17 }, { minutes: 1e12 }, { ms: 3661 * 86_400_000 }]) {
        const refused = await control(s, 'POST', '/sandbox/clock/advance', body);
        expect(refused.status).toBe(400);
        expect(refused.json.error).toMatchObject({
          code: 'invalid-request',
          message: expect.stringContaining('at most 3660 days'),
        });
      }
      await expect(s.clock.advance(1e17)).rejects.toThrow(RangeError);
      expect(s.clock.now()).toBe(Date.parse('2026-01-21T10:00:00.000Z'));
      // The largest advance is allowed; the clock, order creation and the overview go on answering.
      expect((await control(s, 'POST', '/sandbox/clock/advance', { ms: 3660 * 86_400_000 })).status).toBe(200);
      expect((await control(s, 'GET', '/sandbox/clock')).status).toBe(200);
      expect((await control(s, 'GET', '/sandbox')).status).toBe(200);
      expect((await control(s, 'POST', '/sandbox/orders', { txnAmount: { value: '1.00' } })).status).toBe(201);
    } finally {
      await s.stop();
    }
    const late = await sandboxFor({ now: () => Date.parse('9995-06-01T00:00:00.000Z') });
    try {
      const refused = await control(late, 'POST', '/sandbox/clock/advance', { minutes: 5 * 366 * 1440 });
      expect(refused.status).toBe(400);
      expect(refused.json.error.message).toContain('9999-12-31T23:59:59.999Z');
      expect((await control(late, 'GET', '/sandbox')).status).toBe(200);
    } finally {
      await late.stop();
    }
  });

  it('serves several merchant ids, each with its own orders', async () => {
    const s = await sandboxFor({ mids: ['MERCHANT0001', 'MERCHANT0002'] });
    try {
      const o = s.createOrder({ mid: 'MERCHANT0002', orderId: 'SAME-ID', txnAmount: { value: '5.00' } });
      s.createOrder({ mid: 'MERCHANT0001', orderId: 'SAME-ID', txnAmount: { value: '6.00' } });
      const result = await clientFor(s).initiatePayment({
        txnToken: o.txnToken,
        body: { ...walletPay('SAME-ID'), mid: 'MERCHANT0002' },
      });
      expect((result.data.body as any).txnInfo).toMatchObject({ MID: 'MERCHANT0002', txnAmount: '5.00' });
      expect((await control(s, 'GET', '/sandbox/orders/SAME-ID?mid=MERCHANT0001')).json.status).toBe('CREATED');
    } finally {
      await s.stop();
    }
  });
});

describe('listening', () => {
  it('asks the kernel for a backlog of 2 048 connections (a thousand clients connecting at once)', async () => {
    const listen = vi.spyOn(NetServer.prototype, 'listen');
    try {
      const s = await sandboxFor();
      await s.stop();
      expect(listen).toHaveBeenCalledWith(
        expect.objectContaining({ host: '127.0.0.1', port: 0, backlog: 2048 }),
        expect.any(Function),
      );
    } finally {
      listen.mockRestore();
    }
  });
});

describe('gateway-contract sandbox (command line)', () => {
  it('has --help and refuses bad options with status 2', async () => {
    const help = await runCli(['sandbox', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--webhook-url');
    expect((await runCli(['sandbox', '--port', 'eighty'])).status).toBe(2);
    expect(help.stdout).toContain('--webhook-retries');
    const tooMany = await runCli(['sandbox', '--port', '0', '--webhook-retries', '11']);
    expect(tooMany).toMatchObject({ status: 2 });
    expect(tooMany.stderr).toContain('webhook retries must be a whole number from 0 to 10');
    const badKey = await runCli(['sandbox', '--port', '0', '--merchant-key', 'short']);
    expect(badKey).toMatchObject({ status: 2 });
    expect(badKey.stderr).toContain('16 bytes');
    expect(badKey.stderr).not.toContain('short');
  });

  it('says the default test key itself, and the shipped guide that documents it, in --help and in its banner', async () => {
    const guide = /the test key SandboxTestKey01 \(documented in (\S+sandbox\.md)\)/;
    const help = await runCli(['sandbox', '--help']);
    expect(help.stdout).toMatch(guide);
    // Started elsewhere than the package, the banner's path still leads to the guide.
    const cwd = tmpdir();
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--quiet'], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const banner = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d) => {
          out += d;
          if (out.includes('Press Ctrl-C')) resolve(out);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const path = guide.exec(banner)?.[1] ?? '';
      expect(banner).toMatch(
        /^Merchant: MERCHANT0001 \(clientId C11; merchant key: the test key SandboxTestKey01 \(documented in /m,
      );
      expect(existsSync(resolvePath(cwd, path)), path).toBe(true);
      expect(readFileSync(resolvePath(cwd, path), 'utf8')).toContain(
        '`SandboxTestKey01`, a test key for the sandbox only',
      );
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('starts on a free port, serves the operations and stops on SIGINT', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--webhook-retries', '0', '--quiet'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d) => {
          out += d;
          const m = /Sandbox: (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const answer = await fetch(`${url}/aoa-acquiring-biz/v2/payment?mid=${MID}&orderId=X`, {
        method: 'POST',
        body: '{}',
      });
      expect((await answer.json()).body.resultInfo.resultCode).toBe('1007');
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
