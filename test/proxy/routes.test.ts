// The proxy's options and routes as units (src/proxy/options.ts, webhook.ts, routes.ts): the options
// checked before the proxy listens, each wrong one named, defaults filled in from src/http/limits.ts;
// the webhook's pass-through; and every operation's path, with generated path parameters and query,
// routed to its own host under that host's base path, the query kept as sent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type OperationInfo, operations } from '../../generated/operations.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_REQUEST_TIMEOUT_MS } from '../../src/http/limits.js';
import {
  DEFAULT_GRACE_MS,
  DEFAULT_MAX_ANSWER_BYTES,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  type ProxyOptions,
  proxySettings,
} from '../../src/proxy/options.js';
import { type Route, routeRequest, type Upstreams } from '../../src/proxy/routes.js';
import { NOTIFICATION, webhookPassThrough } from '../../src/proxy/webhook.js';
import { fcParameters } from '../helpers/arbitraries.js';

const BASE: ProxyOptions = { gatewayUpstream: 'http://gateway.test/base/', routerUpstream: 'https://router.test:8443' };
const KEY = 'SandboxTestKey01';

const upstreams = (webhook?: string, path?: string): Upstreams => ({
  gateway: new URL('http://gateway.test/base/'),
  router: new URL('https://router.test:8443'),
  webhook: webhookPassThrough(webhook, path),
});

const routed = (route: ReturnType<typeof routeRequest>): Route => {
  if (route === null || route === 'method' || 'kind' in route) throw new Error(`not routed: ${JSON.stringify(route)}`);
  return route;
};

describe('proxySettings', () => {
  it('fills in the documented defaults, the body and request bounds from src/http/limits.ts', () => {
    const settings = proxySettings(BASE);
    expect(settings).toMatchObject({
      key: undefined,
      enforce: false,
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
      maxAnswerBytes: DEFAULT_MAX_ANSWER_BYTES,
      upstreamTimeoutMs: DEFAULT_UPSTREAM_TIMEOUT_MS,
      requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
      graceMs: DEFAULT_GRACE_MS,
    });
    expect(settings.upstreams.gateway.href).toBe('http://gateway.test/base/');
    expect(settings.upstreams.router.href).toBe('https://router.test:8443/');
    expect(settings.upstreams.webhook).toBeUndefined();
  });

  it('keeps what it is given', () => {
    const settings = proxySettings({
      ...BASE,
      merchantKey: KEY,
      enforce: true,
      maxBodyBytes: 10,
      maxAnswerBytes: 20,
      upstreamTimeoutMs: 30,
      requestTimeoutMs: 40,
      graceMs: 0,
    });
    expect(settings).toMatchObject({
      key: KEY,
      enforce: true,
      maxBodyBytes: 10,
      maxAnswerBytes: 20,
      upstreamTimeoutMs: 30,
      requestTimeoutMs: 40,
      graceMs: 0,
    });
  });

  it.each([
    [{ gatewayUpstream: 'ftp://gateway.test' }, 'gatewayUpstream must be an http(s) address.'],
    [{ gatewayUpstream: 'http://gateway .test' }, 'gatewayUpstream must be an http(s) address.'],
    [{ routerUpstream: 'http://router.test/?a=1' }, 'routerUpstream must have no query or fragment.'],
    [{ routerUpstream: 'http://router.test/#top' }, 'routerUpstream must have no query or fragment.'],
    [{ webhookUpstream: 'merchant.test/hook' }, 'webhookUpstream must be an http(s) address.'],
    [{ webhookPath: '/hook' }, 'webhookPath needs webhookUpstream: the address notifications are forwarded to.'],
    [
      { webhookUpstream: 'http://merchant.test/hook', webhookPath: 'hook' },
      'webhookPath must be a URL path, e.g. /webhooks/token.',
    ],
    [
      { webhookUpstream: 'http://merchant.test/hook', webhookPath: '/hook?x' },
      'webhookPath must be a URL path, e.g. /webhooks/token.',
    ],
    [{ webhookUpstream: 'http://merchant.test/order/v2/preAuth' }, "webhookPath is one of the contract's paths."],
    [{ merchantKey: 'short' }, 'The merchant key must be 16 bytes.'],
    [{ merchantKey: 'SandboxTestKey0é' }, 'The merchant key must be 16 bytes.'],
  ])('refuses %j: %s', (wrong, message) => {
    expect(() => proxySettings({ ...BASE, ...wrong })).toThrow(new TypeError(message));
  });

  it('names the first wrong option, in the order they are read, and never the key', () => {
    expect(() =>
      proxySettings({ gatewayUpstream: 'x', routerUpstream: 'y', merchantKey: 'NotSixteenBytes!!' }),
    ).toThrow('gatewayUpstream');
    expect(() => proxySettings({ ...BASE, webhookPath: 'x', merchantKey: 'NotSixteenBytes!!' })).toThrow('webhookPath');
    try {
      proxySettings({ ...BASE, merchantKey: 'NotSixteenBytes!!' });
    } catch (error) {
      expect(String(error)).not.toContain('NotSixteenBytes');
    }
  });
});

