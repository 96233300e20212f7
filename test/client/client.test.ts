// The typed client against local servers standing in for the gateway and the router: hosts, paths,
// queries from the body, heads per family, signature over the exact bytes sent, typed results,
// validation, and a distinct error for each way a call can go wrong.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGatewayClient,
  GatewayAbortError,
  GatewayHttpError,
  GatewayNetworkError,
  GatewayNonJsonError,
  GatewayTimeoutError,
  RequestValidationError,
  ResponseValidationError,
} from '../../src/index.js';
import {
  fcParameters,
  mutationsOf,
  operationViews,
  plant,
  type Sample,
  sampleArbitrary,
} from '../helpers/arbitraries.js';
import { freePort, json, startServer, type TestServer } from '../helpers/servers.js';

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const example = (name: string) => structuredClone(doc.components.examples[name].value);
// A signer whose output is easy to recompute: sha256 of the text it is given.
const testSigner = {
  signatureType: 'CHECKSUM',
  sign: (text: string) => createHash('sha256').update(text).digest('base64'),
};

/** The raw text of the top-level "body" member, as the server received it. */
function rawBody(text: string) {
  const start = text.indexOf('"body":') + '"body":'.length;
  return text.slice(start, text.length - 1);
}

const answers: Record<string, unknown> = {
  '/coft-center/coft/merchant/MERCHANT0001/tokenize': example('TokenizeActive'),
  '/order/v2/preAuth': example('PreAuthDuplicateBlock'),
  '/subscription/list/all': example('ListSubscriptionsFound'),
  '/aoa-acquiring-biz/v2/payment': example('PaySucceeded'),
  '/aoa-acquiring-biz/v2/modifyOrder': example('ModifyOrderInProcess'),
  '/aoa-subscription/api/v2/subscription/create': example('SubscriptionCreated'),
};

let gateway: TestServer;
let router: TestServer;
const NOW = 1_768_971_330_123;

beforeAll(async () => {
  const answer = (req: { url: string }, res: any) =>
    json(res, answers[req.url.split('?')[0]] ?? { error: 'no route' }, answers[req.url.split('?')[0]] ? 200 : 404);
  gateway = await startServer(answer);
  router = await startServer(answer);
});
afterAll(async () => {
  await gateway.close();
  await router.close();
});

const client = () =>
  createGatewayClient({
    gatewayUrl: gateway.url,
    routerUrl: `${router.url}/`,
    signer: testSigner,
    clientId: 'C11',
    version: 'v2',
    now: () => NOW,
    requestId: () => 'REQ-1',
  });

