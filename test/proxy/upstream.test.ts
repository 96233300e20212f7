// Forwarding upstream as a unit (src/proxy/upstream.ts): the upstream request of a client's request
// (its path under the upstream's, its query as sent, no header of one hop either way), the failure of
// each way a call ends without an answer, and calls against stand-in upstreams: an answer passed on
// as its bytes came, one too large or not JSON, a refused connection, a call abandoned, a client gone.
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  connectionFailure,
  endToEndHeaders,
  type Failure,
  type Outcome,
  Upstream,
  upstreamRequest,
  upstreamUrl,
} from '../../src/proxy/upstream.js';
import { fcParameters } from '../helpers/arbitraries.js';
import { freePort, startServer, type TestServer } from '../helpers/servers.js';

const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
  'host',
  'content-length',
];

describe('upstreamUrl', () => {
  it('takes an http(s) address with any base path', () => {
    expect(upstreamUrl('https://gateway.test/base', 'gatewayUpstream').href).toBe('https://gateway.test/base');
    expect(upstreamUrl('HTTP://[::1]:8080/', 'gatewayUpstream').host).toBe('[::1]:8080');
  });

  it.each(['gateway.test', 'ftp://gateway.test', 'http:// gateway.test', 'http://'])(
    'refuses %j, naming the option and not the value',
    (value) => {
      expect(() => upstreamUrl(value, 'routerUpstream')).toThrow(
        new TypeError('routerUpstream must be an http(s) address.'),
      );
    },
  );

  it('refuses a query or a fragment', () => {
    expect(() => upstreamUrl('http://gateway.test/?x', 'gatewayUpstream')).toThrow('must have no query or fragment');
    expect(() => upstreamUrl('http://gateway.test/#x', 'gatewayUpstream')).toThrow('must have no query or fragment');
  });
});

describe('endToEndHeaders', () => {
  it('passes every header but those of one hop, unchanged', () => {
    const name = fc.oneof(fc.constantFrom(...HOP_BY_HOP), fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/));
    const value = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
      fc.constant(undefined),
    );
    fc.assert(
      fc.property(fc.dictionary(name, value), (headers) => {
        const out = endToEndHeaders(headers);
        for (const hop of HOP_BY_HOP) expect(out).not.toHaveProperty(hop);
        for (const [k, v] of Object.entries(headers))
          if (!HOP_BY_HOP.includes(k) && v !== undefined) expect(out[k]).toBe(v);
        expect(Object.values(out)).not.toContain(undefined);
      }),
      fcParameters(200),
    );
  });
});

describe('upstreamRequest', () => {
  const to = { upstream: new URL('https://[::1]/base/'), path: '/base/order/v2/preAuth' };

  it("is a POST to the route's path with the query as sent, the upstream's host and the body's length", () => {
    const headers: IncomingHttpHeaders = {
      host: 'proxy.test',
      connection: 'close',
      'content-length': '99',
      'x-request-id': 'r1',
      'x-many': ['a', 'b'],
    };
    const target = upstreamRequest(to, { headers, url: '/order/v2/preAuth?mid=M%2F1&mid=2' }, 12);
    expect(target).toEqual({
      method: 'POST',
      protocol: 'https:',
      hostname: '::1',
      port: 443,
      path: '/base/order/v2/preAuth?mid=M%2F1&mid=2',
      headers: { 'x-request-id': 'r1', 'x-many': ['a', 'b'], 'content-length': '12', host: '[::1]' },
    });
  });

  it('takes the port of the address, or 80 for http', () => {
    expect(
      upstreamRequest({ upstream: new URL('http://gateway.test'), path: '/p' }, { headers: {}, url: '/p' }, 0),
    ).toMatchObject({ port: 80, path: '/p' });
    expect(
      upstreamRequest({ upstream: new URL('http://gateway.test:81'), path: '/p' }, { headers: {}, url: undefined }, 0),
    ).toMatchObject({
      port: '81',
      path: '/p',
    });
  });
});

describe('connectionFailure', () => {
  it('names a refusal, an unknown host, and any other error as a reset; all 502', () => {
    expect(connectionFailure('ECONNREFUSED')).toMatchObject({ status: 502, rule: 'upstream-refused' });
    expect(connectionFailure('ENOTFOUND')).toMatchObject({ status: 502, rule: 'upstream-unknown' });
    expect(connectionFailure('EAI_AGAIN')).toMatchObject({ status: 502, rule: 'upstream-unknown' });
    expect(connectionFailure('ECONNRESET')).toMatchObject({ status: 502, rule: 'upstream-reset' });
    expect(connectionFailure(undefined)).toMatchObject({ status: 502, rule: 'upstream-reset' });
  });
});

