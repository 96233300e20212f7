// What an answer says: its outcome, result code, status and message, read where the operation's
// catalog says they are.
import { type ResultCodeCatalog, resultCodes } from '../../generated/resultCodes.js';
import type { OperationId, ResponseOf } from '../types.js';

type Entry<O extends OperationId> = ResultCodeCatalog[O]['codes'][number];

/**
 * The service's answer to a call, narrowed by its result code: `outcome` is `success`, `pending`
 * or `failure` as the operation's own table says for that code.
 */
export type CallResult<O extends OperationId> =
  Entry<O> extends infer E
    ? E extends { code: infer C; status: infer S; outcome: infer R }
      ? { outcome: R; code: C; status: S; message: string; meaning: string; data: ResponseOf<O>; httpStatus: number }
      : never
    : never;

/** One entry of an operation's table, as the lookups read it. */
interface CodeEntry {
  readonly code: string;
  readonly status: string;
  readonly outcome: 'success' | 'pending' | 'failure';
  readonly messages: readonly string[];
  readonly meaning: string;
}

function field(holder: unknown, name: string): unknown {
  return holder !== null && typeof holder === 'object' ? (holder as Record<string, unknown>)[name] : undefined;
}

/**
 * The result of an answer: its outcome, result code, status and message, read where the
 * operation's catalog says they are. A code that is not in the operation's table, or that comes
 * with another status than the table's, is a failure.
 */
export function resultOf<O extends OperationId>(operationId: O, data: unknown, httpStatus: number): CallResult<O> {
  const entry = resultCodes[operationId];
  const holder = entry.location
    .split('/')
    .filter(Boolean)
    .reduce((node, key) => field(node, key), data);
  const code = field(holder, entry.fields.code);
  const status = field(holder, entry.fields.status);
  const codes: readonly CodeEntry[] = entry.codes;
  const known = codes.find((c) => c.code === code);
  const outcome = known && known.status === status ? known.outcome : 'failure';
  const message = field(holder, entry.fields.message);
  return {
    outcome,
    code,
    status,
    message: typeof message === 'string' ? message : (known?.messages[0] ?? ''),
    meaning: known?.meaning ?? "A result code that is not in this operation's table.",
    data,
    httpStatus,
  } as CallResult<O>;
}
