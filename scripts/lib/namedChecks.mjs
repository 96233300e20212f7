// The words of each named check (the rules JSON Schema cannot say), read from the traceability
// record, where each check has one entry with its rule and the description's source.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const RECORD = new URL('../../openapi/traceability.yaml', import.meta.url);

/** @typedef {{ rule: string, source: string }} NamedCheckRule */

/** @type {Record<string, NamedCheckRule> | undefined} */
let cached;

/** Per named check, its rule in words and where the description states it, in name order. */
export function namedCheckRules() {
  if (cached) return cached;
  /** @type {{ enforcement?: string, check?: string, rule?: string, source?: string }[]} */
  const entries = parse(readFileSync(RECORD, 'utf8'));
  /** @type {Record<string, NamedCheckRule>} */
  const rules = {};
  for (const e of entries) {
    if (e.enforcement !== 'check' || typeof e.check !== 'string') continue;
    if (rules[e.check]) throw new Error(`traceability.yaml: the named check ${e.check} has more than one entry`);
    rules[e.check] = { rule: String(e.rule).trim(), source: String(e.source).trim() };
  }
  cached = Object.fromEntries(Object.entries(rules).sort(([a], [b]) => a.localeCompare(b)));
  return cached;
}
