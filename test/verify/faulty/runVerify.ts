// Runs verify against a front: the sandbox's fixtures through the front, a fixed seed and a bounded
// budget, only the phases a fault needs (all of them for the faithful front). The front is always
// stopped.

import { type VerifyResult, verify } from '../../../src/verify/run.js';
import { sandboxFixtures } from '../../../src/verify/sandboxFixtures.js';
import { FRONT_KEY } from './envelopes.js';
import { type Fault, startFront } from './front.js';
import { MID } from './harness.js';

/** The bounds of one run against a faulty implementation. */
export const FAULTY_RUN = Object.freeze({ seed: 1, runs: 20, maxRequests: 2_000, timeLimitMs: 180_000 });

export async function verifyFront(fault: Fault | undefined, phases?: readonly string[]): Promise<VerifyResult> {
  const front = await startFront(fault);
  try {
    return await verify({
      gatewayUrl: front.url,
      routerUrl: front.url,
      key: FRONT_KEY,
      mid: MID,
      fixtures: await sandboxFixtures(front.url),
      ...FAULTY_RUN,
      ...(phases ? { phases } : {}),
    });
  } finally {
    await front.stop();
  }
}

/** A finding of a run in a line that names no value: kind, rule, operation and place. */
export const foundLine = (f: VerifyResult['findings'][number]): string =>
  `${f.kind} ${f.rule} ${f.operationId}${f.pointer ? ` ${f.pointer}` : ''}`;
