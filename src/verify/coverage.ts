// What a run of verify exercised: per operation, the exchanges, the result codes of its table that
// answers carried (and those none did), and the state changes of the description that a sequence
// drove (an order paid, a payment in process, a token suspended...). Reports carry it in every format.
import type { OperationId } from '../../generated/operations.js';
import { resultCodes } from '../../generated/resultCodes.js';
import type { OperationCoverage, StateChangeCoverage } from '../report/model.js';
import { codeOf } from './checks.js';
import type { Exchange } from './types.js';

export type { StateChangeCoverage };

export class Coverage {
  private readonly exchanges = new Map<string, number>();
  private readonly codes = new Map<string, Set<string>>();
  private readonly changes = new Map<string, number>();
  /** Token status notifications received. */
  notifications = 0;

  /** The state changes a run can drive, so that one never driven is reported with 0. */
  constructor(changes: readonly string[] = []) {
    for (const change of changes) this.changes.set(change, 0);
  }

  /** Counts an exchange and the code its answer carried. */
  exchange(exchange: Exchange): void {
    const id = exchange.operationId;
    this.exchanges.set(id, (this.exchanges.get(id) ?? 0) + 1);
    const { code } = codeOf(id, exchange.answer);
    if (code === undefined) return;
    const set = this.codes.get(id) ?? new Set<string>();
    set.add(code);
    this.codes.set(id, set);
  }

  /** Counts a state change driven (and seen to happen). */
  change(change: string): void {
    this.changes.set(change, (this.changes.get(change) ?? 0) + 1);
  }

  /** Per operation of the contract (the webhook included when notifications were checked), what was met. */
  operations(notifications: number): OperationCoverage[] {
    return (Object.keys(resultCodes) as OperationId[]).map((operationId) => {
      // The webhook's table holds the merchant's reply codes, not the service's: none is met or missed by the service.
      const table =
        operationId === 'notifyTokenStatus' ? [] : [...new Set(resultCodes[operationId].codes.map((c) => c.code))];
      const met = this.codes.get(operationId) ?? new Set<string>();
      return {
        operationId,
        exchanges: operationId === 'notifyTokenStatus' ? notifications : (this.exchanges.get(operationId) ?? 0),
        codesMet: table.filter((c) => met.has(c)),
        codesNotMet: table.filter((c) => !met.has(c)),
        namedChecks: [],
      };
    });
  }

  stateChanges(): StateChangeCoverage[] {
    return [...this.changes].map(([change, exercised]) => ({ change, exercised }));
  }
}
