// The client that guides: each result carries the next step its code has in the contract and the
// raw answer; each error a next step of its own (openapi/DECISIONS.md D-52, docs/decisions.md D-53); opt-in retries repeat
// only what is safe (D-54); hooks and a logger see every attempt, and nothing they do changes a
// call. Against local servers; attempts are counted, never timed.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { backoffMs, retryPolicyOf } from '../../src/client/retry.js';
import {
  type CallErrorEvent,
  type CallRequestEvent,
  type CallResponseEvent,
  createGatewayClient,
  GatewayAbortError,
  type GatewayClientOptions,
  GatewayHttpError,
  GatewayNetworkError,
  GatewayTimeoutError,
  nextStepActions,
  operations,
  RequestValidationError,
  resultCodes,
  resultOf,
} from '../../src/index.js';
import { freePort, json, startServer, type TestServer } from '../helpers/servers.js';

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const example = (name: string) => structuredClone(doc.components.examples[name].value);
const signer = { signatureType: 'CHECKSUM', sign: () => 'SIGNATURE' };
const FAST = { retries: 2, baseDelayMs: 1, maxDelayMs: 4 };

/** An answer of `operationId` carrying `code` with its table's status (from the operation's first example). */
function answerWith(operationId: keyof typeof resultCodes, code: string, exampleName: string) {
  const entry = resultCodes[operationId];
  const value = example(exampleName);
  const holder = entry.location
    .split('/')
    .filter(Boolean)
    .reduce((node: any, key: string) => node[key], value);
  const known = (entry.codes as readonly { code: string; status: string }[]).find((c) => c.code === code);
  holder[entry.fields.code] = code;
  holder[entry.fields.status] = known?.status ?? 'F';
  return value;
}

/** Hooks that record every event. */
function recorder() {
  const events = {
    request: [] as CallRequestEvent[],
    response: [] as CallResponseEvent[],
    error: [] as CallErrorEvent[],
  };
  const hooks: Pick<GatewayClientOptions, 'onRequest' | 'onResponse' | 'onError'> = {
    onRequest: (e) => events.request.push(e),
    onResponse: (e) => events.response.push(e),
    onError: (e) => events.error.push(e),
  };
  return { events, hooks };
}

async function withServer<T>(
  answer: Parameters<typeof startServer>[0],
  run: (server: TestServer) => Promise<T>,
): Promise<T> {
  const server = await startServer(answer);
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}

const pay = () => example('PayWithUpi').body;
const list = () => example('ListSubscriptionsRequest').body;

