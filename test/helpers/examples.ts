// Every named example of the contract, per operation and direction, with the query and path
// parameters a merchant would send with it (payloads.mjs, which the benchmarks read too), typed for
// the tests.

import type { operations } from '../../generated/operations.js';
import { examples } from './payloads.mjs';

export interface ContractExample {
  operationId: (typeof operations)[number]['operationId'];
  direction: 'request' | 'response';
  /** The example's name in the operation (`payWithUpi`). */
  name: string;
  payload: any;
  query?: Record<string, string>;
  path?: Record<string, string>;
}

export function contractExamples(): ContractExample[] {
  return examples() as ContractExample[];
}
