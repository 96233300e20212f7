// The validation of one operation: its payloads, in either direction, against the operation's
// precompiled validators and named checks. Each operation's module (`operations/<operationId>.ts`,
// the package's `gateway-contract/validators/<operationId>`) builds one from its own validators, so
// that a program validating one operation imports that operation's code and no other's.
// Never throws for anything inside the payload.
import type { NamedCheckName, OperationId, OperationInfo } from '../../generated/operations.js';
import type { CompiledValidator, CompiledValidatorError } from '../../generated/validators.js';
import type { ResultCodeOf } from '../types.js';
import { type NamedCheck, namedChecks, type RequestContext } from './checks.js';
import { issuesFromAjv, MAX_ISSUES, type ValidationIssue } from './errors.js';
import { NO_ISSUES, type QueryInput, readQuery } from './query.js';
import { type CodeRule, type CodeRuleIndex, codeRuleFor, codeRuleIndex } from './resultCodeRules.js';

export type { ValidationIssue };

/** The payload is valid. */
export interface ValidationSuccess {
  readonly valid: true;
}

/** The payload breaks the contract: every problem (at most 100), and for requests the code the service would answer. */
export interface ValidationFailure<O extends OperationId = OperationId> {
  readonly valid: false;
  errors: ValidationIssue[];
  /** For requests: the result code the service would answer, from the operation's own table. */
  resultCode?: { code: ResultCodeOf<O>; status: string; message: string };
}

export type ValidationResult<O extends OperationId = OperationId> = ValidationSuccess | ValidationFailure<O>;

/** The request's query and path parameters, for the checks that compare them with the body. */
export interface ValidationOptions extends Omit<RequestContext, 'query'> {
  /**
   * The request's query parameters (pay, modify order, create subscription, tokenize): a record of
   * strings, or the query as received (a record whose repeated names hold arrays, a URLSearchParams,
   * the query string). A parameter of the contract given more than once is the issue
   * `repeatedParameter` (docs/decisions.md, D-109).
   */
  query?: QueryInput | undefined;
  /** The request's path parameters (tokenize: `mid`). */
  path?: Record<string, string | undefined> | undefined;
  /**
   * Whether the request's required query and path parameters are demanded (default true: one
   * missing, or no `query`/`path` given at all, is the issue `requiredParameters`). `false`
   * validates the payload alone, as for a sample kept without its URL; parameters that are given
   * are still compared with the body.
   */
  parameters?: boolean | undefined;
}

export type Direction = 'request' | 'response';

/** The wording data a generated module holds for the schemas it validates (`wording()`). */
export type WordingData = ReturnType<typeof import('../../generated/validators/initiatePaymentRequest.js').wording>;

/**
 * A generated module of one operation and direction (`generated/validators/initiatePaymentRequest.js`):
 * its validators by name (`initiatePaymentRequest`, and a request's `initiatePaymentQuery`,
 * `initiatePaymentPath`), each listing every problem; the wording data of its schemas; and for a
 * request, the codes of the operation's result-code table.
 */
export interface SideModule {
  /** The validators, by name (`initiatePaymentRequest`, `initiatePaymentQuery`, ...), beside what follows. */
  readonly [name: string]: unknown;
  /** What validation reads of the operation (so that it needs no index of every operation). */
  readonly operation: SideOperation;
  wording(): WordingData;
  readonly codes?: readonly ResultCodeEntry[];
}

/** An operation as one direction's module gives it: its id, this direction's schema, its parameters and named checks. */
export interface SideOperation {
  readonly operationId: string;
  readonly schema: string;
  readonly parameters: readonly OperationInfo['parameters'][number][];
  readonly namedChecks: readonly NamedCheckName[];
}

/** A code of an operation's result-code table: its status and the message(s) the service answers. */
export interface ResultCodeEntry {
  readonly code: string;
  readonly status: string;
  readonly messages: readonly string[];
}

/** The validation of one operation's payloads. */
export interface OperationValidation<O extends OperationId = OperationId> {
  readonly operationId: O;
  /** Validates a payload in one direction (see `validate()`). */
  validate(direction: Direction, payload: unknown, options?: ValidationOptions): ValidationResult<O>;
  /** Validates a request envelope; `options` gives its query and path parameters. */
  validateRequest(payload: unknown, options?: ValidationOptions): ValidationResult<O>;
  /** Validates a response envelope (the webhook: the merchant's reply). */
  validateResponse(payload: unknown): ValidationResult<O>;
}

