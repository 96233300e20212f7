// Reading a request's query into the contract's parameters, by one rule wherever a query is judged
// (validate(), the proxy, the sandbox, the HAR reader): a parameter of the contract given more than
// once is a problem, never read as its first or its last value, since servers differ on which they
// take (docs/decisions.md, D-109). Any other name keeps its first value, unjudged, as before.
import type { ValidationIssue } from './errors.js';

/**
 * A query as validate() takes it: a record of values (an array is the values of a name given more
 * than once: one value is that value, none is absent), a URLSearchParams, or the query string
 * (with or without its `?`), read as a URL's query is read.
 */
export type QueryInput = string | URLSearchParams | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface QueryReading {
  /** One value per name; a repeated parameter of the contract is left out (its issue says why). */
  query: Readonly<Record<string, string | undefined>>;
  /** One `repeatedParameter` issue per parameter of the contract given more than once. */
  issues: readonly ValidationIssue[];
  /** The names of the contract's parameters given more than once. */
  repeated: readonly string[];
}

const NONE: readonly string[] = Object.freeze([]);
/** No issue: shared, never written to. */
export const NO_ISSUES: readonly ValidationIssue[] = Object.freeze([]);

/** The values given for each name, in order. */
function valuesOf(input: QueryInput): Map<string, string[]> {
  const values = new Map<string, string[]>();
  const add = (name: string, value: string) => {
    const list = values.get(name);
    if (list) list.push(value);
    else values.set(name, [value]);
  };
  if (typeof input === 'string' || input instanceof URLSearchParams) {
    const search =
      typeof input === 'string' ? new URLSearchParams(input.startsWith('?') ? input.slice(1) : input) : input;
    for (const [name, value] of search) add(name, value);
    return values;
  }
  for (const [name, value] of Object.entries(input)) {
    if (typeof value === 'string') add(name, value);
    else if (Array.isArray(value)) for (const v of value) add(name, String(v));
  }
  return values;
}

/** Whether a record holds one string (or nothing) per name: then it is the query as it is. */
function isPlain(input: QueryInput): input is Readonly<Record<string, string | undefined>> {
  if (typeof input === 'string' || input instanceof URLSearchParams) return false;
  for (const name in input) if (Array.isArray(input[name])) return false;
  return true;
}

/** The query's values by name, each parameter of the contract (`names`) at most once. */
export function readQuery(input: QueryInput, names: readonly string[]): QueryReading {
  // The common case, a record of strings, costs one pass and no copy.
  if (isPlain(input)) return { query: input, issues: NO_ISSUES, repeated: NONE };
  const query: Record<string, string> = Object.create(null);
  const issues: ValidationIssue[] = [];
  const repeated: string[] = [];
  for (const [name, list] of valuesOf(input)) {
    if (list.length > 1 && names.includes(name)) {
      repeated.push(name);
      issues.push({
        in: 'query',
        pointer: `/${name}`,
        rule: 'repeatedParameter',
        message: `The query parameter ${name} is given ${list.length} times: each parameter of the contract is given once.`,
      });
    } else if (list[0] !== undefined) query[name] = list[0];
  }
  return { query, issues, repeated };
}
