// What a run of exchanges covered, per operation: its exchanges, the result codes of its table an
// answer met, and how many requests each of its named checks found a problem in (docs/decisions.md, D-91).
import type { OperationInfo } from '../../generated/operations.js';
import { resultCodes } from '../../generated/resultCodes.js';
import type { OperationCoverage } from '../report/model.js';

interface Tally {
  readonly op: OperationInfo;
  exchanges: number;
  readonly met: Set<string>;
  readonly fired: Map<string, number>;
}

/** The coverage of a run, operation by operation in the order they were first seen. */
export class Coverage {
  readonly #tallies = new Map<string, Tally>();

  /** Counts one exchange of `op`: the code its answer met, if any, and the named checks that fired on its request. */
  add(op: OperationInfo, met: string | undefined, fired: readonly string[]): void {
    let tally = this.#tallies.get(op.operationId);
    if (!tally) {
      tally = { op, exchanges: 0, met: new Set(), fired: new Map() };
      this.#tallies.set(op.operationId, tally);
    }
    tally.exchanges++;
    if (met) tally.met.add(met);
    for (const name of fired) tally.fired.set(name, (tally.fired.get(name) ?? 0) + 1);
  }

  /** Per operation seen: the codes of its table met and not met, and each named check with how often it fired. */
  report(): OperationCoverage[] {
    return [...this.#tallies.values()].map(({ op, exchanges, met, fired }) => {
      const table = resultCodes[op.operationId].codes.map((e) => e.code);
      return {
        operationId: op.operationId,
        exchanges,
        codesMet: table.filter((code) => met.has(code)),
        codesNotMet: table.filter((code) => !met.has(code)),
        namedChecks: op.namedChecks.map((name) => ({ name, fired: fired.get(name) ?? 0 })),
      };
    });
  }
}