describe('createGatewayClient', () => {
  it('sends each call to its own host and path, with the query taken from the body', async () => {
    const c = client();
    const pay = example('PayWithUpi');
    await c.initiatePayment({ txnToken: 'TXN-1', body: pay.body });
    await c.createSubscription({ body: example('CreateFixedUpiSubscription').body });
    await c.modifyOrder({
      mid: 'MERCHANT0001',
      orderId: 'ORDER-1001',
      txnToken: 'TXN-1',
      body: example('ModifyOrderRequest').body,
    });
    await c.tokenizeCard({ mid: 'MERCHANT0001', body: example('TokenizeCardRequest').body });
    await c.preAuthorize({ body: example('PreAuthWalletRequest').body });
    await c.listSubscriptions({ token: 'SSO-1', body: example('ListSubscriptionsRequest').body });
    expect(router.requests.slice(-3).map((r) => r.url)).toEqual([
      '/aoa-acquiring-biz/v2/payment?mid=MERCHANT0001&orderId=ORDER-1001',
      '/aoa-subscription/api/v2/subscription/create?mid=MERCHANT0001&orderId=ORDER-3001',
      '/aoa-acquiring-biz/v2/modifyOrder?mid=MERCHANT0001&orderId=ORDER-1001',
    ]);
    expect(gateway.requests.slice(-3).map((r) => r.url)).toEqual([
      '/coft-center/coft/merchant/MERCHANT0001/tokenize?requestId=REQ-1',
      '/order/v2/preAuth',
      '/subscription/list/all',
    ]);
    for (const r of [...router.requests, ...gateway.requests]) {
      expect(r.method).toBe('POST');
      expect(r.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('builds the head of each family and signs the exact bytes sent', async () => {
    const c = client();
    await c.tokenizeCard({ mid: 'MERCHANT0001', body: example('TokenizeCardRequest').body });
    const tokenize = gateway.requests.at(-1)!;
    const sent = JSON.parse(tokenize.text);
    expect(sent.head).toEqual({
      version: 'v1',
      requestTimestamp: String(NOW),
      requestId: 'REQ-1',
      signatureType: 'CHECKSUM',
      clientId: 'C11',
      signature: testSigner.sign(rawBody(tokenize.text)),
    });

    await c.preAuthorize({ body: example('PreAuthWalletRequest').body });
    const preAuth = gateway.requests.at(-1)!;
    expect(JSON.parse(preAuth.text).head).toEqual({
      version: 'v2',
      requestTimestamp: String(Math.trunc(NOW / 1000)),
      clientId: 'C11',
      signature: testSigner.sign(rawBody(preAuth.text)),
    });

    await c.listSubscriptions({ token: 'SSO-1', body: example('ListSubscriptionsRequest').body });
    expect(JSON.parse(gateway.requests.at(-1)!.text).head).toMatchObject({
      tokenType: 'AES',
      token: 'SSO-1',
      clientId: 'C11',
      version: 'v2',
    });

    await c.initiatePayment({ txnToken: 'TXN-1', body: example('PayWithUpi').body });
    expect(JSON.parse(router.requests.at(-1)!.text).head).toEqual({
      requestTimeStamp: String(NOW),
      tokenType: 'TXN_TOKEN',
      token: 'TXN-1',
      version: 'v1',
    });

    await c.modifyOrder({ mid: 'M', orderId: 'O', txnToken: 'TXN-2', body: {}, sign: false });
    expect(JSON.parse(router.requests.at(-1)!.text).head).toEqual({
      requestTimeStamp: String(NOW),
      tokenType: 'TXN_TOKEN',
      token: 'TXN-2',
    });

    await c.createSubscription({ body: example('CreateFixedUpiSubscription').body, head: { channelId: 'WAP' } });
    const create = router.requests.at(-1)!;
    expect(JSON.parse(create.text).head).toEqual({
      requestTimeStamp: String(NOW),
      channelId: 'WAP',
      signature: testSigner.sign(rawBody(create.text)),
    });
  });

  it("narrows results by the operation's own codes", async () => {
    const c = client();
    const paid = await c.initiatePayment({ txnToken: 'T', body: example('PayWithWallet').body });
    expect(paid).toMatchObject({ outcome: 'success', code: '0000', status: 'S', httpStatus: 200 });
    const modify = await c.modifyOrder({ mid: 'M', orderId: 'O', txnToken: 'T', body: {} });
    expect(modify).toMatchObject({
      outcome: 'failure',
      code: '1111',
      status: 'F',
      message: 'Order modification not allowed. Transaction already in process',
    });
    const preAuth = await c.preAuthorize({ body: example('PreAuthWalletRequest').body });
    expect(preAuth).toMatchObject({ outcome: 'failure', code: 'SR_1004' });
    expect(preAuth.meaning).toMatch(/transaction status/);
  });

  it('with validate: true, rejects a bad request before sending and a bad answer on arrival', async () => {
    const c = createGatewayClient({
      gatewayUrl: gateway.url,
      routerUrl: router.url,
      signer: testSigner,
      validate: true,
    });
    const before = router.requests.length;
    const body = example('PayWithUpi').body;
    delete body.payerAccount;
    const error = await c.initiatePayment({ txnToken: 'T', body }).catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues.map((i: any) => i.pointer)).toEqual(['/body/payerAccount']);
    expect(router.requests.length).toBe(before);

    const broken = await startServer((_req, res) =>
      json(res, { head: {}, body: { resultInfo: { resultCode: '0000', resultStatus: 'F', resultMsg: 'x' } } }),
    );
    try {
      const bad = createGatewayClient({ gatewayUrl: broken.url, routerUrl: broken.url, validate: { response: true } });
      const e = await bad.initiatePayment({ txnToken: 'T', body: example('PayWithUpi').body }).catch((x) => x);
      expect(e).toBeInstanceOf(ResponseValidationError);
      expect(e.issues.length).toBeGreaterThan(0);
    } finally {
      await broken.close();
    }
  });

  it('gives a distinct error for network failure, timeout, abort, non-JSON and HTTP errors, and never retries', async () => {
    const port = await freePort();
    const down = createGatewayClient({ gatewayUrl: `http://127.0.0.1:${port}`, routerUrl: `http://127.0.0.1:${port}` });
    await expect(down.initiatePayment({ txnToken: 'T', body: example('PayWithUpi').body })).rejects.toBeInstanceOf(
      GatewayNetworkError,
    );

    const silent = await startServer(() => {
      /* never answers */
    });
    const html = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>oops</html>');
    });
    const failing = await startServer((_req, res) => json(res, { error: 'boom' }, 502));
    try {
      const slow = createGatewayClient({ gatewayUrl: silent.url, routerUrl: silent.url, timeoutMs: 200 });
      const timeout = await slow.initiatePayment({ txnToken: 'T', body: example('PayWithUpi').body }).catch((e) => e);
      expect(timeout).toBeInstanceOf(GatewayTimeoutError);
      expect(timeout.kind).toBe('timeout');
      const controller = new AbortController();
      const pending = slow
        .initiatePayment({ txnToken: 'T', body: example('PayWithUpi').body, signal: controller.signal })
        .catch((e) => e);
      controller.abort();
      expect(await pending).toBeInstanceOf(GatewayAbortError);
      expect(silent.requests.length).toBeGreaterThanOrEqual(1);

      const page = createGatewayClient({ gatewayUrl: html.url, routerUrl: html.url });
      const nonJson = await page.initiatePayment({ txnToken: 'T', body: example('PayWithUpi').body }).catch((e) => e);
      expect(nonJson).toBeInstanceOf(GatewayNonJsonError);
      expect(nonJson.message).not.toContain('oops');

      const http = createGatewayClient({ gatewayUrl: failing.url, routerUrl: failing.url });
      const httpError = await http.initiatePayment({ txnToken: 'T', body: example('PayWithUpi').body }).catch((e) => e);
      expect(httpError).toBeInstanceOf(GatewayHttpError);
      expect(httpError.status).toBe(502);
      expect(failing.requests.length).toBe(1);
    } finally {
      await silent.close();
      await html.close();
      await failing.close();
    }
  });

  it('never follows a redirect: it is an HTTP error whose outcome is unknown, and nothing goes to the other address', async () => {
    // Another origin that would answer as the service does, were the call ever sent there.
    const elsewhere = await startServer((_req, res) => json(res, example('PaySucceeded')));
    let status = 307;
    const redirecting = await startServer((req, res) => {
      res.writeHead(status, { location: `${elsewhere.url}${req.url}`, 'content-type': 'application/json' });
      res.end(JSON.stringify(example('PaySucceeded')));
    });
    try {
      const seen: Request[] = [];
      const clients = [
        createGatewayClient({ gatewayUrl: redirecting.url, routerUrl: redirecting.url, signer: testSigner }),
        // A caller's fetch gets a Request that says not to follow, and fetch honours it.
        createGatewayClient({
          gatewayUrl: redirecting.url,
          routerUrl: redirecting.url,
          signer: testSigner,
          fetch: (request) => {
            seen.push(request);
            return fetch(request);
          },
        }),
      ];
      for (const c of clients) {
        for (status of [301, 302, 303, 307, 308]) {
          const before = redirecting.requests.length;
          const error = await c
            .initiatePayment({ txnToken: 'TXN-SECRET', body: example('PayWithUpi').body })
            .catch((e) => e);
          expect(error, String(status)).toBeInstanceOf(GatewayHttpError);
          expect(error).toMatchObject({ kind: 'http', status, sent: 'yes', nextStep: { action: 'query-status' } });
          expect(error.message).toMatch(/redirect/);
          expect(error.message).not.toContain(elsewhere.url);
          expect(redirecting.requests.length - before).toBe(1);
          // An idempotent operation may be sent again later, to the service's own address.
          const list = await c
            .listSubscriptions({ token: 'SSO-1', body: example('ListSubscriptionsRequest').body })
            .catch((e) => e);
          expect(list).toMatchObject({ kind: 'http', status, sent: 'yes', nextStep: { action: 'retry-later' } });
        }
      }
      expect(seen.length).toBeGreaterThan(0);
      for (const request of seen) expect(request.redirect).toBe('manual');
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
      await redirecting.close();
    }
  });

  it('treats a JSON array as no envelope, names only the media type, and keeps answers out of printed errors', async () => {
    const marker = 'tok_LEAKED_4111111111111111';
    const array = await startServer((_req, res) => json(res, [marker]));
    const odd = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': `text/html; x=${marker}` });
      res.end(marker);
    });
    const echo = await startServer((_req, res) => json(res, { error: marker }, 500));
    try {
      const viaArray = await createGatewayClient({ gatewayUrl: array.url, routerUrl: array.url })
        .initiatePayment({ txnToken: 'T', body: example('PayWithUpi').body })
        .catch((e) => e);
      expect(viaArray).toBeInstanceOf(GatewayNonJsonError);
      const viaOdd = await createGatewayClient({ gatewayUrl: odd.url, routerUrl: odd.url })
        .initiatePayment({ txnToken: 'T', body: example('PayWithUpi').body })
        .catch((e) => e);
      expect(viaOdd).toBeInstanceOf(GatewayNonJsonError);
      expect(viaOdd.message).toContain('text/html');
      const viaEcho = await createGatewayClient({ gatewayUrl: echo.url, routerUrl: echo.url })
        .initiatePayment({ txnToken: 'T', body: example('PayWithUpi').body })
        .catch((e) => e);
      expect(viaEcho).toBeInstanceOf(GatewayHttpError);
      expect(viaEcho.data).toEqual({ error: marker });
      const { inspect } = await import('node:util');
      for (const error of [viaArray, viaOdd, viaEcho]) {
        expect(`${error.message} ${JSON.stringify(error)} ${inspect(error)}`).not.toContain(marker);
      }
    } finally {
      await array.close();
      await odd.close();
      await echo.close();
    }
  });

  it('reads no more of an answer than maxResponseBytes, a 2xx one or an HTTP error alike, and stops reading there', async () => {
    const chunk = 'x'.repeat(16 * 1024);
    // Answers without end: only a bounded read ends the call before its time limit.
    const endless = await startServer((req, res) => {
      res.writeHead(req.url.startsWith('/order/') ? 500 : 200, { 'content-type': 'application/json' });
      const more = () => {
        if (!res.destroyed) res.write(chunk, () => setImmediate(more));
      };
      more();
    });
    try {
      const c = createGatewayClient({
        gatewayUrl: endless.url,
        routerUrl: endless.url,
        signer: testSigner,
        maxResponseBytes: 100_000,
        timeoutMs: 20_000,
      });
      const ok = await c.initiatePayment({ txnToken: 'T', body: example('PayWithUpi').body }).catch((e) => e);
      expect(ok).toBeInstanceOf(GatewayNonJsonError);
      expect(ok.message).toMatch(/larger than 100000 bytes/);
      const failed = await c.preAuthorize({ body: example('PreAuthWalletRequest').body }).catch((e) => e);
      expect(failed).toBeInstanceOf(GatewayNonJsonError);
      expect(failed.message).toMatch(/larger than 100000 bytes/);
    } finally {
      await endless.close();
    }
  });

  it('refuses to build a signed call without a signer, and bad addresses', async () => {
    const unsigned = createGatewayClient({ gatewayUrl: gateway.url, routerUrl: router.url });
    await expect(unsigned.preAuthorize({ body: example('PreAuthWalletRequest').body })).rejects.toThrow(
      /pass a signer/,
    );
    expect(() => createGatewayClient({ gatewayUrl: 'gateway', routerUrl: router.url })).toThrow(TypeError);
  });
});

