// The faulty implementations themselves: the front passes everything through unchanged when it has
// no fault, and each fault really changes what the sandbox says, as its probe shows (and the same
// probe against the faithful front does not). Answer faults are also named by verify's own check of
// an answer with the rule they expect; the other faults' answers pass that check (each fault breaks
// its own rule only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/verify/checks.js';
import type { Exchange } from '../../src/verify/types.js';
import { FAULTS } from './faulty/faults.js';
import { type Front, startFront } from './faulty/front.js';
import { type Harness, harnessFor, MID } from './faulty/harness.js';
import { PROBES } from './faulty/probes.js';

let clean: Front;
let cleanHarness: Harness;
beforeAll(async () => {
  clean = await startFront();
  cleanHarness = await harnessFor(clean);
});
afterAll(async () => {
  await cleanHarness?.close();
  await clean?.stop();
});

describe('the front without a fault', () => {
  it('passes operations, control calls and notifications through as the sandbox answers them', async () => {
    const { orderId, txnToken } = await cleanHarness.order();
    const paid = await cleanHarness.call({
      operationId: 'initiatePayment',
      token: txnToken,
      body: { mid: MID, orderId, requestType: 'PAYMENT', paymentMode: 'WALLET', walletInfo: { paymentFlow: 'PAY' } },
    });
    expect(paid.status).toBe(200);
    expect(checkExchange(cleanHarness.target, paid)).toEqual([]);
    const seen = await fetch(`${clean.url}/sandbox/orders/${orderId}`);
    expect(await seen.json()).toMatchObject({ orderId, status: 'PAID' });
    await cleanHarness.listen();
    expect(clean.notifyTarget).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/notifications$/);
    await cleanHarness.call({ operationId: 'tokenizeCard', body: await cleanHarness.tokenizeBody() });
    await clean.sandbox.idle();
    expect(cleanHarness.notifications.map((n) => n.body.mid)).toContain(MID);
    expect(clean.sandbox.deliveries().at(-1)?.state).toBe('delivered');
  });

  it('refuses a webhook-url that is not an http(s) URL, and takes null or its own address as none', async () => {
    const post = (url: unknown) =>
      fetch(`${clean.url}/sandbox/webhook-url`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
    expect((await post('file:///etc/passwd')).status).toBe(400);
    expect((await post(null)).status).toBe(200);
    expect(clean.notifyTarget).toBeNull();
    // Its own address (the one the sandbox notifies) is none: notifications never loop.
    expect((await post(`${clean.url}/front/notifications`)).status).toBe(200);
    expect(clean.notifyTarget).toBeNull();
  });
});

describe('each fault changes what the sandbox says', () => {
  it('has at least 24 faults, of every kind, each with a probe', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(24);
    expect(new Set(FAULTS.map((f) => f.kind))).toEqual(
      new Set(['answer', 'refusal', 'acceptance', 'state', 'notification']),
    );
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
    expect(FAULTS.filter((f) => !PROBES[f.name]).map((f) => f.name)).toEqual([]);
  });

  for (const fault of FAULTS) {
    it(`${fault.name}: ${fault.what}`, async () => {
      const probe = PROBES[fault.name];
      if (!probe) throw new Error(`No probe for ${fault.name}`);
      expect(await probe(cleanHarness), 'the faithful front shows it').toBe(false);
      const front = await startFront(fault);
      const harness = await harnessFor(front);
      const seen: Exchange[] = [];
      const call = harness.call;
      harness.call = async (spec) => {
        const x = await call(spec);
        seen.push(x);
        return x;
      };
      try {
        expect(await probe(harness), 'the faulty front shows it').toBe(true);
        // An answer fault breaks its rule; any other fault answers what the contract allows, re-signed.
        const rules = seen.flatMap((x) => checkExchange(harness.target, x).map((f) => f.rule));
        if (fault.kind === 'answer') expect(rules).toContain(fault.expectedRule);
        else expect(rules).toEqual([]);
      } finally {
        await harness.close();
        await front.stop();
      }
    });
  }
});
