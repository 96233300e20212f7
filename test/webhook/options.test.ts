// The receiver's options (src/webhook/options.ts): checked once, in the order a merchant reads them,
// each one that cannot work refused with a TypeError naming it, each one left out given its default.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createChecksumVerifier } from '../../src/signing/index.js';
import { leaseFor, receiverSettings, WEBHOOK_DEFAULTS } from '../../src/webhook/options.js';
import { fcParameters } from '../helpers/arbitraries.js';

const verifier = createChecksumVerifier('k3yK3yk3yK3yk3yK');
const DURATIONS = ['replayWindowMs', 'maxClockSkewMs', 'maxBytes', 'storeTimeoutMs', 'handlerTimeoutMs'] as const;

/** The message of the TypeError `run` throws. */
function typeErrorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as TypeError).message;
  }
  throw new Error('expected a TypeError');
}

describe('the receiver options', () => {
  it('fill every default a merchant leaves out', () => {
    const settings = receiverSettings({ verifier });
    expect(settings).toMatchObject({
      verifier,
      now: Date.now,
      onRejected: undefined,
      replayWindowMs: WEBHOOK_DEFAULTS.replayWindowMs,
      maxClockSkewMs: WEBHOOK_DEFAULTS.maxClockSkewMs,
      maxBytes: WEBHOOK_DEFAULTS.maxBytes,
      storeTimeoutMs: WEBHOOK_DEFAULTS.storeTimeoutMs,
      handlerTimeoutMs: WEBHOOK_DEFAULTS.handlerTimeoutMs,
      mids: undefined,
    });
    expect(typeof settings.store.claim).toBe('function');
    expect(receiverSettings({ verifier, expectedMid: 'MID-1' }).mids).toEqual(['MID-1']);
    expect(receiverSettings({ verifier, expectedMid: ['MID-1', 'MID-2'] }).mids).toEqual(['MID-1', 'MID-2']);
    expect(leaseFor(10_000, 2_000)).toBe(16_000);
    expect(leaseFor(0.5, 0.1)).toBe(1);
  });

  it('take every positive finite duration and size as given (a replay window in whole milliseconds), and refuse any other value naming the option', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DURATIONS),
        fc.oneof(fc.double({ min: Number.MIN_VALUE, max: 1e12, noNaN: true }), fc.integer({ min: 1 })),
        (name, value) => {
          const settings = receiverSettings({ verifier, [name]: value });
          expect(settings[name]).toBe(name === 'replayWindowMs' ? Math.ceil(value) : value);
        },
      ),
      fcParameters(200),
    );
    const refused = fc.oneof(
      fc.constantFrom(0, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, null, '1000', true, {}),
      fc.double({ max: 0, noNaN: true }),
      fc.integer({ max: 0 }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...DURATIONS), refused, (name, value) => {
        const message = typeErrorOf(() => receiverSettings({ verifier, [name]: value } as never));
        expect(message).toBe(`${name} must be a positive number of ${name === 'maxBytes' ? 'bytes' : 'milliseconds'}.`);
      }),
      fcParameters(200),
    );
  });

  it('check the verifier first, then `seen`, then the durations, then the store', () => {
    const seen = { has: () => false, add: () => undefined };
    expect(typeErrorOf(() => receiverSettings({ seen } as never))).toMatch(/^createWebhookReceiver needs a verifier/);
    expect(typeErrorOf(() => receiverSettings({ verifier: { verify: () => true } } as never))).toMatch(
      /needs a verifier/,
    );
    expect(typeErrorOf(() => receiverSettings({ verifier, seen, maxBytes: 0 } as never))).toMatch(
      /`seen: \{ has, add \}` option is removed/,
    );
    expect(typeErrorOf(() => receiverSettings({ verifier, maxBytes: 0, store: seen } as never))).toMatch(/^maxBytes/);
    expect(typeErrorOf(() => receiverSettings({ verifier, store: seen } as never))).toMatch(/^store must have claim/);
    expect(typeErrorOf(() => receiverSettings({ verifier, maxRemembered: 0 }))).toMatch(/maxEntries/);
  });

  it('point a merchant still passing `seen` to the migration in the docs, in a short message', () => {
    const message = typeErrorOf(() =>
      receiverSettings({ verifier, seen: { has: () => false, add: () => undefined } } as never),
    );
    expect(message.length).toBeLessThanOrEqual(120);
    expect(message).toMatch(/`seen: \{ has, add \}` option is removed.*Pass `store`/);
    const pointer = /(docs\/[\w-]+\.md), "([^"]+)"/.exec(message);
    expect(pointer, message).not.toBeNull();
    const [, page = '', section = ''] = pointer ?? [];
    const headings = readFileSync(new URL(`../../${page}`, import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('## '))
      .map((line) => line.slice(3));
    expect(headings).toContain(section);
  });
});
