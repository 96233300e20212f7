// The validation of one operation: its payloads, in either direction, against the operation's
// precompiled validators and named checks. Each operation's module (`operations/<operationId>.ts`,
// the package's `gateway-contract/validators/<operationId>`) builds one from its own validators, so
// that a program validating one operation imports that operation's code and no other's.
// Never throws for anything inside the payload.
import { contract } from '../../generated/contract.js';
import { type OperationId, type OperationInfo, operations } from '../../generated/operations.js';
import type { CompiledValidator, CompiledValidatorError } from '../../generated/validators.js';
import type { ResultCodeOf } from '../types.js';
import { type NamedCheck, namedChecks, type RequestContext } from './checks.js';
import { issuesFromAjv, type ValidationIssue } from './errors.js';
import { type QueryInput, readQuery } from './query.js';
import { resultCodeFor } from './resultCodeRules.js';

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

/** The validators of one generated module (`initiatePaymentRequest`, `initiatePaymentQuery`, ...), by name. */
export type ValidatorModule = Readonly<Record<string, CompiledValidator | undefined>>;

/**
 * An operation's generated validators (`generated/validators/<operationId>.js`): per direction,
 * the one that stops at the first problem (the verdict) and the one that lists every problem; and
 * the codes of its result-code table.
 */