describe('Upstream', () => {
  /** What the stand-in answers next; `hold` keeps the request open. */
  let next: { status: number; headers: Record<string, string>; body: Buffer } | 'hold' = 'hold';
  let service: TestServer;
  const upstream = new Upstream({ maxAnswerBytes: 64, timeoutMs: 10_000 });

  beforeAll(async () => {
    service = await startServer((_, res) => {
      if (next === 'hold') return;
      res.writeHead(next.status, { ...next.headers, 'content-length': next.body.byteLength });
      res.end(next.body);
    });
  });
  afterAll(async () => {
    upstream.close();
    await service?.close();
  });

  /** A client's response as forward() watches it. */
  const client = () => Object.assign(new EventEmitter(), { writableFinished: false });
  const call = (
    body: string,
    req: Pick<IncomingMessage, 'headers' | 'url'> = { headers: { 'content-type': 'application/json' }, url: '/x?q=1' },
    res = client(),
    through = upstream,
  ) =>
    new Promise<Outcome>((resolve) =>
      through.forward({ upstream: new URL(service.url), path: '/base/x' }, req, res, Buffer.from(body), resolve),
    );

  it('passes the answer on as its bytes came, parsed once, without headers of one hop', async () => {
    next = {
      status: 200,
      headers: { 'content-type': 'application/json', 'keep-alive': 'timeout=5', 'x-trace': 't' },
      body: Buffer.from('{"a": 1}'),
    };
    const outcome = (await call('{"b":2}')) as Answer;
    expect(outcome.status).toBe(200);
    expect(outcome.body.toString()).toBe('{"a": 1}');
    expect(outcome.text).toBe('{"a": 1}');
    expect(outcome.parsed).toEqual({ ok: true, value: { a: 1 } });
    expect(outcome.headers['x-trace']).toBe('t');
    expect(outcome.headers).not.toHaveProperty('keep-alive');
    expect(outcome.headers).not.toHaveProperty('content-length');
    const sent = service.requests.at(-1);
    expect(sent?.url).toBe('/base/x?q=1');
    expect(sent?.text).toBe('{"b":2}');
  });

  it('fails an answer larger than the bound, with its status, and one that is not JSON', async () => {
    next = { status: 200, headers: {}, body: Buffer.alloc(65, 0x20) };
    expect(await call('{}')).toMatchObject({
      failure: { status: 502, rule: 'upstream-too-large' },
      upstreamStatus: 200,
    });
    next = { status: 500, headers: {}, body: Buffer.from('<html>') };
    expect(await call('{}')).toMatchObject({
      failure: { status: 502, rule: 'upstream-not-json' },
      upstreamStatus: 500,
    });
  });

  it('fails a refused connection', async () => {
    const port = await freePort();
    const outcome = await new Promise<Outcome>((resolve) =>
      upstream.forward(
        { upstream: new URL(`http://127.0.0.1:${port}`), path: '/' },
        { headers: {}, url: '/' },
        client(),
        Buffer.from('{}'),
        resolve,
      ),
    );
    expect(outcome).toEqual({ failure: connectionFailure('ECONNREFUSED') });
  });

  it('ends a call it is told to abandon with the failure given, once', async () => {
    next = 'hold';
    const req = { headers: {}, url: '/x' };
    const stop: Failure = { status: 503, rule: 'shutdown', title: 'Stopped', message: 'stopped' };
    const before = service.requests.length;
    const outcome = call('{}', req);
    await waitFor(() => service.requests.length > before);
    expect(upstream.abandon(req, stop)).toBe(true);
    expect(await outcome).toEqual({ failure: stop });
    expect(upstream.abandon(req, stop)).toBe(false);
  });

  it('fails a call the upstream does not answer within its time', async () => {
    next = 'hold';
    const slow = new Upstream({ maxAnswerBytes: 64, timeoutMs: 50 });
    expect(await call('{}', undefined, undefined, slow)).toMatchObject({
      failure: { status: 504, rule: 'upstream-timeout' },
    });
    slow.close();
  });

  it('stops waiting for the upstream when the client goes away', async () => {
    next = 'hold';
    const res = client();
    const before = service.requests.length;
    const outcome = call('{}', undefined, res);
    await waitFor(() => service.requests.length > before);
    res.emit('close');
    expect(await outcome).toMatchObject({ failure: { status: 502, rule: 'upstream-reset' } });
  });
});

/** Waits, a tick at a time (at most 10 s), until `ready` holds. */
async function waitFor(ready: () => boolean): Promise<void> {
  const until = Date.now() + 10_000;
  while (!ready()) {
    if (Date.now() > until) throw new Error('not ready within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
