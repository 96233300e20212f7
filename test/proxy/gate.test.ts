// The proxy judges exactly what the upstream acts on: compressed answers decoded for the check and
// forwarded as they came (bombs and unknown encodings a verdict), an answer that is not HTTP 200
// reported (D-09), an answer over the limit named as such, compressed requests refused, repeated
// query parameters of the contract refused, and path parameters that a front would normalise
// (dot segments, encoded slashes) never forwarded.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProxy, startProxy } from '../../src/proxy/server.js';
import { contractExamples } from '../helpers/examples.js';
import { startServer, type TestServer } from '../helpers/servers.js';

const example = (operationId: string, direction: 'request' | 'response', name?: string) => {
  const found = contractExamples().find(
    (e) => e.operationId === operationId && e.direction === direction && (name === undefined || e.name === name),
  );
  if (!found) throw new Error(`no example ${operationId} ${direction}`);
  return found;
};
const PRE_AUTH = JSON.stringify(example('preAuthorize', 'request').payload);
const PRE_AUTH_ANSWER = Buffer.from(JSON.stringify(example('preAuthorize', 'response').payload));
const TOKENIZE = JSON.stringify(example('tokenizeCard', 'request').payload);
const PAY_ANSWER = Buffer.from(JSON.stringify(example('initiatePayment', 'response').payload));
const TOKENIZE_ANSWER = Buffer.from(JSON.stringify(example('tokenizeCard', 'response').payload));

/** What the upstream answers next: status, headers and the exact bytes. */
let next: { status: number; headers: Record<string, string>; body: Buffer } | undefined;
let upstream: TestServer;
let proxy: RunningProxy;
let enforcing: RunningProxy;

beforeAll(async () => {
  upstream = await startServer((request, res) => {
    const answer = next ?? {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: request.url.startsWith('/order/')
        ? PRE_AUTH_ANSWER
        : request.url.startsWith('/coft-center/')
          ? TOKENIZE_ANSWER
          : PAY_ANSWER,
    };
    res.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.byteLength });
    res.end(answer.body);
  });
  proxy = await startProxy({
    gatewayUpstream: upstream.url,
    routerUpstream: upstream.url,
    port: 0,
    maxAnswerBytes: 64 * 1024,
  });
  enforcing = await startProxy({ gatewayUpstream: upstream.url, routerUpstream: upstream.url, port: 0, enforce: true });
});

afterAll(async () => {
  await proxy?.stop();
  await enforcing?.stop();
  await upstream?.close();
});

