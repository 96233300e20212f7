// The receiver's events on diagnostics_channel (docs/tracing.md): a notification's verdict and code,
// the replay store's failures; never a value of the payload; nothing built or published when no
// one subscribes; absent, and the entry still loads, where the runtime has no diagnostics_channel.
import diagnostics from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { createChecksumVerifier } from 'gateway-contract';
import { createWebhookReceiver, type WebhookStoreEvent, type WebhookVerdictEvent } from 'gateway-contract/webhook';
import { afterEach, describe, expect, it } from 'vitest';
import { generateSignatureSync } from '../../src/signing/checksumNode.js';
import { runNode } from '../helpers/cli.js';

const KEY = 'k3yK3yk3yK3yk3yK';
const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
/** Values planted in the notification: none may appear in an event. */
const PLANTED = { requestId: 'PLANTED-REQUEST-ID-7731', mid: 'PLANTEDMID0042', tokenIndexNumber: 'PLANTEDTIN99817' };

function notification(requestId = PLANTED.requestId) {
  const body = structuredClone(doc.components.examples.TokenStatusActive.value.body);
  body.mid = PLANTED.mid;
  body.tokenInfo.tokenIndexNumber = PLANTED.tokenIndexNumber;
  const bodyText = JSON.stringify(body);
  const signature = generateSignatureSync(bodyText, KEY);
  const head = { version: 'v1', requestTimestamp: String(Date.now()), requestId, signature, signatureType: 'CHECKSUM' };
  return { text: `{"head":${JSON.stringify(head)},"body":${bodyText}}`, signature };
}

const verdicts: WebhookVerdictEvent[] = [];
const stores: WebhookStoreEvent[] = [];
const onVerdict = (message: unknown) => void verdicts.push(message as WebhookVerdictEvent);
const onStore = (message: unknown) => void stores.push(message as WebhookStoreEvent);
const subscribe = () => {
  diagnostics.subscribe('gateway-contract:webhook:verdict', onVerdict);
  diagnostics.subscribe('gateway-contract:webhook:store', onStore);
};
afterEach(() => {
  diagnostics.unsubscribe('gateway-contract:webhook:verdict', onVerdict);
  diagnostics.unsubscribe('gateway-contract:webhook:store', onStore);
  verdicts.length = 0;
  stores.length = 0;
});

const post = (handle: (request: Request) => Promise<Response>, text: string) =>
  handle(
    new Request('https://merchant.example/hook', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    }),
  );

