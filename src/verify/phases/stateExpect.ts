// What the state phase expects of an answer, in one place: a refusal with the code the description
// gives for the state the order (or block, or subscription) is in. An answer of success where the
// state forbids it breaks the named rule (paid twice, modified after payment...); a refusal with
// another code breaks `stateCode`.
import { codeOf, meaningOf } from '../checks.js';
import type { Trial } from '../context.js';
import { isJsonObject as isObject } from '../schema.js';
import type { Exchange } from '../types.js';

/** The value at a path of objects, or undefined. */
export const at = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), value);

/** Rupees with two decimals, from paise. */
export const rupees = (paise: number): string => `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;

/** Whether the exchange was answered and its code succeeded. */
export const succeeded = (exchange: Exchange): boolean => meaningOf(exchange) === 'success';

/** The answer's result code, or a word for its absence (never a value of the request). */
export const codeText = (exchange: Exchange): string =>
  codeOf(exchange.operationId, exchange.answer).code ?? (exchange.failure ? 'no answer' : 'no code');

/**
 * The answer must be a refusal with `code`, because of `why` (the state). Success breaks `rule`;
 * another code (or none) breaks `stateCode`. Whether it kept the rule.
 */
export function expectRefusal(
  trial: Trial,
  exchange: Exchange,
  expected: { code: string; rule: string; why: string },
): boolean {
  if (exchange.failure !== undefined) return false;
  const code = codeOf(exchange.operationId, exchange.answer).code;
  if (code === expected.code) return true;
  if (succeeded(exchange))
    trial.fail(
      'state',
      expected.rule,
      exchange.operationId,
      `${expected.why}, yet the answer is ${code} (success); the description's answer is ${expected.code}.`,
    );
  else
    trial.fail(
      'state',
      'stateCode',
      exchange.operationId,
      `${expected.why}: the description's answer is ${expected.code}, not ${code ?? 'an answer without a code'}.`,
    );
  return false;
}
