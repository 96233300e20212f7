// The validation API: a payload of an operation, in one direction, against the contract's
// precompiled validators and the named checks. Never throws for anything inside the payload.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type OperationId, type OperationInfo, operations } from '../../generated/operations.js';
import { resultCodes } from '../../generated/resultCodes.js';
import type { CompiledValidator, CompiledValidatorError } from '../../generated/validators.js';
import * as validators from '../../generated/validators.js';
import type { ResultCodeOf } from '../types.js';
import { type NamedCheck, namedChecks, type RequestContext } from './checks.js';
import { issuesFromAjv, type ValidationIssue } from './errors.js';
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
export interface ValidationOptions extends RequestContext {
  /** The request's query parameters (pay, modify order, create subscription, tokenize). */
  query?: Record<string, string | undefined> | undefined;
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

const VALID: ValidationSuccess = Object.freeze({ valid: true });
/** The issue of a payload that cannot be read to the end (too deep, or a JavaScript object whose reading throws). */
const unreadable = (): ValidationIssue => ({
  in: 'body',
  pointer: '',
  rule: 'validatable',
  message: 'The payload could not be validated (it is too large, too deeply nested, or cannot be read).',
});
const compiled = validators as unknown as Record<string, CompiledValidator>;

interface Entry {
  op: OperationInfo;
  request: CompiledValidator;
  response: CompiledValidator;
  names: Record<Direction, string>;
  checks: NamedCheck[];
  /** The validators of the values of its query and path parameters, when it has some. */
  parameters: { in: 'query' | 'path'; name: string; validator: CompiledValidator; schemaPath: (name: string) => string }[];
}

/** Where a parameter's schema lives in the bundled contract. */
function parameterSchemaPath(op: OperationInfo, name: string): string {
  const param = op.parameters.find((p) => p.name === name);
  return param && 'component' in param ? `#/components/parameters/${param.component}/schema` : '';
}

/** Per operation: its index entry, its two validators and its named checks, looked up once. */
const byId = new Map<string, Entry>(
  operations.map((op) => [
    op.operationId,
    {
      op,
      request: compiled[`${op.operationId}Request`] as CompiledValidator,
      response: compiled[`${op.operationId}Response`] as CompiledValidator,
      names: { request: `${op.operationId}Request`, response: `${op.operationId}Response` },
      checks: op.namedChecks.map((name) => namedChecks[name]),
      parameters: (['query', 'path'] as const).flatMap((where) => {
        const name = `${op.operationId}${where === 'query' ? 'Query' : 'Path'}`;
        const validator = compiled[name] as CompiledValidator | undefined;
        return validator ? [{ in: where, name, validator, schemaPath: (param: string) => parameterSchemaPath(op, param) }] : [];
      }),
    },
  ]),
);

/** Payloads with more JSON values than this are described by their first problem only. */
const DETAIL_LIMIT = 20_000;
const require = createRequire(import.meta.url);
let detailed: Record<string, CompiledValidator> | undefined;
/** The all-errors validators, loaded the first time a payload is invalid. */
function detailedValidator(name: string): CompiledValidator {
  detailed ??= require('../../generated/validators-detailed.cjs') as Record<string, CompiledValidator>;
  return detailed[name] as CompiledValidator;
}

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

let contract: unknown;
/** The bundled contract, read only when a payload is invalid (to place and title the rules). */
function contractDocument(): unknown {
  contract ??= JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
  return contract;
}

function lookup(operationId: string, direction: unknown): Entry {
  const entry = byId.get(operationId);
  if (!entry) throw new TypeError(`Unknown operationId "${String(operationId).slice(0, 64)}". Known: ${[...byId.keys()].join(', ')}.`);
  if (direction !== 'request' && direction !== 'response') throw new TypeError('direction must be "request" or "response".');
  return entry;
}

/**
 * Validates a payload of one operation, in one direction, against the contract and the named
 * checks. `payload` is the parsed JSON envelope `{ head, body }`; the webhook is `notifyTokenStatus`.
 * `options` gives the request's query and path parameters: the required ones are demanded (a
 * request of pay without `{ query: { mid, orderId } }` is invalid) unless `parameters: false`, and
 * they are compared with the body. Never throws for anything inside the payload; throws a TypeError for an unknown
 * operationId or direction.
 */
export function validate<O extends OperationId>(operationId: O, direction: Direction, payload: unknown, options: ValidationOptions = {}): ValidationResult<O> {
  const entry = lookup(operationId, direction);
  const fn = direction === 'request' ? entry.request : entry.response;
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
    const schema = direction === 'request' ? entry.op.request.schema : entry.op.response.schema;
    // Every problem, when the payload is of a size whose problems can be listed in bounded time;
    // otherwise the first one, with a word about the rest.
    let errors: CompiledValidatorError[] = fn.errors;
    try {
      if (smallEnough(payload, DETAIL_LIMIT)) {
        const all = detailedValidator(entry.names[direction]);
        if (!all(payload) && all.errors) errors = all.errors;
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
    issues.unshift(...issuesFromAjv(errors, contractDocument(), `#/components/schemas/${schema}`, payload));
  }
  if (direction === 'request' && readable) {
    for (const set of entry.parameters) {
      const values = options[set.in];
      if (!values || set.validator(values)) continue;
      const all = detailedValidator(set.name);
      all(values);
      for (const issue of issuesFromAjv(all.errors ?? set.validator.errors ?? [], undefined, '', values)) {
        issues.push({ ...issue, in: set.in, schemaPath: `${set.schemaPath(issue.pointer.slice(1))}/${issue.rule}` });
      }
    }
    for (const check of entry.checks) {
      let found: ValidationIssue[];
      try {
        found = check.run(payload, options, entry.op);
      } catch {
        found = [unreadable()];
      }
      if (found.length) issues.push(...found);
    }
  }
  if (issues.length === 0) return VALID;
  if (direction === 'response') return { valid: false, errors: issues };
  issues = issues.map((issue) => {
    const hit = resultCodeFor(operationId, issue);
    return hit ? { ...issue, resultCode: hit.code } : issue;
  });
  const first = issues.find((i) => i.resultCode);
  return { valid: false, errors: issues, ...(first ? { resultCode: describeCode(operationId, first) } : {}) };
}

/** The code, status and message the service answers for an issue (with a code). */
function describeCode<O extends OperationId>(operationId: O, issue: ValidationIssue): { code: ResultCodeOf<O>; status: string; message: string } {
  const codes: readonly { code: string; status: string; messages: readonly string[] }[] = resultCodes[operationId].codes;
  const entry = codes.find((c) => c.code === issue.resultCode);
  if (!entry) throw new Error(`${operationId} has no result code ${issue.resultCode} in its table.`);
  const rule = resultCodeFor(operationId, { ...issue, resultCode: undefined });
  const field = issue.pointer.slice(issue.pointer.lastIndexOf('/') + 1);
  let message = (rule && rule.code === issue.resultCode && rule.message) || entry.messages[0] || '';
  // 1001 and 1011 messages name the field; the service's 1011 text also echoes the value, which we never do.
  if (issue.resultCode === '1001' && /^[A-Za-z]+$/.test(field)) message = `Invalid ${field}`;
  if (issue.resultCode === '1011') message = `Parameter [${issue.pointer.slice(1).replace(/\//g, '.')}] has invalid value`;
  return { code: entry.code as ResultCodeOf<O>, status: entry.status, message };
}

/** The operationIds known to the contract, with method, host and path. */
export function listOperations(): readonly OperationInfo[] {
  return operations;
}
