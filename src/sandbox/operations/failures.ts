// What a failure answer of an operation carries: the codes for the failures the sandbox meets before
// any handler runs (recorded in docs/decisions.md), and the body fields that are safe to echo.
import type { ResultCodeOf } from '../../types.js';
import type { SandboxOperation } from '../operationIndex.js';
import { memberOf } from '../untrusted.js';

export interface FailureCodes<O extends SandboxOperation> {
  /** A body that is not a JSON object (malformed JSON, too large). */
  readonly badRequest: ResultCodeOf<O>;
  /** An invalid request for which validate() names no code. */
  readonly invalid: ResultCodeOf<O>;
  /** An unexpected error of the sandbox. */
  readonly internal: ResultCodeOf<O>;
}

/** Per operation, its failure codes: each must be in the operation's own table. */
export const FAILURE_CODES: { readonly [O in SandboxOperation]: FailureCodes<O> } = {
  tokenizeCard: { badRequest: '400', invalid: '400', internal: '500' },
  preAuthorize: { badRequest: '501', invalid: '501', internal: '501' },
  listSubscriptions: { badRequest: '400', invalid: '400', internal: '500' },
  initiatePayment: { badRequest: '2222', invalid: '1011', internal: '501' },
  modifyOrder: { badRequest: '2222', invalid: '1011', internal: '501' },
  createSubscription: { badRequest: '501', invalid: '501', internal: '501' },
};

/**
 * The body fields a failure answer carries besides its result: tokenize names the merchant,
 * pre-auth echoes the order id. Only values that are safe to echo.
 */
export function failureFields(
  operationId: SandboxOperation,
  payload: unknown,
  path: Readonly<Record<string, string>>,
  mids: readonly string[],
): { mid: string } | { orderId: string } | undefined {
  const mid = path.mid;
  if (operationId === 'tokenizeCard' && mid !== undefined && mids.includes(mid)) return { mid };
  const orderId = memberOf(payload, 'body', 'orderId');
  if (operationId === 'preAuthorize' && typeof orderId === 'string' && /^[A-Za-z0-9@._-]{1,50}$/.test(orderId))
    return { orderId };
  return undefined;
}
