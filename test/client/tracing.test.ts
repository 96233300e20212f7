// The client's tracing on diagnostics_channel: each call and each attempt published with the
// documented fields, never a value of the payload (a card number and a token are planted in the
// request and echoed by the answer), and nothing published while nobody subscribes. Against
// local servers.

import { channel, subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createGatewayClient, GatewayHttpError } from '../../src/index.js';
import { json, startServer, type TestServer } from '../helpers/servers.js';

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const example = (name: string) => structuredClone(doc.components.examples[name].value);

const CARD = '4111111111111111';
const TOKEN = 'tok_TRACE_SECRET_7d1f';
const CALL = 'gateway-contract:client:call';
const ATTEMPTS = [
  'gateway-contract:client:request',
  'gateway-contract:client:response',
  'gateway-contract:client:error',
];
const CALL_EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'].map((e) => `tracing:${CALL}:${e}`);

/** A pay request that carries the planted card number (its CVV-less card data) and is sent with the planted token. */
function plantedPay() {
  const body = example('PayWithUpi').body;
  return { txnToken: TOKEN, body: { ...body, payerAccount: `${CARD}@upi` } };
}

/** Subscribes to every channel of the client, recording each message with its channel; `stop()` unsubscribes. */
function record() {
  const events: { name: string; message: any }[] = [];
  const handlers = [...CALL_EVENTS, ...ATTEMPTS].map((name) => {
    // The context object of the call is one object that grows: keep a copy at each event.
    const handler = (message: unknown) => events.push({ name, message: { ...(message as object) } });
    subscribe(name, handler);
    return [name, handler] as const;
  });
  return {
    events,
    named: (name: string) => events.filter((e) => e.name === name).map((e) => e.message),
    stop: () => {
      for (const [name, handler] of handlers) unsubscribe(name, handler);
    },
  };
}