describe('receiver events', () => {
  it('publish each verdict with its code, rule, whether the handler ran, and its duration', async () => {
    subscribe();
    const receiver = createWebhookReceiver({ verifier: createChecksumVerifier(KEY) });
    let runs = 0;
    const handle = receiver.fetchHandler(() => {
      if (runs++ === 0) throw new Error(`handler failed for ${PLANTED.tokenIndexNumber}`);
    });
    const first = notification();
    await post(handle, first.text); // handler fails: 500
    await post(handle, notification().text); // accepted
    await post(handle, notification().text); // replay: 406
    await post(handle, first.text.replace(/"signature":"[^"]+"/, '"signature":"AAAA"')); // 1001
    await receiver.receive(notification('ANOTHER-ID').text); // accepted by receive(): no handler
    await post(handle, 'not json');
    expect(verdicts.map(({ durationMs, ...rest }) => rest)).toEqual([
      { verdict: 'handlerFailed', code: '500', rule: 'onEvent', handlerRan: true },
      { verdict: 'accepted', code: '00', handlerRan: true },
      { verdict: 'rejected', code: '406', rule: 'replay', handlerRan: false },
      { verdict: 'rejected', code: '1001', rule: 'signature', handlerRan: false },
      { verdict: 'accepted', code: '00', handlerRan: false },
      { verdict: 'rejected', code: '400', rule: 'json', handlerRan: false },
    ]);
    for (const event of verdicts) expect(event.durationMs).toBeGreaterThanOrEqual(0);
    const text = JSON.stringify(verdicts);
    for (const value of [...Object.values(PLANTED), first.signature, 'handler failed'])
      expect(text).not.toContain(value);
    expect(stores).toEqual([]);
  });

  it('publish the replay store’s failures by operation, outcome and error name, never its message', async () => {
    subscribe();
    const receiver = createWebhookReceiver({
      verifier: createChecksumVerifier(KEY),
      storeTimeoutMs: 20,
      store: {
        claim: (key) =>
          key.startsWith('signature:')
            ? Promise.reject(new TypeError(`refused ${PLANTED.requestId} at 10.1.2.3`))
            : 'claimed',
        complete: () => true,
        release: () => undefined,
      },
    });
    await receiver.receive(notification().text);
    const hanging = createWebhookReceiver({
      verifier: createChecksumVerifier(KEY),
      storeTimeoutMs: 20,
      store: { claim: () => new Promise(() => undefined), complete: () => true, release: () => undefined },
    });
    await hanging.receive(notification().text);
    expect(stores).toEqual([
      { operation: 'claim', outcome: 'failed', error: 'TypeError' },
      { operation: 'claim', outcome: 'timeout' },
    ]);
    expect(verdicts.map((v) => [v.code, v.rule])).toEqual([
      ['500', 'replayStore'],
      ['500', 'replayStore'],
    ]);
    expect(JSON.stringify(stores)).not.toMatch(/PLANTED|10\.1\.2\.3/);
  });

  it('build and publish nothing when no one subscribes', async () => {
    const channels = ['gateway-contract:webhook:verdict', 'gateway-contract:webhook:store'].map((name) =>
      diagnostics.channel(name),
    );
    let published = 0;
    const originals = channels.map((channel) => channel.publish);
    for (const channel of channels) {
      channel.publish = () => {
        published++;
      };
    }
    try {
      expect(channels.every((channel) => !channel.hasSubscribers)).toBe(true);
      const receiver = createWebhookReceiver({
        verifier: createChecksumVerifier(KEY),
        storeTimeoutMs: 20,
        store: { claim: () => Promise.reject(new Error('down')), complete: () => true, release: () => undefined },
      });
      await receiver.receive(notification().text);
      await post(
        createWebhookReceiver({ verifier: createChecksumVerifier(KEY) }).fetchHandler(() => undefined),
        notification().text,
      );
      expect(published).toBe(0);
    } finally {
      channels.forEach((channel, i) => {
        channel.publish = originals[i] as typeof channel.publish;
      });
    }
  });

  it('are absent where the runtime has no diagnostics_channel: the entry loads and receives', async () => {
    const { text } = notification();
    const program = `delete process.getBuiltinModule;
const { createWebhookReceiver } = await import('gateway-contract/webhook');
const { createChecksumVerifier } = await import('gateway-contract/signing');
const verdict = await createWebhookReceiver({ verifier: createChecksumVerifier(${JSON.stringify(KEY)}) }).receive(${JSON.stringify(text)});
process.stdout.write(String(verdict.accepted));`;
    const { status, stdout, stderr } = await runNode(['--input-type=module', '-e', program], {
      cwd: new URL('../../', import.meta.url).pathname,
    });
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toBe('true');
  });

  it('are absent where the runtime refuses diagnostics_channel (getBuiltinModule throws): the entry loads and receives', async () => {
    const { text } = notification();
    const program = `process.getBuiltinModule = () => { throw new Error('no such module'); };
const { createWebhookReceiver } = await import('gateway-contract/webhook');
const { createChecksumVerifier } = await import('gateway-contract/signing');
const verdict = await createWebhookReceiver({ verifier: createChecksumVerifier(${JSON.stringify(KEY)}) }).receive(${JSON.stringify(text)});
process.stdout.write(String(verdict.accepted));`;
    const { status, stdout, stderr } = await runNode(['--input-type=module', '-e', program], {
      cwd: new URL('../', import.meta.url).pathname,
    });
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toBe('true');
  });
});