const VALID: ValidationSuccess = Object.freeze({ valid: true });
const NO_ERRORS: readonly CompiledValidatorError[] = Object.freeze([]);
/** The issue of a payload that cannot be read to the end (too deep, or a JavaScript object whose reading throws). */
const unreadable = (): ValidationIssue => ({
  in: 'body',
  pointer: '',
  rule: 'validatable',
  message: 'The payload could not be validated (it is too large, too deeply nested, or cannot be read).',
});

/** A validator the generator made for the operation index (its absence is a broken package). */
function present(module: SideModule, name: string): CompiledValidator {
  const validator = module[name];
  if (typeof validator !== 'function')
    throw new Error(`The precompiled validator ${name} is missing: regenerate with npm run generate.`);
  return validator as CompiledValidator;
}

/** The operation of a generated module, which must be `operationId` (another is a broken package). */
function operationOf(operationId: OperationId, module: SideModule): SideOperation {
  if (module.operation.operationId !== operationId)
    throw new Error(`The validators given for ${operationId} are ${module.operation.operationId}'s.`);
  return module.operation;
}

/** Where a parameter's schema lives in the bundled contract. */
function parameterSchemaPath(op: SideOperation, name: string): string {
  const param = op.parameters.find((p) => p.name === name);
  return param && 'component' in param ? `#/components/parameters/${param.component}/schema` : '';
}

/**
 * The code, status and message the service answers for an issue (with a code); `rule` is the rule of
 * the operation's table that matches the issue (found once per issue, in `withResultCodes`).
 */
function describeCode<O extends OperationId>(
  operationId: O,
  codes: readonly ResultCodeEntry[],
  issue: ValidationIssue,
  rule: CodeRule | undefined,
): { code: ResultCodeOf<O>; status: string; message: string } {
  const entry = codes.find((c) => c.code === issue.resultCode);
  if (!entry) throw new Error(`${operationId} has no result code ${issue.resultCode} in its table.`);
  const field = issue.pointer.slice(issue.pointer.lastIndexOf('/') + 1);
  let message = (rule && rule.code === issue.resultCode && rule.message) || entry.messages[0] || '';
  // 1001 and 1011 messages name the field; the service's 1011 text also echoes the value, which we never do.
  if (issue.resultCode === '1001' && /^[A-Za-z]+$/.test(field)) message = `Invalid ${field}`;
  if (issue.resultCode === '1011')
    message = `Parameter [${issue.pointer.slice(1).replace(/\//g, '.')}] has invalid value`;
  return { code: entry.code as ResultCodeOf<O>, status: entry.status, message };
}

/**
 * Gives each issue the code the service answers for it (its own, or the first matching rule of the
 * operation's table), in place: the issues are this validation's own. The answer of the request is
 * the first issue with a code, described with the rule that matched it.
 */
function withResultCodes<O extends OperationId>(
  operationId: O,
  codes: readonly ResultCodeEntry[],
  codeRules: CodeRuleIndex,
  issues: ValidationIssue[],
): ValidationFailure<O>['resultCode'] {
  let answer: ValidationFailure<O>['resultCode'];
  for (const issue of issues) {
    const own = issue.resultCode;
    if (own && answer) continue;
    const rule = codeRuleFor(codeRules, issue.pointer, issue.rule);
    if (!own && rule) issue.resultCode = rule.code;
    if (!answer && issue.resultCode) answer = describeCode(operationId, codes, issue, rule);
  }
  return answer;
}

/**
 * The payload's validator run once: its errors (none when valid), or `undefined` when the payload
 * cannot be read to the end (a getter or proxy that throws, a nest past the stack).
 */
function run(validator: CompiledValidator, payload: unknown): readonly CompiledValidatorError[] | undefined {
  try {
    return validator(payload) ? NO_ERRORS : (validator.errors ?? NO_ERRORS);
  } catch {
    return undefined;
  }
}

/**
 * The issues of a payload's validator: its errors worded (at most MAX_ISSUES, errors.ts) against
 * the schema `rootRef`, or the issue of a payload that cannot be read.
 */
function payloadIssues(
  errors: readonly CompiledValidatorError[] | undefined,
  module: SideModule,
  rootRef: string,
  payload: unknown,
  limit = MAX_ISSUES,
): ValidationIssue[] {
  if (errors === undefined) return [unreadable()];
  return errors.length ? issuesFromAjv(errors, module.wording(), rootRef, payload, limit) : [];
}

/** The validation of the responses of `operationId` (the webhook: the merchant's reply) over its generated module. */
export function responseValidation<O extends OperationId>(
  operationId: O,
  module: SideModule,
): (payload: unknown) => ValidationResult<O> {
  const op = operationOf(operationId, module);
  const validator = present(module, `${operationId}Response`);
  const rootRef = `#/components/schemas/${op.schema}`;
  return (payload) => {
    const errors = run(validator, payload);
    if (errors?.length === 0) return VALID;
    return { valid: false, errors: payloadIssues(errors, module, rootRef, payload) };
  };
}