export interface OperationValidators {
  request: ValidatorModule;
  requestDetailed: ValidatorModule;
  response: ValidatorModule;
  responseDetailed: ValidatorModule;
  codes: readonly ResultCodeEntry[];
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
/** The issue of a payload that cannot be read to the end (too deep, or a JavaScript object whose reading throws). */
const unreadable = (): ValidationIssue => ({
  in: 'body',
  pointer: '',
  rule: 'validatable',
  message: 'The payload could not be validated (it is too large, too deeply nested, or cannot be read).',
});

/** Payloads with more JSON values than this are described by their first problem only. */
const DETAIL_LIMIT = 20_000;

/** Whether `value` holds at most `limit` JSON values (counted without recursion, stopping early). */
function smallEnough(value: unknown, limit: number): boolean {
  const stack = [value];
  let count = 0;
  while (stack.length) {
    const v = stack.pop();
    if (++count > limit) return false;
    if (v && typeof v === 'object') for (const child of Object.values(v)) stack.push(child);
  }
  return true;
}

/** A validator the generator made for the operation index (its absence is a broken package). */
function present(validators: ValidatorModule, name: string): CompiledValidator {
  const validator = validators[name];
  if (!validator) throw new Error(`The precompiled validator ${name} is missing: regenerate with npm run generate.`);
  return validator;
}

/** One direction of an operation: the validators of its payload and, for requests, of its parameters. */
interface Side {
  direction: Direction;
  /** The schema the payload is validated against (`InitiatePaymentRequest`). */
  schema: string;
  /** Stops at the first problem. */
  first: CompiledValidator;
  /** Lists every problem. */
  every: CompiledValidator;
  /** The validators of the values of the query and path parameters, when it has some. */
  parameters: {
    in: 'query' | 'path';
    first: CompiledValidator;
    every: CompiledValidator;
    schemaPath: (name: string) => string;
  }[];
}

/** Where a parameter's schema lives in the bundled contract. */
function parameterSchemaPath(op: OperationInfo, name: string): string {
  const param = op.parameters.find((p) => p.name === name);
  return param && 'component' in param ? `#/components/parameters/${param.component}/schema` : '';
}

/** The code, status and message the service answers for an issue (with a code). */
function describeCode<O extends OperationId>(
  operationId: O,
  codes: readonly ResultCodeEntry[],
  issue: ValidationIssue,
): { code: ResultCodeOf<O>; status: string; message: string } {
  const entry = codes.find((c) => c.code === issue.resultCode);
  if (!entry) throw new Error(`${operationId} has no result code ${issue.resultCode} in its table.`);
  const rule = resultCodeFor(operationId, { ...issue, resultCode: undefined });
  const field = issue.pointer.slice(issue.pointer.lastIndexOf('/') + 1);
  let message = (rule && rule.code === issue.resultCode && rule.message) || entry.messages[0] || '';
  // 1001 and 1011 messages name the field; the service's 1011 text also echoes the value, which we never do.
  if (issue.resultCode === '1001' && /^[A-Za-z]+$/.test(field)) message = `Invalid ${field}`;
  if (issue.resultCode === '1011')
    message = `Parameter [${issue.pointer.slice(1).replace(/\//g, '.')}] has invalid value`;
  return { code: entry.code as ResultCodeOf<O>, status: entry.status, message };
}

/** The validation of `operationId` over its generated validators. */
export function operationValidation<O extends OperationId>(
  operationId: O,
  validators: OperationValidators,
): OperationValidation<O> {
  const found: OperationInfo | undefined = operations.find((o) => o.operationId === operationId);
  if (!found) throw new Error(`The contract has no operation ${operationId}.`);
  const op = found;
  const checks: NamedCheck[] = op.namedChecks.map((name) => namedChecks[name]);
  const queryNames = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  const request = `${operationId}Request`;
  const response = `${operationId}Response`;
  const sides: Record<Direction, Side> = {
    request: {
      direction: 'request',
      schema: op.request.schema,
      first: present(validators.request, request),
      every: present(validators.requestDetailed, request),
      parameters: (['query', 'path'] as const)
        .filter((where) => op.parameters.some((p) => p.in === where))
        .map((where) => {
          const name = `${operationId}${where === 'query' ? 'Query' : 'Path'}`;
          return {
            in: where,
            first: present(validators.request, name),
            every: present(validators.requestDetailed, name),
            schemaPath: (param: string) => parameterSchemaPath(op, param),
          };
        }),
    },
    response: {
      direction: 'response',
      schema: op.response.schema,
      first: present(validators.response, response),
      every: present(validators.responseDetailed, response),
      parameters: [],
    },
  };

  /**
   * Whether the payload passes, on a short path: a valid payload is the common case, and a small
   * function stays fast. Any doubt (a problem, a check or a read that throws) is left to `describe`.
   */
  function passes(side: Side, payload: unknown, options: RequestContext): boolean {
    try {
      if (!side.first(payload)) return false;
      if (side.direction === 'response') return true;
      for (const set of side.parameters) {
        const values = options[set.in];
        if (values && !set.first(values)) return false;
      }
      for (const check of checks) if (check.run(payload, options, op).length > 0) return false;
      return true;
    } catch {
      return false;
    }
  }

  /** Every problem of a payload that did not pass: the validators' and the named checks'. */
  function describe(
    side: Side,
    payload: unknown,
    options: RequestContext,
    queryIssues: readonly ValidationIssue[] = [],
  ): ValidationResult<O> {
    const fn = side.first;
    let issues: ValidationIssue[] = [];
    let ok: boolean;
    let readable = true;
    try {
      ok = fn(payload);
    } catch {
      // A validator that threw leaves the errors of its previous call behind: they are not this payload's.
      ok = false;
      readable = false;
      issues.push(unreadable());
    }
    if (!ok && readable && fn.errors) {
      // Every problem, when the payload is of a size whose problems can be listed in bounded time;
      // otherwise the first one, with a word about the rest.
      let errors: CompiledValidatorError[] = fn.errors;
      try {
        if (smallEnough(payload, DETAIL_LIMIT)) {
          if (!side.every(payload) && side.every.errors) errors = side.every.errors;
        } else {
          issues.push({
            in: 'body',
            pointer: '',
            rule: 'moreProblems',
            message: `The payload holds more than ${DETAIL_LIMIT} values: only its first problem is described.`,
          });
        }
      } catch {
        // Parts the first-problem validator did not read cannot be read (a getter or proxy that throws).
        issues.push(unreadable());
      }
      issues.unshift(...issuesFromAjv(errors, contract(), `#/components/schemas/${side.schema}`, payload));
    }
    if (side.direction === 'request' && readable) {
      for (const set of side.parameters) {
        const values = options[set.in];
        if (!values || set.first(values)) continue;
        set.every(values);
        for (const issue of issuesFromAjv(set.every.errors ?? set.first.errors ?? [], undefined, '', values)) {
          issues.push({ ...issue, in: set.in, schemaPath: `${set.schemaPath(issue.pointer.slice(1))}/${issue.rule}` });
        }
      }
      for (const check of checks) {
        let found: ValidationIssue[];
        try {
          found = check.run(payload, options, op);
        } catch {
          found = [unreadable()];
        }
        if (found.length) issues.push(...found);
      }
      // A repeated parameter is left out of the query: it is that problem, not a missing one.
      if (queryIssues.length) {
        const repeated = new Set(queryIssues.map((i) => i.pointer));
        issues = [
          ...issues.filter((i) => !(i.in === 'query' && i.rule === 'requiredParameters' && repeated.has(i.pointer))),
          ...queryIssues,
        ];
      }
    }
    if (issues.length === 0) return VALID;
    if (side.direction === 'response') return { valid: false, errors: issues };
    issues = issues.map((issue) => {
      const hit = resultCodeFor(operationId, issue);
      return hit ? { ...issue, resultCode: hit.code } : issue;
    });
    const first = issues.find((i) => i.resultCode);
    return {
      valid: false,
      errors: issues,
      ...(first ? { resultCode: describeCode(operationId, validators.codes, first) } : {}),
    };
  }

  function sideOf(direction: unknown): Side {
    if (direction !== 'request' && direction !== 'response')
      throw new TypeError('direction must be "request" or "response".');
    return sides[direction];
  }

  function validate(direction: Direction, payload: unknown, options: ValidationOptions = {}): ValidationResult<O> {
    const side = sideOf(direction);
    const read =
      side.direction === 'request' && options.query !== undefined ? readQuery(options.query, queryNames) : undefined;
    const context: RequestContext = { query: read?.query, path: options.path, parameters: options.parameters };
    if (read?.issues.length) return describe(side, payload, context, read.issues);
    return passes(side, payload, context) ? VALID : describe(side, payload, context);
  }

  return {
    operationId,
    validate,
    validateRequest: (payload, options) => validate('request', payload, options),
    validateResponse: (payload) => validate('response', payload),
  };
}
