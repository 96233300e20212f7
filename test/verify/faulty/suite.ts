// The test of a group of faults: verify runs against each faulty implementation (its own sandbox
// and front, the phases the fault needs, a fixed seed, a bounded budget) and must find it, with the
// kind and the rule the fault names: every fault of the suite is found. The runs of a group
// overlap: each waits on its own servers.
import { describe, expect, it } from 'vitest';
import type { Fault } from './front.js';
import { foundLine, verifyFront } from './runVerify.js';

/** The longest one run may take on a loaded machine (its budget bounds it in requests, not in time). */
const RUN_TIMEOUT_MS = 300_000;

async function expectFound(fault: Fault): Promise<void> {
  const result = await verifyFront(fault, fault.phases);
  const found = result.findings.map(foundLine);
  expect(
    result.findings.some((f) => f.kind === fault.kind && f.rule === fault.expectedRule),
    `verify found instead: ${found.join('; ') || 'nothing'} (${result.requests} requests; ${result.notes.join(' ')})`,
  ).toBe(true);
}

export function verifyFindsEach(title: string, faults: readonly Fault[]): void {
  describe.concurrent(title, () => {
    for (const fault of faults) {
      const name = `${fault.name} (${fault.what})`;
      it(`${name}: found as ${fault.kind} ${fault.expectedRule}`, { timeout: RUN_TIMEOUT_MS }, () =>
        expectFound(fault),
      );
    }
  });
}