describe('the next step of each result', () => {
  it('gives every code of every table a next step of the contract', () => {
    const actions = Object.keys(nextStepActions);
    expect(actions).toContain('query-status');
    for (const [operationId, entry] of Object.entries(resultCodes))
      for (const c of entry.codes as readonly { code: string; nextStep?: { action: string } }[])
        expect(actions, `${operationId} ${c.code}`).toContain(c.nextStep?.action);
  });

  it("returns, for each code of pay and pre-auth, the catalog's next step, with the raw answer", async () => {
    let next: { body: unknown; status?: number } = { body: {} };
    await withServer(
      (_req, res) => {
        res.setHeader('x-request-trace', 'trace-1');
        json(res, next.body, next.status ?? 200);
      },
      async (server) => {
        const client = createGatewayClient({ gatewayUrl: server.url, routerUrl: server.url, signer });
        for (const c of resultCodes.initiatePayment.codes) {
          next = { body: answerWith('initiatePayment', c.code, 'PaySucceeded') };
          const result = await client.initiatePayment({ txnToken: 'T', body: pay() });
          expect(result.code).toBe(c.code);
          expect(result.nextStep, c.code).toEqual(c.nextStep);
          expect(result.httpStatus).toBe(200);
          expect(result.raw.status).toBe(200);
          expect(result.raw.headers['x-request-trace']).toBe('trace-1');
          expect(result.raw.headers['content-type']).toBe('application/json');
        }
        for (const [code, action] of [
          ['SR_1004', 'query-status'],
          ['WM_1006', 'retry-new-order-id'],
          ['02', 'continue-flow'],
          ['501', 'retry-later'],
        ]) {
          next = { body: answerWith('preAuthorize', code as string, 'PreAuthDuplicateBlock') };
          const result = await client.preAuthorize({ body: example('PreAuthWalletRequest').body });
          expect(result.nextStep.action, code).toBe(action);
        }
        expect(
          JSON.parse(JSON.stringify((await client.initiatePayment({ txnToken: 'T', body: pay() })).raw)).headers[
            'x-request-trace'
          ],
        ).toBe('trace-1');
      },
    );
  });

  it('says to query the status when the code is not in the table, or comes with another status', async () => {
    const pay201 = answerWith('initiatePayment', '201', 'PaySucceeded');
    expect(resultOf('initiatePayment', pay201, 200).nextStep.action).toBe('already-paid');
    pay201.body.resultInfo.resultStatus = 'S';
    expect(resultOf('initiatePayment', pay201, 200)).toMatchObject({
      outcome: 'failure',
      nextStep: { action: 'query-status', decision: 'D-53' },
    });
    const unknown = answerWith('initiatePayment', 'NEW_1', 'PaySucceeded');
    expect(resultOf('initiatePayment', unknown, 200)).toMatchObject({
      outcome: 'failure',
      nextStep: { action: 'query-status' },
      raw: { status: 200, headers: {} },
    });
    expect(
      resultOf('listSubscriptions', answerWith('listSubscriptions', 'NEW_1', 'ListSubscriptionsFound'), 200).nextStep
        .action,
    ).toBe('retry-later');
  });

  it("shares the catalog's next step, frozen, so no caller can change it for the next", () => {
    const first = resultOf('initiatePayment', answerWith('initiatePayment', '201', 'PaySucceeded'), 200);
    expect(() => {
      (first.nextStep as { action: string }).action = 'none';
    }).toThrow(TypeError);
    expect(resultOf('initiatePayment', answerWith('initiatePayment', '201', 'PaySucceeded'), 200).nextStep.action).toBe(
      'already-paid',
    );
  });
});