/**
 * The validation of the requests of `operationId` over its generated module: the payload's
 * validator, the validators of the query and path parameters, and the named checks; for a request
 * that breaks a rule, the code the service answers.
 */
export function requestValidation<O extends OperationId>(
  operationId: O,
  module: SideModule,
): (payload: unknown, options?: ValidationOptions) => ValidationResult<O> {
  const op = operationOf(operationId, module);
  const validator = present(module, `${operationId}Request`);
  const rootRef = `#/components/schemas/${op.schema}`;
  const codes = module.codes ?? [];
  const codeRules = codeRuleIndex(operationId);
  const checks: NamedCheck[] = op.namedChecks.map((name) => namedChecks[name]);
  const queryNames = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  const parameterSets = (['query', 'path'] as const)
    .filter((where) => op.parameters.some((p) => p.in === where))
    .map((where) => ({
      in: where,
      validator: present(module, `${operationId}${where === 'query' ? 'Query' : 'Path'}`),
    }));

  /** Whether the parameters and the named checks pass (any doubt, a throw included, is left to `describe`). */
  function restPasses(payload: unknown, context: RequestContext): boolean {
    try {
      for (const set of parameterSets) {
        const values = context[set.in];
        if (values && !set.validator(values)) return false;
      }
      for (const check of checks) if (check.run(payload, context, op).length > 0) return false;
      return true;
    } catch {
      return false;
    }
  }

  /** Every problem of a request that did not pass: the payload's, its parameters' and the named checks'. */
  function describe(
    payload: unknown,
    errors: readonly CompiledValidatorError[] | undefined,
    context: RequestContext,
    queryIssues: readonly ValidationIssue[],
  ): ValidationResult<O> {
    // The parameters' and the named checks' issues first, so that the payload's are bounded to
    // leave them room: at most MAX_ISSUES issues in all, and one that counts the rest.
    let others: ValidationIssue[] = [];
    if (errors !== undefined) {
      for (const set of parameterSets) {
        const values = context[set.in];
        if (!values || set.validator(values)) continue;
        for (const issue of issuesFromAjv(set.validator.errors ?? [], undefined, '', values)) {
          const schemaPath = `${parameterSchemaPath(op, issue.pointer.slice(1))}/${issue.rule}`;
          others.push({ ...issue, in: set.in, schemaPath });
        }
      }
      for (const check of checks) {
        let found: ValidationIssue[];
        try {
          found = check.run(payload, context, op);
        } catch {
          found = [unreadable()];
        }
        if (found.length) others.push(...found);
      }
      // A repeated parameter is left out of the query: it is that problem, not a missing one.
      if (queryIssues.length) {
        const repeated = new Set(queryIssues.map((i) => i.pointer));
        others = [
          ...others.filter((i) => !(i.in === 'query' && i.rule === 'requiredParameters' && repeated.has(i.pointer))),
          ...queryIssues,
        ];
      }
      others = others.slice(0, MAX_ISSUES);
    }
    const issues = [...payloadIssues(errors, module, rootRef, payload, MAX_ISSUES - others.length), ...others];
    if (issues.length === 0) return VALID;
    const resultCode = withResultCodes(operationId, codes, codeRules, issues);
    return resultCode ? { valid: false, errors: issues, resultCode } : { valid: false, errors: issues };
  }

  return (payload, options = {}) => {
    const read = options.query !== undefined ? readQuery(options.query, queryNames) : undefined;
    const context: RequestContext = { query: read?.query, path: options.path, parameters: options.parameters };
    const errors = run(validator, payload);
    const queryIssues = read?.issues ?? NO_ISSUES;
    if (errors?.length === 0 && queryIssues.length === 0 && restPasses(payload, context)) return VALID;
    return describe(payload, errors, context, queryIssues);
  };
}

/** The validation of `operationId` over the generated modules of its request and response. */
export function operationValidation<O extends OperationId>(
  operationId: O,
  request: SideModule,
  response: SideModule,
): OperationValidation<O> {
  const validateRequest = requestValidation(operationId, request);
  const validateResponse = responseValidation(operationId, response);
  return {
    operationId,
    validate(direction, payload, options) {
      if (direction === 'request') return validateRequest(payload, options);
      if (direction === 'response') return validateResponse(payload);
      throw new TypeError('direction must be "request" or "response".');
    },
    validateRequest,
    validateResponse: (payload) => validateResponse(payload),
  };
}