/** Everything an event shows, as printed or serialized. */
const shown = (value: unknown) => `${JSON.stringify(value)} ${inspect(value, { depth: 10, showHidden: true })}`;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('tracing on diagnostics_channel', () => {
  it('publishes a call and its attempt with the documented fields, and no value of the payload', async () => {
    // The answer echoes the card number and the token back, as a hostile or careless server might.
    const answer = example('PaySucceeded');
    answer.body.echo = { card: CARD, token: TOKEN };
    server = await startServer((_req, res) => {
      res.setHeader('x-echo', TOKEN);
      json(res, answer);
    });
    const recorder = record();
    try {
      const client = createGatewayClient({ gatewayUrl: server.url, routerUrl: server.url });
      const result = await client.initiatePayment(plantedPay());
      expect(result.code).toBe('0000');
    } finally {
      recorder.stop();
    }
    expect(recorder.named(`tracing:${CALL}:start`)).toEqual([
      { operationId: 'initiatePayment', host: 'router', path: '/aoa-acquiring-biz/v2/payment', attempts: 0 },
    ]);
    expect(recorder.named(`tracing:${CALL}:end`)).toHaveLength(1);
    expect(recorder.named(`tracing:${CALL}:error`)).toEqual([]);
    expect(recorder.named(`tracing:${CALL}:asyncEnd`)).toEqual([
      {
        operationId: 'initiatePayment',
        host: 'router',
        path: '/aoa-acquiring-biz/v2/payment',
        attempts: 1,
        durationMs: expect.any(Number),
        result: { httpStatus: 200, code: '0000', status: 'S', outcome: 'success', nextStep: 'none' },
      },
    ]);
    expect(recorder.named('gateway-contract:client:request')).toEqual([
      { operationId: 'initiatePayment', attempt: 1, host: 'router', path: '/aoa-acquiring-biz/v2/payment' },
    ]);
    expect(recorder.named('gateway-contract:client:response')).toEqual([
      {
        operationId: 'initiatePayment',
        attempt: 1,
        durationMs: expect.any(Number),
        httpStatus: 200,
        code: '0000',
        status: 'S',
        outcome: 'success',
        nextStep: expect.objectContaining({ action: 'none' }),
        willRetry: false,
      },
    ]);
    expect(recorder.events.map((e) => e.name)).toEqual([
      `tracing:${CALL}:start`,
      `tracing:${CALL}:end`,
      'gateway-contract:client:request',
      'gateway-contract:client:response',
      `tracing:${CALL}:asyncStart`,
      `tracing:${CALL}:asyncEnd`,
    ]);
    const text = shown(recorder.events);
    expect(text).not.toContain(CARD);
    expect(text).not.toContain(TOKEN);
  });

  it('publishes a failed call with a copy of its error that holds neither the answer nor a secret, and every retry', async () => {
    server = await startServer((_req, res) => json(res, { error: `card ${CARD} token ${TOKEN}` }, 503));
    const recorder = record();
    let thrown: unknown;
    try {
      const client = createGatewayClient({
        gatewayUrl: server.url,
        routerUrl: server.url,
        signer: { signatureType: 'CHECKSUM', sign: () => 'SIGNATURE' },
        retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 },
      });
      thrown = await client
        .listSubscriptions({ token: TOKEN, body: example('ListSubscriptionsRequest').body })
        .catch((e) => e);
    } finally {
      recorder.stop();
    }
    // The caller gets the error itself, its answer readable.
    expect(thrown).toBeInstanceOf(GatewayHttpError);
    expect((thrown as GatewayHttpError).data).toEqual({ error: `card ${CARD} token ${TOKEN}` });
    expect(recorder.named('gateway-contract:client:request').map((e) => e.attempt)).toEqual([1, 2]);
    const attempts = recorder.named('gateway-contract:client:error');
    expect(
      attempts.map((e) => [
        e.operationId,
        e.attempt,
        e.willRetry,
        e.error.kind,
        e.error.status,
        e.error.nextStep.action,
      ]),
    ).toEqual([
      ['listSubscriptions', 1, true, 'http', 503, 'retry-later'],
      ['listSubscriptions', 2, false, 'http', 503, 'retry-later'],
    ]);
    const [failed] = recorder.named(`tracing:${CALL}:error`);
    expect(failed).toMatchObject({
      operationId: 'listSubscriptions',
      host: 'gateway',
      path: '/subscription/list/all',
      attempts: 2,
    });
    expect(failed.durationMs).toBeGreaterThanOrEqual(0);
    expect(failed.error).toBeInstanceOf(GatewayHttpError);
    expect(failed.error).not.toBe(thrown);
    expect(failed.error.data).toBeUndefined();
    expect(recorder.named(`tracing:${CALL}:asyncEnd`)).toHaveLength(1);
    const text = shown(recorder.events);
    expect(text).not.toContain(CARD);
    expect(text).not.toContain(TOKEN);
  });

  it('publishes nothing, and builds no event, while nobody subscribes', async () => {
    server = await startServer((_req, res) => json(res, example('PaySucceeded')));
    // The very channel objects the client publishes on: count what reaches them.
    let reached = 0;
    const channels = [...ATTEMPTS.map((name) => channel(name)), ...Object.values(tracingChannelParts(CALL))];
    const restore = channels.map((c) => {
      const { publish, runStores } = c;
      c.publish = (message: unknown) => {
        reached++;
        publish.call(c, message);
      };
      c.runStores = ((...args: Parameters<typeof runStores>) => {
        reached++;
        return runStores.apply(c, args);
      }) as typeof runStores;
      return () => {
        c.publish = publish;
        c.runStores = runStores;
      };
    });
    try {
      const client = createGatewayClient({ gatewayUrl: server.url, routerUrl: server.url });
      await client.initiatePayment(plantedPay());
      expect(reached).toBe(0);
      // The same call with a subscriber reaches them: the count above could have failed.
      const recorder = record();
      try {
        await client.initiatePayment(plantedPay());
      } finally {
        recorder.stop();
      }
      expect(reached).toBeGreaterThan(0);
    } finally {
      for (const undo of restore) undo();
    }
  });
});

/** The five channels of a tracing channel, by event. */
function tracingChannelParts(name: string) {
  const { start, end, asyncStart, asyncEnd, error } = tracingChannel(name);
  return { start, end, asyncStart, asyncEnd, error };
}