// The classes a merchant's tests may build to stand in for the client's errors: `(message, details)`,
// and the older `(kind, message, details)`, deprecated, kept until the next major version (D-135).
describe('the error classes', () => {
  const details = { operationId: 'initiatePayment', status: 503 };

  it('build the same error from the older form, and only with their own kind', () => {
    const pairs: [Error, Error][] = [
      [new GatewayNetworkError('network', 'm', details), new GatewayNetworkError('m', details)],
      [new GatewayTimeoutError('timeout', 'm', details), new GatewayTimeoutError('m', details)],
      [new GatewayAbortError('aborted', 'm', details), new GatewayAbortError('m', details)],
      [new GatewayNonJsonError('non-json', 'm', details), new GatewayNonJsonError('m', details)],
      [new GatewayHttpError('http', 'm', details), new GatewayHttpError('m', details)],
      [new RequestValidationError('request-invalid', 'm', details), new RequestValidationError('m', details)],
      [new ResponseValidationError('response-invalid', 'm', details), new ResponseValidationError('m', details)],
    ];
    for (const [older, current] of pairs) {
      expect(Object.getPrototypeOf(older)).toBe(Object.getPrototypeOf(current));
      expect({ ...older, message: older.message }).toEqual({ ...current, message: current.message });
      expect(older.message).toBe('m');
    }
    expect(() => Reflect.construct(GatewayHttpError, ['network', 'm', details])).toThrow(TypeError);
  });
});

