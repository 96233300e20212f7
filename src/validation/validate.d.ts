import type { OperationId, OperationInfo } from '../../generated/operations.js';
import type { ResultCodeOf } from '../../generated/resultCodes.js';

/** One problem of a payload. Never carries the value that failed. */
export interface ValidationIssue {
  /** Where the field is: the JSON payload, the query string or the path. */
  in: 'body' | 'query' | 'path';
  /** JSON Pointer (RFC 6901) to the field, relative to `in`. For a missing field, the field itself. */
  pointer: string;
  /** The rule broken: a JSON Schema keyword (`required`, `pattern`, ...) or a named check (`queryMatchesBody`, ...). */
  rule: string;
  /** What is wrong, in words. */
  message: string;
  /** Where the rule lives in the bundled contract (generated/openapi.json). */
  schemaPath?: string;
  /** The title of the conditional rule, when the rule is conditional. */
  condition?: string;
  /** The operation's own result code the service answers for this failure, when the description gives one. */
  resultCode?: string;
}

export interface ValidationSuccess {
  readonly valid: true;
}

export interface ValidationFailure<O extends OperationId = OperationId> {
  readonly valid: false;
  errors: ValidationIssue[];
  /** For requests: the result code the service would answer, from the operation's own table. */
  resultCode?: { code: ResultCodeOf<O>; status: string; message: string };
}

export type ValidationResult<O extends OperationId = OperationId> = ValidationSuccess | ValidationFailure<O>;

export interface ValidationOptions {
  /** The request's query parameters (pay, modify order, create subscription, tokenize). */
  query?: Record<string, string | undefined>;
  /** The request's path parameters (tokenize: `mid`). */
  path?: Record<string, string | undefined>;
}

/**
 * Validates a payload of one operation, in one direction, against the contract and the named checks.
 * Never throws for anything inside the payload; throws a TypeError for an unknown operationId or direction.
 */
export declare function validate<O extends OperationId>(operationId: O, direction: 'request' | 'response', payload: unknown, options?: ValidationOptions): ValidationResult<O>;

/** The operationIds known to the contract, with method, host and path. */
export declare function listOperations(): readonly OperationInfo[];
