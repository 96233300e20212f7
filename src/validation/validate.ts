// The validation API: a payload of an operation, in one direction, against the contract's
// precompiled validators and the named checks. Never throws for anything inside the payload.
import { createRequire } from 'node:module';
import { type OperationId, type OperationInfo, operations } from '../../generated/operations.js';
import { resultCodes } from '../../generated/resultCodes.js';
import type { CompiledValidator, CompiledValidatorError } from '../../generated/validators.js';
import type { ResultCodeOf } from '../types.js';
import { type NamedCheck, namedChecks, type RequestContext } from './checks.js';
import type { ValidationIssue } from './errors.js';
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

/** The validators of one module of generated/validators/, by name. */
type ValidatorModule = Readonly<Record<string, CompiledValidator | undefined>>;

const require = createRequire(import.meta.url);

/**
 * The precompiled validators of one operation and direction (`initiatePaymentRequest`), loaded the
 * first time they are used: a program that validates one operation loads that operation's
 * validators only. `detailed` reports every problem (loaded when a payload is invalid).
 */
function validatorModule(name: string, detailed: boolean): ValidatorModule {
  return require(`../../generated/validators/${name}${detailed ? '.detailed' : ''}.cjs`) as ValidatorModule;
}

/** A validator the generator made for the operation index (its absence is a broken package). */
function present(validator: CompiledValidator | undefined, name: string): CompiledValidator {
  if (!validator) throw new Error(`The precompiled validator ${name} is missing: regenerate with npm run generate.`);
  return validator;
}

/** One direction of an operation: its module's name and, once loaded, its validators. */
class Side {
  private fast: ValidatorModule | undefined;
  private all: ValidatorModule | undefined;
  constructor(readonly name: string) {}
  /** The validator `name` of this side (by default the payload's own), stopping at the first problem. */
  validator(name = this.name): CompiledValidator {
    this.fast ??= validatorModule(this.name, false);
    return present(this.fast[name], name);
  }
  /** The validator `name` of this side reporting every problem. */
  detailed(name = this.name): CompiledValidator {
    this.all ??= validatorModule(this.name, true);
    return present(this.all[name], name);
  }
}

interface Entry {
  op: OperationInfo;
  sides: Record<Direction, Side>;
  checks: NamedCheck[];
  /** The validators of the values of its query and path parameters (in the request's module), when it has some. */
  parameters: { in: 'query' | 'path'; name: string; schemaPath: (name: string) => string }[];
}

/** Where a parameter's schema lives in the bundled contract. */
function parameterSchemaPath(op: OperationInfo, name: string): string {
  const param = op.parameters.find((p) => p.name === name);
  return param && 'component' in param ? `#/components/parameters/${param.component}/schema` : '';
}

/** Per operation: its index entry, where its validators are, and its named checks, looked up once. */
const byId = new Map<string, Entry>(
  operations.map((op) => [
    op.operationId,
    {
      op,
      sides: { request: new Side(`${op.operationId}Request`), response: new Side(`${op.operationId}Response`) },
      checks: op.namedChecks.map((name) => namedChecks[name]),
      parameters: (['query', 'path'] as const)
        .filter((where) => op.parameters.some((p) => p.in === where))
        .map((where) => ({
          in: where,
          name: `${op.operationId}${where === 'query' ? 'Query' : 'Path'}`,
          schemaPath: (param: string) => parameterSchemaPath(op, param),
        })),
    },
  ]),
);

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

/** AJV's errors in the words of validate(): loaded with the first invalid payload (require of an ES module). */
function issuesFromAjv(...args: Parameters<typeof import('./errors.js').issuesFromAjv>): ValidationIssue[] {
  return (require('./errors.js') as typeof import('./errors.js')).issuesFromAjv(...args);
}

let contract: unknown;
/** The bundled contract, read only when a payload is invalid (to place and title the rules). */
function contractDocument(): unknown {
  contract ??= require('../../generated/openapi.json');
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
  const side = entry.sides[direction];
  return passes(entry, side, direction, payload, options, false) ? VALID : describe(operationId, entry, side, direction, payload, options, false);
}

/**
 * validate(), the same verdict and problems, reading a payload of bounded size at once with the
 * validators that list every problem (they are as fast on a valid payload): a run of many payloads
 * then loads one module per operation and direction rather than two, and reads an invalid payload
 * once. Larger payloads go the way of validate(), where the first problem ends the reading.
 */
export function validateEvery<O extends OperationId>(
  operationId: O,
  direction: Direction,
  payload: unknown,
  options: ValidationOptions = {},
): ValidationResult<O> {
  const entry = lookup(operationId, direction);
  const side = entry.sides[direction];
  let every = false;
  try {
    every = smallEnough(payload, DETAIL_LIMIT);
  } catch {
    // a payload that cannot be read goes the way of validate()
  }
  return passes(entry, side, direction, payload, options, every) ? VALID : describe(operationId, entry, side, direction, payload, options, every);
}

/**
 * Whether the payload passes, on a short path: a valid payload is the common case, and a small
 * function stays fast. Any doubt (a problem, a check or a read that throws) is left to `describe`.
 */
function passes(entry: Entry, side: Side, direction: Direction, payload: unknown, options: ValidationOptions, every: boolean): boolean {
  try {
    if (!(every ? side.detailed() : side.validator())(payload)) return false;
    if (direction === 'response') return true;
    for (const set of entry.parameters) {
      const values = options[set.in];
      if (values && !(every ? side.detailed(set.name) : side.validator(set.name))(values)) return false;
    }
    for (const check of entry.checks) if (check.run(payload, options, entry.op).length > 0) return false;
    return true;
  } catch {
    return false;
  }
}

/**
 * Every problem of a payload that did not pass: the validators' and the named checks'. `every`:
 * the payload is small enough to be read with the validators that list every problem from the start.
 */
function describe<O extends OperationId>(
  operationId: O,
  entry: Entry,
  side: Side,
  direction: Direction,
  payload: unknown,
  options: ValidationOptions,
  every: boolean,
): ValidationResult<O> {
  const fn = every ? side.detailed() : side.validator();
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
      if (every) {
        // fn listed every problem already.
      } else if (smallEnough(payload, DETAIL_LIMIT)) {
        const all = side.detailed();
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
      if (!values) continue;
      const first = every ? side.detailed(set.name) : side.validator(set.name);
      if (first(values)) continue;
      const all = every ? first : side.detailed(set.name);
      if (!every) all(values);
      for (const issue of issuesFromAjv(all.errors ?? first.errors ?? [], undefined, '', values)) {
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

/**
 * Loads now, synchronously, what validate() otherwise loads the first time it needs it: every
 * operation's validators in both directions (first problem and every problem), the wording of
 * problems and the contract. For a server that validates from its first request on.
 */
export function loadEveryValidator(): void {
  for (const entry of byId.values()) {
    for (const side of Object.values(entry.sides)) {
      side.validator();
      side.detailed();
    }
  }
  require('./errors.js');
  contractDocument();
}

/** The operationIds known to the contract, with method, host and path. */
export function listOperations(): readonly OperationInfo[] {
  return operations;
}