describe('the next step of each error', () => {
  it('a request refused by validation: fix it', async () => {
    const client = createGatewayClient({
      gatewayUrl: 'http://127.0.0.1:9',
      routerUrl: 'http://127.0.0.1:9',
      validate: true,
    });
    const body = pay();
    delete body.payerAccount;
    const error = await client.initiatePayment({ txnToken: 'T', body }).catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.nextStep).toEqual({ action: 'fix-request', decision: 'D-53' });
  });

  it('a timeout of pay says to query the status and is never sent again, even with retries on', async () => {
    await withServer(
      () => {
        /* never answers */
      },
      async (server) => {
        const { events, hooks } = recorder();
        const client = createGatewayClient({
          gatewayUrl: server.url,
          routerUrl: server.url,
          timeoutMs: 100,
          retry: FAST,
          ...hooks,
        });
        const error = await client.initiatePayment({ txnToken: 'T', body: pay() }).catch((e) => e);
        expect(error).toBeInstanceOf(GatewayTimeoutError);
        expect(error.nextStep.action).toBe('query-status');
        expect(server.requests).toHaveLength(1);
        expect(events.request).toHaveLength(1);
        expect(events.error).toMatchObject([
          { operationId: 'initiatePayment', attempt: 1, willRetry: false, error: { kind: 'timeout' } },
        ]);
      },
    );
  });

  it('a reset after the request was sent: pay, pre-auth, modify and create are sent once; list subscriptions again', async () => {
    await withServer(
      (_req, res) => {
        res.socket?.destroy();
      },
      async (server) => {
        const client = createGatewayClient({ gatewayUrl: server.url, routerUrl: server.url, signer, retry: FAST });
        const calls = [
          () => client.initiatePayment({ txnToken: 'T', body: pay() }),
          () => client.preAuthorize({ body: example('PreAuthWalletRequest').body }),
          () => client.modifyOrder({ mid: 'M', orderId: 'O', txnToken: 'T', body: {} }),
          () => client.createSubscription({ body: example('CreateFixedUpiSubscription').body }),
          () => client.tokenizeCard({ mid: 'MERCHANT0001', body: example('TokenizeCardRequest').body }),
        ];
        for (const call of calls) {
          const before = server.requests.length;
          const error = await call().catch((e) => e);
          expect(error).toBeInstanceOf(GatewayNetworkError);
          expect(error).toMatchObject({ sent: 'maybe', nextStep: { action: 'query-status' } });
          expect(server.requests.length - before).toBe(1);
        }
        const before = server.requests.length;
        const error = await client.listSubscriptions({ token: 'SSO', body: list() }).catch((e) => e);
        expect(error).toMatchObject({ kind: 'network', sent: 'maybe', nextStep: { action: 'retry-later' } });
        expect(server.requests.length - before).toBe(3);
      },
    );
  });

  it('an HTTP 4xx of something in front of the service: fix it; 429 and 5xx: by the operation', async () => {
    let status = 404;
    await withServer(
      (_req, res) => json(res, { error: 'x' }, status),
      async (server) => {
        const client = createGatewayClient({ gatewayUrl: server.url, routerUrl: server.url, signer });
        const at = async (s: number) => {
          status = s;
          return {
            pay: ((await client.initiatePayment({ txnToken: 'T', body: pay() }).catch((e) => e)) as GatewayHttpError)
              .nextStep.action,
            list: ((await client.listSubscriptions({ token: 'SSO', body: list() }).catch((e) => e)) as GatewayHttpError)
              .nextStep.action,
          };
        };
        expect(await at(404)).toEqual({ pay: 'fix-request', list: 'fix-request' });
        expect(await at(429)).toEqual({ pay: 'retry-later', list: 'retry-later' });
        expect(await at(502)).toEqual({ pay: 'query-status', list: 'retry-later' });
      },
    );
  });
});