// A JavaScript caller of 1.0.0 that does not await a helper made asynchronous in 2.0.0 passes a
// Promise, which JSON writes as `{}`. Failed before: the request was sent, `encryptedCardData: {}`
// or `signature: {}` included, with `validate` off (the default).
describe('values an asynchronous helper makes, not awaited (D-117)', () => {
  const CARD = '4111111111111111';
  /** A client whose fetch counts what it is given and answers nothing useful. */
  const counting = (
    options: { signer?: typeof testSigner | { signatureType: string; sign: (text: string) => any } } = {},
  ) => {
    const sent = { count: 0 };
    const c = createGatewayClient({
      gatewayUrl: 'http://127.0.0.1:9',
      routerUrl: 'http://127.0.0.1:9',
      signer: testSigner,
      ...options,
      fetch: async () => {
        sent.count += 1;
        return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    return { c, sent };
  };
  const refusal = async (call: Promise<unknown>) => {
    const error = await call.then(
      () => null,
      (e) => e,
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    return error as RequestValidationError;
  };

  it('refuses a tokenize call whose encryptedCardData is a Promise, an object or missing, naming the field and the helper', async () => {
    const { c, sent } = counting();
    const body = example('TokenizeCardRequest').body;
    const asPromise = await refusal(
      c.tokenizeCard({ mid: 'MERCHANT0001', body: { ...body, encryptedCardData: Promise.resolve(CARD) as never } }),
    );
    expect(asPromise.issues).toEqual([
      {
        in: 'body',
        pointer: '/body/encryptedCardData',
        rule: 'type',
        message:
          '/body/encryptedCardData (the encrypted card data) must be a string, but is a Promise: did you forget to await encryptCardData()?',
      },
    ]);
    expect(asPromise.message).toContain('did you forget to await encryptCardData()?');
    expect(asPromise.message).toContain('Nothing was sent.');
    expect(asPromise.nextStep.action).toBe('fix-request');
    const asObject = await refusal(
      c.tokenizeCard({ mid: 'MERCHANT0001', body: { ...body, encryptedCardData: {} as never } }),
    );
    expect(asObject.issues[0]?.message).toContain(
      'must be a string, but is an object: encryptCardData() gives it (await it)',
    );
    const { encryptedCardData: _dropped, ...withoutCard } = body;
    const missing = await refusal(c.tokenizeCard({ mid: 'MERCHANT0001', body: withoutCard as never }));
    expect(missing.issues[0]).toMatchObject({ pointer: '/body/encryptedCardData', rule: 'type' });
    expect(missing.issues[0]?.message).toContain('is missing');
    const asNumber = await refusal(
      c.tokenizeCard({ mid: 'MERCHANT0001', body: { ...body, encryptedCardData: Number(CARD) as never } }),
    );
    expect(asNumber.issues[0]?.message).toContain('is a number');
    for (const error of [asPromise, asObject, missing, asNumber])
      expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(CARD);
    expect(sent.count).toBe(0);
    // Awaited, it goes.
    await c.tokenizeCard({ mid: 'MERCHANT0001', body }).catch(() => undefined);
    expect(sent.count).toBe(1);
  });

  it("refuses a head signature that is not a string: the caller's un-awaited generateSignature(), or a signer's", async () => {
    const { c, sent } = counting();
    const unsigned = await refusal(
      c.modifyOrder({
        mid: 'MERCHANT0001',
        orderId: 'ORDER-1001',
        txnToken: 'TXN-1',
        sign: false,
        head: { signature: Promise.resolve('SIGNATURE') as never },
        body: example('ModifyOrderRequest').body,
      }),
    );
    expect(unsigned.issues.map((i) => [i.pointer, i.message])).toEqual([
      [
        '/head/signature',
        '/head/signature (the signature) must be a string, but is a Promise: did you forget to await generateSignature()?',
      ],
    ]);
    const badSigner = counting({ signer: { signatureType: 'CHECKSUM', sign: () => ({}) } });
    const signed = await refusal(badSigner.c.preAuthorize({ body: example('PreAuthWalletRequest').body }));
    expect(signed.issues[0]?.message).toBe(
      "/head/signature (the signature) must be a string, but is an object: the signer's sign() must resolve to the signature string.",
    );
    expect(sent.count + badSigner.sent.count).toBe(0);
  });

  it('refuses a Promise anywhere else: a head field, a parameter', async () => {
    const { c, sent } = counting();
    const token = await refusal(
      c.initiatePayment({ txnToken: Promise.resolve('TXN') as never, body: example('PayWithUpi').body }),
    );
    expect(token.issues.map((i) => [i.in, i.pointer])).toEqual([['body', '/head/token']]);
    expect(token.issues[0]?.message).toBe('/head/token is a Promise, not a value: did you forget to await it?');
    const mid = await refusal(
      c.tokenizeCard({ mid: Promise.resolve('MERCHANT0001') as never, body: example('TokenizeCardRequest').body }),
    );
    expect(mid.issues.map((i) => [i.in, i.pointer])).toEqual([['path', '/mid']]);
    expect(sent.count).toBe(0);
  });

  // The promise, proved on generated requests: a Promise planted at any field of the body or the
  // head (the signature aside, which the client's signer writes) is refused before anything is
  // sent, at that field's pointer, and the value it would resolve to appears nowhere.
  for (const view of operationViews.filter((v) => v.operationId !== 'notifyTokenStatus')) {
    it(`${view.operationId}: a Promise at any field of a generated request is refused before sending, at its pointer`, async () => {
      const { c, sent } = counting();
      const method = c[view.operationId as keyof typeof c] as (args: unknown) => Promise<unknown>;
      const argsOf = (sample: Sample) => ({
        body: sample.payload.body,
        head: sample.payload.head,
        mid: sample.path?.mid ?? sample.query?.mid,
        orderId: sample.query?.orderId,
        requestId: sample.query?.requestId,
        txnToken: 'TXN-1',
        token: 'SSO-1',
      });
      const cases = sampleArbitrary(view, 'request').chain((sample) => {
        const places = mutationsOf(view, 'request', sample).filter(
          (m) => m.kind === 'type' && m.in === 'body' && m.at.length > 1 && m.at.join('/') !== 'head/signature',
        );
        return places.length ? fc.constantFrom(...places).map((m) => ({ sample, m })) : fc.constant(null);
      });
      await fc.assert(
        fc.asyncProperty(cases, async (chosen) => {
          if (!chosen) return;
          const { sample, m } = chosen;
          const planted = plant(sample, m.at, Promise.resolve(CARD));
          const error = await method(argsOf(planted)).then(
            () => null,
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(RequestValidationError);
          const issues = (error as RequestValidationError).issues;
          expect(issues.map((i) => i.pointer)).toContain(m.pointer);
          expect(issues.every((i) => i.rule === 'type')).toBe(true);
          expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain(CARD);
          expect(sent.count).toBe(0);
        }),
        fcParameters(40),
      );
    });
  }
});
