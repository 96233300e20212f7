// Many payloads in one run: records in (read from files, NDJSON, recorded traffic, or built by the
// caller), one case out per record, each with exactly validate()'s verdict. What a run keeps is
// bounded: the number of cases, the problems of each case and of the whole run, the length of
// names; keys and operationIds that do not read like names are never echoed.
import { type OperationId, operations } from '../../generated/operations.js';
import { readsLikeName } from '../json/pointer.js';
import { POSITIONED_TEXT_LIMIT, pointerOffset, positionAt } from '../json/position.js';
import type { ResultCodeOf } from '../types.js';
import { MAX_ISSUES } from './errors.js';
import type { QueryInput } from './query.js';
import { type Direction, type ValidationIssue, validate } from './validate.js';

/** Where a record's payload was read: reports place each problem in this file and, when they can, on the line of its field. */
export interface PayloadSource {
  /** The file as the user named it (`-` for standard input). */
  file: string;
  /** The line of the file where `text` begins, or where the payload is when there is no `text` (default 1). */
  line?: number | undefined;
  /** The JSON text that holds the payload (the file's, or the NDJSON line's), to find the line of each field (only in texts up to 256 KiB). */
  text?: string | undefined;
  /** Where the payload sits within `text`, as a JSON Pointer (default `''`: the whole text). */
  pointer?: string | undefined;
}

/** One payload to validate, or one input that could not be read, or one that is not a payload of the contract. */
export interface PayloadRecord {
  /** The operation (`initiatePayment`; the webhook is `notifyTokenStatus`). */
  operationId?: string | undefined;
  /** `request` or `response`. */
  direction?: string | undefined;
  /** The parsed JSON envelope `{ head, body }`. */
  payload?: unknown;
  /** The request's query parameters, as validate() takes them. Without them, the required ones are missing (see `parameters`). */
  query?: QueryInput | undefined;
  /** The request's path parameters (tokenize: `mid`). */
  path?: Record<string, string | undefined> | undefined;
  /** The case's name in reports (a file name, `file:line`, a HAR entry); at most 200 characters are kept. */
  name?: string | undefined;
  /** Where the payload was read. */
  source?: PayloadSource | undefined;
  /** The input could not be read or parsed: the case fails with this problem, nothing is validated. */
  unreadable?: { rule: string; message: string } | undefined;
  /** Not a payload of the contract (a recorded exchange with another address): listed as skipped, for this reason. */
  skipped?: string | undefined;
}

/** A problem of a case, placed in its file when the case was read from one. */
export interface CaseIssue extends ValidationIssue {
  /** The line of the field (or of the payload, when the field cannot be found) in `CaseResult.file`. */
  line?: number;
  /** The column of the field, when its line is known. */
  column?: number;
}

/** The verdict on one payload. */
export interface CaseResult {
  /** The case's place in the run, from 0 (skipped records count too). */
  index: number;
  name: string;
  /** The operationId given (`<unknown>` when it does not read like one). */
  operationId: string;
  direction: string;
  valid: boolean;
  /** The problems, exactly validate()'s, at most 100 per case (fewer once the run has kept `maxKeptIssues`). */
  errors: CaseIssue[];
  /** How many problems the payload has: `errors` may hold fewer. */
  errorCount: number;
  /** For requests: the result code the service would answer. */
  resultCode?: { code: ResultCodeOf<OperationId>; status: string; message: string } | undefined;
  /** The file the payload was read from. */
  file?: string;
  /** The line of the payload in `file`. */
  line?: number;
}

/** A record that is not a payload of the contract. */
export interface SkippedRecord {
  index: number;
  name: string;
  reason: string;
}

/** Every case of a run, the records skipped, and the counts. */
export interface BatchResult {
  cases: CaseResult[];
  skipped: SkippedRecord[];
  counts: { cases: number; valid: number; invalid: number; skipped: number };
  /** The run stopped at `maxCases`: records after that were not read. */
  truncated: boolean;
}

export interface ValidateManyOptions {
  /** Whether required query and path parameters are demanded (default true; see validate()). */
  parameters?: boolean | undefined;
  /** Records read at most; the run stops there and says so (`truncated`). Default 100 000. */
  maxCases?: number | undefined;
  /** Problems kept over the whole run; past it, each invalid case keeps its first problem only. Default 20 000. */
  maxKeptIssues?: number | undefined;
  /** Called with each case once it is judged (a run's progress); skipped records are not cases. */
  onCase?: ((result: CaseResult) => void) | undefined;
}

import { BATCH_DEFAULTS, caseName } from './cases.js';

export { BATCH_DEFAULTS, caseName };

const KNOWN = new Set<string>(operations.map((o) => o.operationId));

