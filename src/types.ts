// Convenient names over the generated types: one place that says how the contract's operations map
// to request, response and result-code types.
import type { components, operations, paths, webhooks } from '../generated/openapi.js';
import type { OperationId, OperationInfo } from '../generated/operations.js';
import type { ResultCodeOf } from '../generated/resultCodes.js';

export type { components, OperationId, operations, paths, ResultCodeOf, webhooks };

/** Every component schema of the contract, by name: `Schemas['CardInfo']`. */
export type Schemas = components['schemas'];

/** The operations the merchant calls (the token status webhook is the service's call, not the merchant's). */
export type ClientOperationId = Extract<OperationInfo, { kind: 'operation' }>['operationId'];

/** The request envelope `{head, body}` of an operation (the webhook: what the service sends). */
export type RequestOf<O extends OperationId> = operations[O]['requestBody']['content']['application/json'];

/** The response envelope of an operation (the webhook: the merchant's reply). */
export type ResponseOf<O extends OperationId> = operations[O]['responses'][200]['content']['application/json'];

/** The query parameters of an operation (`never` when it has none). */
export type QueryOf<O extends OperationId> = operations[O] extends { parameters: { query: infer Q } } ? Q : never;

/** The path parameters of an operation (`never` when it has none). */
export type PathOf<O extends OperationId> = operations[O] extends { parameters: { path: infer P } } ? P : never;

/** The request head of an operation. */
export type HeadOf<O extends OperationId> = RequestOf<O>['head'];

/** The request body of an operation. */
export type BodyOf<O extends OperationId> = RequestOf<O>['body'];
