// The validation API: a payload of any operation, in one direction, against the contract's
// precompiled validators and the named checks. Never throws for anything inside the payload.
// A program that validates one operation only can import `gateway-contract/validators/<operationId>`
// instead, and load that operation's validators alone.
import { type OperationId, type OperationInfo, operations } from '../../generated/operations.js';
import { createSubscription } from './operations/createSubscription.js';
import { initiatePayment } from './operations/initiatePayment.js';
import { listSubscriptions } from './operations/listSubscriptions.js';
import { modifyOrder } from './operations/modifyOrder.js';
import { notifyTokenStatus } from './operations/notifyTokenStatus.js';
import { preAuthorize } from './operations/preAuthorize.js';
import { tokenizeCard } from './operations/tokenizeCard.js';
import type { Direction, OperationValidation, ValidationOptions, ValidationResult } from './operationValidation.js';

export type {
  Direction,
  ValidationFailure,
  ValidationIssue,
  ValidationOptions,
  ValidationResult,
  ValidationSuccess,
} from './operationValidation.js';

const byId = new Map<string, OperationValidation>(
  [
    tokenizeCard,
    preAuthorize,
    listSubscriptions,
    initiatePayment,
    modifyOrder,
    createSubscription,
    notifyTokenStatus,
  ].map((v) => [v.operationId, v]),
);

function lookup(operationId: string): OperationValidation {
  const found = byId.get(operationId);
  if (!found)
    throw new TypeError(
      `Unknown operationId "${String(operationId).slice(0, 64)}". Known: ${[...byId.keys()].join(', ')}.`,
    );
  return found;
}

/**
 * Validates a payload of one operation, in one direction, against the contract and the named
 * checks. `payload` is the parsed JSON envelope `{ head, body }`; the webhook is `notifyTokenStatus`.
 * `options` gives the request's query and path parameters: the required ones are demanded (a
 * request of pay without `{ query: { mid, orderId } }` is invalid) unless `parameters: false`, and
 * they are compared with the body. Never throws for anything inside the payload; throws a TypeError for an unknown
 * operationId or direction.
 */
export function validate<O extends OperationId>(
  operationId: O,
  direction: Direction,
  payload: unknown,
  options: ValidationOptions = {},
): ValidationResult<O> {
  return lookup(operationId).validate(direction, payload, options) as ValidationResult<O>;
}

/** The operationIds known to the contract, with method, host and path. */
export function listOperations(): readonly OperationInfo[] {
  return operations;
}