/** An operationId or direction as it may be shown: as given when it reads like a name, else a word. */
const shownName = (value: unknown): string => (readsLikeName(value) ? value : '<unknown>');

function problem(rule: string, message: string): ValidationIssue {
  return { in: 'body', pointer: '', rule, message };
}

/** The record's own problem (what it names is not an operation and direction of the contract), or null. */
function recordProblem(record: PayloadRecord): ValidationIssue | null {
  if (record.unreadable) return problem(record.unreadable.rule, record.unreadable.message);
  if (typeof record.operationId !== 'string' || !KNOWN.has(record.operationId))
    return problem(
      'operationId',
      `The operationId "${shownName(record.operationId)}" is not an operation of the contract; known: ${[...KNOWN].join(', ')}.`,
    );
  if (record.direction !== 'request' && record.direction !== 'response')
    return problem('direction', 'The direction must be "request" or "response".');
  return null;
}

/** Puts each problem on the line (and column) of its field in the source text. */
function locate(issues: ValidationIssue[], source: PayloadSource | undefined): CaseIssue[] {
  if (!source) return issues;
  const first = source.line ?? 1;
  const text = source.text !== undefined && source.text.length <= POSITIONED_TEXT_LIMIT ? source.text : undefined;
  const base = text === undefined ? 0 : pointerOffset(text, source.pointer ?? '');
  return issues.map((issue) => {
    if (text === undefined || issue.in !== 'body') return { ...issue, line: first };
    const at = positionAt(text, pointerOffset(text, issue.pointer, base));
    return { ...issue, line: first + at.line - 1, column: at.column };
  });
}

/**
 * A record judged as a case: `budget` is how many problems the run still keeps (at least the first
 * of each invalid case is kept). Its own function, so that validateMany's loop stays small: the
 * engine's background optimization of a long loop then ends within the run, not after it (D-147;
 * bench/batch.mjs's JUnit target).
 */
function judged(
  record: PayloadRecord,
  index: number,
  name: string,
  budget: number,
  parameters: boolean | undefined,
): CaseResult {
  const known = recordProblem(record);
  let issues: ValidationIssue[];
  let resultCode: CaseResult['resultCode'];
  if (known) issues = [known];
  else {
    const verdict = validate(record.operationId as OperationId, record.direction as Direction, record.payload, {
      query: record.query,
      path: record.path,
      parameters,
    });
    issues = verdict.valid ? [] : verdict.errors;
    if (!verdict.valid && verdict.resultCode) resultCode = verdict.resultCode;
  }
  const kept = issues.length === 0 ? issues : issues.slice(0, Math.max(1, Math.min(MAX_ISSUES, budget)));
  const source = record.source;
  return {
    index,
    name,
    operationId: shownName(record.operationId),
    direction: shownName(record.direction),
    valid: issues.length === 0,
    errors: issues.length ? locate(kept, source) : [],
    errorCount: issues.length,
    ...(resultCode ? { resultCode } : {}),
    ...(source ? { file: caseName(source.file), line: source.line ?? 1 } : {}),
  };
}

/**
 * Validates many payloads in one run. Each record is one case, judged exactly as
 * `validate(operationId, direction, payload, { query, path, parameters })` judges it; a record that
 * could not be read is a failed case with its reason, one that names no operation of the contract
 * a failed case too, and one marked `skipped` is listed, not judged. Records may come from an
 * array, a generator or an async iterable (read one at a time). Never throws for a record's
 * content.
 */
export async function validateMany(
  records: Iterable<PayloadRecord> | AsyncIterable<PayloadRecord>,
  options: ValidateManyOptions = {},
): Promise<BatchResult> {
  const maxCases = options.maxCases ?? BATCH_DEFAULTS.maxCases;
  let budget = options.maxKeptIssues ?? BATCH_DEFAULTS.maxKeptIssues;
  const result: BatchResult = {
    cases: [],
    skipped: [],
    counts: { cases: 0, valid: 0, invalid: 0, skipped: 0 },
    truncated: false,
  };
  let index = 0;
  for await (const record of records) {
    if (index >= maxCases) {
      result.truncated = true;
      break;
    }
    const name = caseName(record.name ?? record.source?.file ?? `record ${index + 1}`);
    if (record.skipped !== undefined) {
      result.skipped.push({ index: index++, name, reason: caseName(record.skipped) });
      result.counts.skipped++;
      continue;
    }
    const one = judged(record, index++, name, budget, options.parameters);
    budget -= one.errors.length;
    result.cases.push(one);
    result.counts.cases++;
    if (one.valid) result.counts.valid++;
    else result.counts.invalid++;
    options.onCase?.(one);
  }
  return result;
}
