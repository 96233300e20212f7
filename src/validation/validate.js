// The validation API: a payload of an operation, in one direction, against the contract's
// precompiled validators and the named checks. Never throws for anything inside the payload.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as validators from '../../generated/validators.js';
import { operations } from '../../generated/operations.js';
import { resultCodes } from '../../generated/resultCodes.js';
import { issuesFromAjv } from './errors.js';
import { namedChecks } from './checks.js';
import { resultCodeFor } from './resultCodeRules.js';

/** @typedef {import('./errors.js').ValidationIssue} ValidationIssue */

const VALID = Object.freeze({ valid: /** @type {const} */ (true) });
/** The issue of a payload that cannot be read to the end (too deep, or a JavaScript object whose reading throws). */
const unreadable = () => ({ in: /** @type {const} */ ('body'), pointer: '', rule: 'validatable', message: 'The payload could not be validated (it is too large, too deeply nested, or cannot be read).' });
/** @type {Record<string, import('../../generated/validators.js').CompiledValidator>} */
const compiled = /** @type {any} */ (validators);
/** Per operation: its index entry, its two validators and its named checks, looked up once. */
const byId = new Map(operations.map((op) => [op.operationId, {
  op,
  request: compiled[`${op.operationId}Request`],
  response: compiled[`${op.operationId}Response`],
  names: { request: `${op.operationId}Request`, response: `${op.operationId}Response` },
  checks: op.namedChecks.map((name) => namedChecks[name]),
}]));

/** Payloads with more JSON values than this are described by their first problem only. */
const DETAIL_LIMIT = 20_000;
const require = createRequire(import.meta.url);
/** @type {Record<string, import('../../generated/validators.js').CompiledValidator> | undefined} */
let detailed;
/** The all-errors validators, loaded the first time a payload is invalid. */
function detailedValidator(/** @type {string} */ name) {
  detailed ??= require('../../generated/validators-detailed.cjs');
  return /** @type {Record<string, import('../../generated/validators.js').CompiledValidator>} */ (detailed)[name];
}

/** Whether `value` holds at most `limit` JSON values (counted without recursion, stopping early). */
function smallEnough(/** @type {unknown} */ value, /** @type {number} */ limit) {
  const stack = [value];
  let count = 0;
  while (stack.length) {
    const v = stack.pop();
    if (++count > limit) return false;
    if (v && typeof v === 'object') for (const child of Object.values(v)) stack.push(child);
  }
  return true;
}

/** @type {any} */
let contract;
/** The bundled contract, read only when a payload is invalid (to place and title the rules). */
function contractDocument() {
  contract ??= JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
  return contract;
}

/** @param {string} operationId @param {unknown} direction */
function lookup(operationId, direction) {
  const entry = byId.get(operationId);
  if (!entry) throw new TypeError(`Unknown operationId "${String(operationId).slice(0, 64)}". Known: ${[...byId.keys()].join(', ')}.`);
  if (direction !== 'request' && direction !== 'response') throw new TypeError('direction must be "request" or "response".');
  return entry;
}

/**
 * Validates a payload of one operation.
 * @param {string} operationId e.g. `initiatePayment`; the webhook is `notifyTokenStatus`
 * @param {'request' | 'response'} direction
 * @param {unknown} payload the parsed JSON envelope `{ head, body }`
 * @param {{ query?: Record<string, string | undefined>, path?: Record<string, string | undefined> }} [options]
 *   the request's query and path parameters, for the checks that compare them with the body
 */
export function validate(operationId, direction, payload, options = {}) {
  const entry = lookup(operationId, direction);
  const fn = direction === 'request' ? entry.request : entry.response;
  /** @type {ValidationIssue[]} */
  let issues = [];
  let ok;
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
    let errors = fn.errors;
    try {
      if (smallEnough(payload, DETAIL_LIMIT)) {
        const all = detailedValidator(entry.names[direction]);
        if (!all(payload) && all.errors) errors = all.errors;
      } else {
        issues.push({ in: 'body', pointer: '', rule: 'moreProblems', message: `The payload holds more than ${DETAIL_LIMIT} values: only its first problem is described.` });
      }
    } catch {
      // Parts the first-problem validator did not read cannot be read (a getter or proxy that throws).
      issues.push(unreadable());
    }
    issues.unshift(...issuesFromAjv(errors, contractDocument(), `#/components/schemas/${schema}`));
  }
  if (direction === 'request' && readable) {
    for (const check of entry.checks) {
      let found;
      try {
        found = check.run(payload, options, entry.op);
      } catch {
        found = [unreadable()];
      }
      if (found.length) issues.push(...found);
    }
  }
  if (issues.length === 0) return VALID;
  if (direction === 'response') return { valid: /** @type {const} */ (false), errors: issues };
  issues = issues.map((issue) => {
    const hit = resultCodeFor(operationId, issue);
    return hit ? { ...issue, resultCode: hit.code } : issue;
  });
  const first = issues.find((i) => i.resultCode);
  return { valid: /** @type {const} */ (false), errors: issues, ...(first ? { resultCode: describeCode(operationId, first) } : {}) };
}

/** @param {string} operationId @param {ValidationIssue} issue */
function describeCode(operationId, issue) {
  const entry = /** @type {any} */ (resultCodes)[operationId].codes.find((/** @type {any} */ c) => c.code === issue.resultCode);
  const rule = resultCodeFor(operationId, { ...issue, resultCode: undefined });
  const field = issue.pointer.slice(issue.pointer.lastIndexOf('/') + 1);
  let message = (rule?.code === issue.resultCode && rule.message) || entry.messages[0];
  // 1001 and 1011 messages name the field; the service's 1011 text also echoes the value, which we never do.
  if (issue.resultCode === '1001' && /^[A-Za-z]+$/.test(field)) message = `Invalid ${field}`;
  if (issue.resultCode === '1011') message = `Parameter [${issue.pointer.slice(1).replace(/\//g, '.')}] has invalid value`;
  return { code: entry.code, status: entry.status, message };
}

/** The operationIds known to the contract, with method, host and path. */
export function listOperations() {
  return operations;
}