describe('webhookPassThrough', () => {
  it('is none without the merchant address, and its path is the address path by default', () => {
    expect(webhookPassThrough(undefined, undefined)).toBeUndefined();
    expect(webhookPassThrough('http://merchant.test/webhooks/token', undefined)).toMatchObject({
      path: '/webhooks/token',
    });
    expect(webhookPassThrough('http://merchant.test/webhooks/token', '/in')).toMatchObject({ path: '/in' });
  });

  it('checks the notification as notifyTokenStatus', () => {
    expect(NOTIFICATION.operationId).toBe('notifyTokenStatus');
  });
});

/** A segment a path parameter may hold and that the router reads back as itself. */
const safeSegment = fc.stringMatching(/^[A-Za-z0-9_~-]{1,12}$/).filter((s) => s !== '.' && s !== '..');
const query = fc.array(fc.tuple(fc.stringMatching(/^[a-zA-Z]{1,8}$/), fc.stringMatching(/^[A-Za-z0-9%+._~-]{0,12}$/)), {
  maxLength: 4,
});
const pathOperations = operations.filter((o): o is OperationInfo & { path: string } => o.path !== null);

describe('routeRequest', () => {
  it("sends every operation's path, with any safe path parameters and query, to its host under the host's base path", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...pathOperations),
        fc.array(safeSegment, { minLength: 3, maxLength: 3 }),
        query,
        (op, values, pairs) => {
          let i = 0;
          const expected: Record<string, string> = {};
          const pathname = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
            const value = values[i++] as string;
            expected[name] = value;
            return value;
          });
          const search = pairs.map(([k, v]) => `${k}=${v}`).join('&');
          const route = routed(routeRequest(upstreams(), 'POST', search ? `${pathname}?${search}` : pathname));
          expect(route.op.operationId).toBe(op.operationId);
          const base = op.host === 'router' ? 'https://router.test:8443/' : 'http://gateway.test/base/';
          expect(route.upstream.href).toBe(base);
          expect(route.path).toBe(`${op.host === 'router' ? '' : '/base'}${pathname}`);
          expect(route.params.query).toBe(search);
          expect(route.params.path).toEqual(i > 0 ? expected : undefined);
        },
      ),
      fcParameters(200),
    );
  });

  it('answers another method at an operation path or the webhook path as a method problem', () => {
    expect(routeRequest(upstreams(), 'GET', '/order/v2/preAuth')).toBe('method');
    expect(routeRequest(upstreams('http://merchant.test/hook'), 'PUT', '/hook')).toBe('method');
  });

  it('knows no other path, nor an operation path under a base path, nor the webhook path without a webhook', () => {
    expect(routeRequest(upstreams(), 'POST', '/order/v2/preAuthx')).toBeNull();
    expect(routeRequest(upstreams(), 'POST', '/base/order/v2/preAuth')).toBeNull();
    expect(routeRequest(upstreams(), 'POST', '/webhooks/token')).toBeNull();
    expect(routeRequest(upstreams(), 'POST', '*')).toBeNull();
  });

  it('refuses a path parameter a front could read as another path, naming the parameter', () => {
    for (const value of ['..', '.', 'a%2Fb', 'a%5Cb', 'a;b', '%2525', '%zz']) {
      const route = routeRequest(upstreams(), 'POST', `/coft-center/coft/merchant/${value}/tokenize`);
      expect(route).toMatchObject({ kind: 'unsafe', parameter: 'mid' });
    }
  });

  it("sends a notification at the webhook path to the merchant's address, its path as given", () => {
    const route = routed(routeRequest(upstreams('http://merchant.test:9/hooks/token', '/in'), 'POST', '/in?x=1'));
    expect(route.op).toBe(NOTIFICATION);
    expect(route.upstream.href).toBe('http://merchant.test:9/hooks/token');
    expect(route.path).toBe('/hooks/token');
    expect(route.params).toEqual({});
  });
});
