// `gateway-contract/validation`: payloads of every operation against the contract, one at a time
// (validate) or many in one run (validateMany), and what a problem says. Web-standard.
export type { NamedCheck } from './checks.js';
export { namedChecks } from './checks.js';
export type { QueryInput } from './query.js';
export type { CodeRule } from './resultCodeRules.js';
export { resultCodeFor, resultCodeRules } from './resultCodeRules.js';
export type {
  Direction,
  ValidationFailure,
  ValidationIssue,
  ValidationOptions,
  ValidationResult,
  ValidationSuccess,
} from './validate.js';
export { listOperations, validate } from './validate.js';
export type {
  BatchResult,
  CaseIssue,
  CaseResult,
  PayloadRecord,
  PayloadSource,
  SkippedRecord,
  ValidateManyOptions,
} from './validateMany.js';
export { validateMany } from './validateMany.js';
