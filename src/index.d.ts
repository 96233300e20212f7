export { validate, listOperations } from './validation/validate.js';
export type { ValidationIssue, ValidationResult, ValidationSuccess, ValidationFailure, ValidationOptions } from './validation/validate.js';
export { namedChecks } from './validation/checks.js';
export type { NamedCheck } from './validation/checks.js';
export { resultCodeRules, resultCodeFor } from './validation/resultCodeRules.js';
export { resultCodes } from '../generated/resultCodes.js';
export { operations } from '../generated/operations.js';
export type * from './types.js';