describe('opt-in retries', () => {
  it('are off by default: a 503 of list subscriptions is sent once', async () => {
    await withServer(
      (_req, res) => json(res, { error: 'busy' }, 503),
      async (server) => {
        const client = createGatewayClient({ gatewayUrl: server.url, routerUrl: server.url, signer });
        const error = await client.listSubscriptions({ token: 'SSO', body: list() }).catch((e) => e);
        expect(error).toBeInstanceOf(GatewayHttpError);
        expect(error.nextStep.action).toBe('retry-later');
        expect(server.requests).toHaveLength(1);
      },
    );
  });

  it('repeat list subscriptions on 503 up to the limit, with the same bytes, and say so to the hooks', async () => {
    await withServer(
      (_req, res) => json(res, { error: 'busy' }, 503),
      async (server) => {
        const { events, hooks } = recorder();
        const client = createGatewayClient({
          gatewayUrl: server.url,
          routerUrl: server.url,
          signer,
          retry: FAST,
          ...hooks,
        });
        const error = await client.listSubscriptions({ token: 'SSO', body: list() }).catch((e) => e);
        expect(error).toBeInstanceOf(GatewayHttpError);
        expect(server.requests).toHaveLength(3);
        expect(new Set(server.requests.map((r) => r.text)).size).toBe(1);
        expect(events.request.map((e) => e.attempt)).toEqual([1, 2, 3]);
        expect(events.error.map((e) => [e.attempt, e.willRetry, e.error.status])).toEqual([
          [1, true, 503],
          [2, true, 503],
          [3, false, 503],
        ]);
      },
    );
  });

  it('repeat list subscriptions after a timeout and after result code 500, until an answer', async () => {
    let calls = 0;
    await withServer(
      (_req, res) => {
        calls++;
        if (calls === 1) return; // no answer: a timeout
        if (calls === 2) return json(res, answerWith('listSubscriptions', '500', 'ListSubscriptionsFound'));
        json(res, example('ListSubscriptionsFound'));
      },
      async (server) => {
        const { events, hooks } = recorder();
        const client = createGatewayClient({
          gatewayUrl: server.url,
          routerUrl: server.url,
          signer,
          timeoutMs: 150,
          retry: FAST,
          ...hooks,
        });
        const result = await client.listSubscriptions({ token: 'SSO', body: list() });
        expect(result).toMatchObject({ code: '3006', outcome: 'success', nextStep: { action: 'none' } });
        expect(server.requests).toHaveLength(3);
        expect(events.error.map((e) => [e.attempt, e.error.kind, e.willRetry])).toEqual([[1, 'timeout', true]]);
        expect(events.response.map((e) => [e.attempt, e.code, e.nextStep.action, e.willRetry])).toEqual([
          [2, '500', 'retry-later', true],
          [3, '3006', 'none', false],
        ]);
      },
    );
  });

  it('never repeat a failure code of pay, even one whose next step is retry-later', async () => {
    await withServer(
      (_req, res) => json(res, answerWith('initiatePayment', '501', 'PaySucceeded')),
      async (server) => {
        const client = createGatewayClient({ gatewayUrl: server.url, routerUrl: server.url, retry: FAST });
        const result = await client.initiatePayment({ txnToken: 'T', body: pay() });
        expect(result.nextStep.action).toBe('retry-later');
        expect(server.requests).toHaveLength(1);
      },
    );
  });

  it('repeat pay when the connection was refused, so nothing was sent; not without retries', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const { events, hooks } = recorder();
    const client = createGatewayClient({ gatewayUrl: url, routerUrl: url, retry: FAST, ...hooks });
    const error = await client.initiatePayment({ txnToken: 'T', body: pay() }).catch((e) => e);
    expect(error).toBeInstanceOf(GatewayNetworkError);
    expect(error).toMatchObject({ sent: 'no', nextStep: { action: 'retry-later' } });
    expect(error.message).toContain('ECONNREFUSED');
    expect(events.request.map((e) => e.attempt)).toEqual([1, 2, 3]);
    expect(events.error.map((e) => e.willRetry)).toEqual([true, true, false]);

    const once = recorder();
    const plain = createGatewayClient({ gatewayUrl: url, routerUrl: url, ...once.hooks });
    await expect(plain.initiatePayment({ txnToken: 'T', body: pay() })).rejects.toMatchObject({ sent: 'no' });
    expect(once.events.request).toHaveLength(1);
  });

  it('stop at the caller signal during a wait, and at maxElapsedMs', async () => {
    await withServer(
      (_req, res) => json(res, { error: 'busy' }, 503),
      async (server) => {
        const controller = new AbortController();
        const client = createGatewayClient({
          gatewayUrl: server.url,
          routerUrl: server.url,
          signer,
          retry: { retries: 5, baseDelayMs: 60_000, maxDelayMs: 60_000, jitter: false, maxElapsedMs: 600_000 },
          onError: (e) => {
            if (e.willRetry) setTimeout(() => controller.abort(), 5);
          },
        });
        const error = await client
          .listSubscriptions({ token: 'SSO', body: list(), signal: controller.signal })
          .catch((e) => e);
        expect(error).toBeInstanceOf(GatewayAbortError);
        expect(server.requests).toHaveLength(1);

        const bounded = createGatewayClient({
          gatewayUrl: server.url,
          routerUrl: server.url,
          signer,
          retry: { retries: 5, baseDelayMs: 50, maxElapsedMs: 10 },
        });
        const before = server.requests.length;
        await expect(bounded.listSubscriptions({ token: 'SSO', body: list() })).rejects.toBeInstanceOf(
          GatewayHttpError,
        );
        // Every wait would pass the time allowed, except a jittered one close to zero.
        expect(server.requests.length - before).toBeLessThanOrEqual(2);
      },
    );
  });

  it('back off exponentially with full jitter, within bounds; refuse bad settings', () => {
    const policy = retryPolicyOf({ retries: 5, baseDelayMs: 100, maxDelayMs: 1000, jitter: false })!;
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(policy, n))).toEqual([100, 200, 400, 800, 1000]);
    const jittered = retryPolicyOf({ retries: 5, baseDelayMs: 100, maxDelayMs: 1000 })!;
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(jittered, n, () => 0.5))).toEqual([50, 100, 200, 400, 500]);
    expect(backoffMs(jittered, 3, () => 0)).toBe(0);
    expect(retryPolicyOf(true)).toEqual({
      retries: 2,
      baseDelayMs: 100,
      maxDelayMs: 2000,
      jitter: true,
      maxElapsedMs: 60_000,
    });
    expect(retryPolicyOf(false)).toBeNull();
    expect(retryPolicyOf(undefined)).toBeNull();
    expect(retryPolicyOf({ retries: 0 })).toBeNull();
    for (const bad of [{ retries: -1 }, { retries: 1.5 }, { baseDelayMs: '5' }, { jitter: 'yes' }, 'always'])
      expect(() =>
        createGatewayClient({ gatewayUrl: 'http://127.0.0.1:9', routerUrl: 'http://127.0.0.1:9', retry: bad as any }),
      ).toThrow(TypeError);
  });

  it('the contract, not the client, says which operation may be repeated', () => {
    expect(operations.filter((o) => o.idempotent).map((o) => o.operationId)).toEqual(['listSubscriptions']);
    // The retry code names no operation: what it repeats comes from the operation index.
    for (const file of [
      '../../src/client/retry.ts',
      '../../src/transport/nextStep.ts',
      '../../src/transport/errors.ts',
    ])
      expect(readFileSync(new URL(file, import.meta.url), 'utf8'), file).not.toMatch(
        /'(listSubscriptions|initiatePayment|preAuthorize|modifyOrder|createSubscription|tokenizeCard)'/,
      );
  });
});

