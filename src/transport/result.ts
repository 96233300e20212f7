// What an answer says: its outcome, result code, status, message and next step, read where the
// operation's catalog says they are, and the raw answer (HTTP status and headers).
import { type ResultCodeCatalog, resultCodes } from '../../generated/resultCodes.js';
import type { OperationId, ResponseOf } from '../types.js';
import { type NextStep, unknownOutcome } from './nextStep.js';

type Entry<O extends OperationId> = ResultCodeCatalog[O]['codes'][number];

/** `{ a: { b: V } }` for the location `/a/b`. */
type At<L extends string, V> = L extends `/${infer Key}/${infer Rest}`
  ? { [K in Key]: At<`/${Rest}`, V> }
  : L extends `/${infer Key}`
    ? { [K in Key]: V }
    : V;

/**
 * The answer of an operation whose result code is `C`: the response type with the code pinned where
 * the operation's catalog says it is, so that what the contract ties to that code comes with it (a
 * pre-auth answered `02` carries its `txnToken`).
 */
export type AnswerWith<O extends OperationId, C> = ResponseOf<O> &
  At<ResultCodeCatalog[O]['location'], { [K in ResultCodeCatalog[O]['fields']['code']]: C }>;

/** The answer as it came: its HTTP status and headers (names in lower case, repeated ones joined by `, `). */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The service's answer to a call, narrowed by its result code: `outcome` is `success`, `pending`
 * or `failure` and `nextStep` what to do next, as the operation's own table says for that code.
 */
export type CallResult<O extends OperationId> =
  Entry<O> extends infer E
    ? E extends { code: infer C; status: infer S; outcome: infer R; nextStep: infer N }
      ? {
          outcome: R;
          code: C;
          status: S;
          message: string;
          meaning: string;
          nextStep: N;
          data: AnswerWith<O, C>;
          httpStatus: number;
          raw: RawAnswer;
        }
      : never
    : never;

/** One entry of an operation's table, as the lookups read it. */
export interface CodeEntry {
  readonly code: string;
  readonly status: string;
  readonly outcome: 'success' | 'pending' | 'failure';
  readonly messages: readonly string[];
  readonly meaning: string;
  readonly nextStep: NextStep;
}

/**
 * Per operation, its codes by code and the keys that lead to its result fields: read once, not per
 * answer. Every result shares its code's next step with the catalog, so that object is frozen.
 */
const tables = new Map<string, ReadonlyMap<string, CodeEntry>>();
for (const [operationId, entry] of Object.entries(resultCodes)) {
  const codes = entry.codes as readonly CodeEntry[];
  for (const c of codes) Object.freeze(c.nextStep);
  tables.set(operationId, new Map(codes.map((c) => [c.code, c])));
}
const locations = new Map<string, readonly string[]>(
  Object.entries(resultCodes).map(([operationId, entry]) => [operationId, entry.location.split('/').filter(Boolean)]),
);

/** The entry of `code` in the operation's table, if it is one of its codes. */
export function codeEntry(operationId: OperationId, code: unknown): CodeEntry | undefined {
  return typeof code === 'string' ? tables.get(operationId)?.get(code) : undefined;
}

function field(holder: unknown, name: string): unknown {
  return holder !== null && typeof holder === 'object' ? (holder as Record<string, unknown>)[name] : undefined;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The result of an answer: its outcome, result code, status, message and next step, read where
 * the operation's catalog says they are. A code that is not in the operation's table, or that
 * comes with another status than the table's, is a failure whose outcome is unknown (D-53).
 */
export function resultOf<O extends OperationId>(
  operationId: O,
  data: unknown,
  httpStatus: number,
  headers?: Headers,
): CallResult<O> {
  const { fields } = resultCodes[operationId];
  let holder = data;
  for (const key of locations.get(operationId) ?? []) holder = field(holder, key);
  const code = field(holder, fields.code);
  const status = field(holder, fields.status);
  const found = codeEntry(operationId, code);
  const known = found && found.status === status ? found : undefined;
  const message = field(holder, fields.message);
  return {
    outcome: known ? known.outcome : 'failure',
    code,
    status,
    message: typeof message === 'string' ? message : (found?.messages[0] ?? ''),
    meaning: found?.meaning ?? "A result code that is not in this operation's table.",
    nextStep: known ? known.nextStep : unknownOutcome(operationId),
    data,
    httpStatus,
    // A plain object costs less than a microsecond here, against some hundreds for the call.
    raw: { status: httpStatus, headers: headers ? Object.fromEntries(headers) : NO_HEADERS },
  } as CallResult<O>;
}
