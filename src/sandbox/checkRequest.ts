// validate() with the contract's types: a payload it accepts is, by the contract, the operation's
// request, with the query and path parameters it names.
import type { OperationId, PathOf, QueryOf, RequestOf } from '../types.js';
import { type ValidationFailure, type ValidationOptions, validate } from '../validation/index.js';
import { readQuery } from '../validation/query.js';

/** Query or path parameters as the contract names them; an operation without any gets none. */
export type ParametersOf<P> = [P] extends [never] ? Readonly<Record<string, never>> : Readonly<P>;

/** A request the contract accepts, with the types the contract gives it. */
export interface CheckedRequest<O extends OperationId> {
  readonly valid: true;
  readonly request: RequestOf<O>;
  readonly query: ParametersOf<QueryOf<O>>;
  readonly path: ParametersOf<PathOf<O>>;
}

/** Validates a request payload; on success, hands it back typed. */
export function checkRequest<O extends OperationId>(
  operationId: O,
  payload: unknown,
  options: ValidationOptions = {},
): CheckedRequest<O> | ValidationFailure<O> {
  const verdict = validate(operationId, 'request', payload, options);
  if (!verdict.valid) return verdict;
  // validate() is not a type guard: the casts say what it has just checked (the envelope against
  // the operation's schema, the parameters with the named check requiredParameters).
  // The query as validate() read it: no parameter of the contract is repeated once it is valid (D-109).
  const query = options.query === undefined ? {} : readQuery(options.query, []).query;
  return {
    valid: true,
    request: payload as RequestOf<O>,
    query: query as ParametersOf<QueryOf<O>>,
    path: (options.path ?? {}) as ParametersOf<PathOf<O>>,
  };
}
