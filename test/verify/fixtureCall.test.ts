// A fixture that never settles does not hold a run: its call fails after the bound, naming the
// fixture; one that settles in time is answered as it is.
import { describe, expect, it } from 'vitest';
import { fixtureCall } from '../../src/verify/phases/fixtureCall.js';

describe('fixtureCall', () => {
  it('fails a fixture that never settles after the bound, naming it', async () => {
    await expect(fixtureCall('moveToken()', () => new Promise(() => undefined), 50)).rejects.toThrow(
      'The fixture moveToken() did not settle within 50 ms.',
    );
  });

  it('answers what a fixture settles to in time, and passes on its own error', async () => {
    expect(await fixtureCall('createOrder()', async () => ({ txnToken: 't' }), 1_000)).toEqual({ txnToken: 't' });
    await expect(fixtureCall('createOrder()', () => Promise.reject(new Error('no order')), 1_000)).rejects.toThrow(
      'no order',
    );
  });
});
