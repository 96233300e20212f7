// What the commands share: the usage error main() reports in one line with exit status 2, whole
// numbers within a range (ports, delays), name=value pairs, and the shape of a command.
import type { OptionTable } from './optionTable.js';

/** The streams a command reads and writes. */
export interface Io {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * One command of `gateway-contract`: its usage lines, what it does (the help's prose, above its
 * options), its option table (the parser's configuration and the help's options block) and what it
 * does, resolving with the exit status (its summary is in main.ts).
 */
export interface Command {
  usage: string;
  about: string;
  options: OptionTable;
  run(args: string[], io: Io): Promise<number>;
}

/** A mistake in the command line or its input: reported in one line, exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const usageError = (message: string): UsageError => new UsageError(message);

/** A whole number from `min` to `max`, or undefined when the option is absent. */
export function wholeNumber(
  text: string | undefined,
  what: string,
  { min = 0, max = Number.MAX_SAFE_INTEGER }: { min?: number; max?: number } = {},
): number | undefined {
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max)
    throw usageError(`${what} must be a whole number from ${min} to ${max}, got "${text.slice(0, 16)}"`);
  return n;
}

/** `name=value` pairs as a query, a name given twice kept twice: validate() reads it as any query (D-109). */
export function queryPairs(list: string[], flag: string): URLSearchParams {
  const query = new URLSearchParams();
  for (const item of list) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw usageError(`${flag} takes name=value, got "${item.slice(0, 64)}"`);
    query.append(item.slice(0, eq), item.slice(eq + 1));
  }
  return query;
}

/** `name=value` items of a repeatable option as an object. */
export function pairs(list: string[], flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw usageError(`${flag} takes name=value, got "${item.slice(0, 64)}"`);
    out[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}