const post = (base: string, path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
const lastCase = (p: RunningProxy = proxy) => p.report().cases.at(-1);
const rules = (p: RunningProxy = proxy) => lastCase(p)?.errors.map((e) => e.rule) ?? [];

/** The raw bytes of an answer as the proxy sent them, without fetch's own decoding; the path is sent as given (fetch normalises it). */
async function rawAnswer(path: string, body: string, headers: Record<string, string> = {}, base = proxy.url) {
  const { request } = await import('node:http');
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    const req = request(
      `${base}/`,
      { method: 'POST', path, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('compressed answers', () => {
  for (const [encoding, encode] of [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const) {
    it(`decodes a ${encoding} answer for the check and forwards its bytes and content-encoding as they came`, async () => {
      const bytes = encode(PRE_AUTH_ANSWER);
      next = {
        status: 200,
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: bytes,
      };
      try {
        const answer = await rawAnswer('/order/v2/preAuth', PRE_AUTH, { 'accept-encoding': 'gzip, deflate, br' });
        expect(answer.status).toBe(200);
        expect(answer.headers['content-encoding']).toBe(encoding);
        expect(answer.body.equals(bytes)).toBe(true);
        expect(lastCase()).toMatchObject({ operationId: 'preAuthorize', valid: true });
      } finally {
        next = undefined;
      }
    });
  }

  it('answers a compression bomb with upstream-too-large, holding no more than the limit', async () => {
    // 64 KiB allowed; 50 MB of zeros compress to about 50 KB.
    next = {
      status: 200,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.alloc(50_000_000, 0x20)),
    };
    try {
      const answer = await post(proxy.url, '/order/v2/preAuth', PRE_AUTH);
      expect(answer.status).toBe(502);
      expect(await answer.json()).toMatchObject({ type: 'urn:gateway-contract:proxy:upstream-too-large' });
      expect(rules()).toContain('upstream-too-large');
    } finally {
      next = undefined;
    }
  });

  it('gives a verdict for an encoding it does not know and for bytes that do not decode', async () => {
    for (const [encoding, body] of [
      ['compress', PRE_AUTH_ANSWER],
      ['gzip', Buffer.from('not gzip at all')],
    ] as const) {
      next = { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': encoding }, body };
      try {
        const answer = await post(proxy.url, '/order/v2/preAuth', PRE_AUTH);
        expect(answer.status).toBe(502);
        expect(await answer.json()).toMatchObject({ type: 'urn:gateway-contract:proxy:upstream-encoding' });
        expect(rules()).toContain('upstream-encoding');
      } finally {
        next = undefined;
      }
    }
  });

  it('refuses a compressed request: the service reads plain JSON', async () => {
    const before = upstream.requests.length;
    const answer = await post(proxy.url, '/order/v2/preAuth', PRE_AUTH, { 'content-encoding': 'gzip' });
    expect(answer.status).toBe(415);
    expect(await answer.json()).toMatchObject({ type: 'urn:gateway-contract:proxy:request-encoding' });
    expect(upstream.requests.length).toBe(before);
    expect(lastCase()?.valid).toBe(false);
  });
});

describe('answers', () => {
  for (const status of [500, 503]) {
    it(`reports an HTTP ${status} answer with a valid body as invalid (every outcome is HTTP 200), and forwards it`, async () => {
      for (const p of [proxy, enforcing]) {
        next = { status, headers: { 'content-type': 'application/json' }, body: PRE_AUTH_ANSWER };
        try {
          const answer = await post(p.url, '/order/v2/preAuth', PRE_AUTH);
          expect(answer.status).toBe(status);
          expect(Buffer.from(await answer.arrayBuffer()).equals(PRE_AUTH_ANSWER)).toBe(true);
          expect(lastCase(p)?.valid).toBe(false);
          expect(rules(p)).toEqual(['http-status']);
        } finally {
          next = undefined;
        }
      }
    });
  }

  it('names an answer over the size limit upstream-too-large', async () => {
    next = { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.alloc(200 * 1024, 0x20) };
    try {
      const answer = await post(proxy.url, '/order/v2/preAuth', PRE_AUTH);
      expect(answer.status).toBe(502);
      expect(await answer.json()).toMatchObject({ type: 'urn:gateway-contract:proxy:upstream-too-large' });
      expect(rules()).toEqual(['upstream-too-large']);
    } finally {
      next = undefined;
    }
  });
});

describe('path parameters', () => {
  it('refuses a dot segment or an encoded slash in a path parameter with 400 in both modes, never forwarding it', async () => {
    for (const p of [proxy, enforcing])
      for (const mid of ['..', '%2e%2e', '%2E.', 'x%2F..%2F..', 'a%5Cb', '..;x']) {
        const before = upstream.requests.length;
        const answer = await rawAnswer(
          `/coft-center/coft/merchant/${mid}/tokenize?requestId=REQ-1`,
          TOKENIZE,
          {},
          p.url,
        );
        expect(answer.status, mid).toBe(400);
        expect(JSON.parse(answer.body.toString())).toMatchObject({
          type: 'urn:gateway-contract:proxy:unsafe-path',
          operationId: 'tokenizeCard',
        });
        expect(upstream.requests.length).toBe(before);
        expect(lastCase(p)?.errors.map((e) => [e.in, e.pointer, e.rule])).toEqual([
          ['path', '/mid', 'safePathParameter'],
        ]);
      }
  });

  it('forwards a plain path parameter', async () => {
    const answer = await rawAnswer(
      '/coft-center/coft/merchant/MERCHANT0001/tokenize?requestId=REQ-20260121-0001',
      TOKENIZE,
    );
    expect(answer.status).toBe(200);
    expect(upstream.requests.at(-1)?.url).toBe(
      '/coft-center/coft/merchant/MERCHANT0001/tokenize?requestId=REQ-20260121-0001',
    );
  });
});