describe('hooks and the logger', () => {
  it('tell each attempt: operation, attempt, host and path, timings, HTTP status, code, outcome and next step', async () => {
    await withServer(
      (_req, res) => json(res, example('PayOrderPaid')),
      async (server) => {
        const { events, hooks } = recorder();
        const lines: string[] = [];
        const client = createGatewayClient({
          gatewayUrl: server.url,
          routerUrl: server.url,
          ...hooks,
          logger: { info: (l) => lines.push(l), debug: (l) => lines.push(l) },
        });
        const result = await client.initiatePayment({ txnToken: 'T', body: pay() });
        expect(result.code).toBe('201');
        expect(events.request).toEqual([
          { operationId: 'initiatePayment', attempt: 1, host: 'router', path: '/aoa-acquiring-biz/v2/payment' },
        ]);
        expect(events.response).toEqual([
          {
            operationId: 'initiatePayment',
            attempt: 1,
            durationMs: expect.any(Number),
            httpStatus: 200,
            code: '201',
            status: 'F',
            outcome: 'failure',
            nextStep: { action: 'already-paid', source: expect.stringMatching(/^3\.3/) },
            willRetry: false,
          },
        ]);
        expect(events.response[0]!.durationMs).toBeGreaterThanOrEqual(0);
        expect(lines).toEqual([
          'gateway-contract initiatePayment attempt=1 request host=router path=/aoa-acquiring-biz/v2/payment',
          expect.stringMatching(
            /^gateway-contract initiatePayment attempt=1 answer ms=\d+\.\d http=200 code=201 status=F outcome=failure next=already-paid$/,
          ),
        ]);
      },
    );
  });

  it('report a request refused before sending to onError, with no onRequest', async () => {
    const { events, hooks } = recorder();
    const lines: string[] = [];
    const client = createGatewayClient({
      gatewayUrl: 'http://127.0.0.1:9',
      routerUrl: 'http://127.0.0.1:9',
      validate: true,
      ...hooks,
      logger: { error: (l) => lines.push(l) },
    });
    const body = pay();
    delete body.payerAccount;
    await expect(client.initiatePayment({ txnToken: 'T', body })).rejects.toBeInstanceOf(RequestValidationError);
    expect(events.request).toEqual([]);
    expect(events.error).toMatchObject([
      { operationId: 'initiatePayment', attempt: 1, willRetry: false, error: { kind: 'request-invalid' } },
    ]);
    expect(lines).toEqual([
      expect.stringMatching(
        /^gateway-contract initiatePayment attempt=1 error ms=\S+ kind=request-invalid issues=1 next=fix-request message="/,
      ),
    ]);
  });

  it('a hook or logger that throws or rejects changes nothing', async () => {
    await withServer(
      (_req, res) => json(res, example('PaySucceeded')),
      async (server) => {
        const boom = () => {
          throw new Error('hook failed');
        };
        const rejects = async () => {
          throw new Error('hook failed later');
        };
        const unhandled: unknown[] = [];
        const onUnhandled = (reason: unknown) => unhandled.push(reason);
        process.on('unhandledRejection', onUnhandled);
        try {
          for (const hook of [boom, rejects]) {
            const client = createGatewayClient({
              gatewayUrl: server.url,
              routerUrl: server.url,
              onRequest: hook,
              onResponse: hook,
              onError: hook,
              logger: { debug: hook, info: hook, warn: hook, error: hook },
            });
            expect(await client.initiatePayment({ txnToken: 'T', body: pay() })).toMatchObject({
              code: '0000',
              nextStep: { action: 'none' },
            });
          }
          const failing = createGatewayClient({
            gatewayUrl: 'http://127.0.0.1:9',
            routerUrl: 'http://127.0.0.1:9',
            onError: boom,
            logger: { error: boom },
          });
          await expect(failing.initiatePayment({ txnToken: 'T', body: pay() })).rejects.toBeInstanceOf(
            GatewayNetworkError,
          );
          await new Promise((resolve) => setTimeout(resolve, 20));
          expect(unhandled).toEqual([]);
        } finally {
          process.off('unhandledRejection', onUnhandled);
        }
      },
    );
  });

  it('take console as a logger, and refuse hooks that are not functions', async () => {
    await withServer(
      (_req, res) => json(res, example('PaySucceeded')),
      async (server) => {
        const lines: string[] = [];
        // A logger whose methods need their object, as console's and most class-based loggers do.
        const logger = new (class {
          prefix = '>';
          info(line: string) {
            lines.push(`${this.prefix} ${line}`);
          }
        })();
        const client = createGatewayClient({ gatewayUrl: server.url, routerUrl: server.url, logger });
        await client.initiatePayment({ txnToken: 'T', body: pay() });
        expect(lines).toEqual([
          expect.stringMatching(/^> gateway-contract initiatePayment attempt=1 answer .* next=none$/),
        ]);
      },
    );
    expect(() =>
      createGatewayClient({
        gatewayUrl: 'http://127.0.0.1:9',
        routerUrl: 'http://127.0.0.1:9',
        onResponse: 'log' as any,
      }),
    ).toThrow(TypeError);
  });

  it('name a code only when it is in the table', async () => {
    const marker = 'tok_LEAKED_4111111111111111';
    await withServer(
      (_req, res) => json(res, answerWith('initiatePayment', marker, 'PaySucceeded')),
      async (server) => {
        const { events, hooks } = recorder();
        const lines: string[] = [];
        const client = createGatewayClient({
          gatewayUrl: server.url,
          routerUrl: server.url,
          ...hooks,
          logger: { info: (l) => lines.push(l) },
        });
        const result = await client.initiatePayment({ txnToken: 'T', body: pay() });
        expect(result.code).toBe(marker);
        expect(events.response[0]).toMatchObject({
          code: null,
          status: null,
          outcome: 'failure',
          nextStep: { action: 'query-status' },
        });
        expect(lines[0]).toContain('code=<not in the table> status=<not in the table>');
        expect(JSON.stringify(events) + lines.join('\n')).not.toContain(marker);
      },
    );
  });
});
