// verify against the faulty implementations whose fault is in state across calls or in the token
// notifications: the state phase finds each, naming its rule (test/verify/faulty/). And the
// faithful front, the sandbox passed through unchanged: a run of every phase finds nothing.
import { describe, expect, it } from 'vitest';
import { FAULTS } from './faulty/faults.js';
import { foundLine, verifyFront } from './faulty/runVerify.js';
import { verifyFindsEach } from './faulty/suite.js';

describe('the faithful front', () => {
  it('a run of every phase finds nothing', { timeout: 240_000 }, async () => {
    const result = await verifyFront(undefined);
    expect(result.findings.map(foundLine)).toEqual([]);
    expect(result.checks.length).toBeGreaterThan(0);
  });
});

verifyFindsEach(
  'verify finds the faults of state and notifications',
  FAULTS.filter((f) => f.kind === 'state' || f.kind === 'notification'),
);
