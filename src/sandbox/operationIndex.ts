// The operations the sandbox serves: the entries of the contract's operation index that are
// operations (the token status webhook is the merchant's to serve), and their ids as a type.
import { type OperationInfo, operations } from '../../generated/operations.js';

/** An entry of the operation index that the sandbox serves at its path. */
export type ServedOperation = Extract<OperationInfo, { kind: 'operation' }>;

/** The operationId of an operation the sandbox serves. */
export type SandboxOperation = ServedOperation['operationId'];

export const isServed = (op: OperationInfo): op is ServedOperation => op.kind === 'operation';

/** The served operations, in the order of the index. */
export const SERVED_OPERATIONS: readonly ServedOperation[] = operations.filter(isServed);
