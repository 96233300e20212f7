// Direction rules for a change of one schema keyword (DECISIONS.md, D-45), as one table read from
// the top: the first rule whose `when` holds decides. What the merchant sends (requests, webhook
// replies) breaks them when the service accepts less; what the merchant receives (responses,
// notifications) breaks them when a field or value they rely on disappears, or when an answer may
// now hold what a validator of the released contract refuses. New values and variants of what they
// receive are notable (merchants switch on them), not breaking. api-smart-diff classifies most
// keywords the same way; where it does not (removed fields, answer values, replaced constants and
// patterns, closed objects, keywords it does not know), these rules decide (D-47). A keyword
// neither knows is treated as breaking, so that nothing passes unread. The rules live in
// `schemaRules/` by what they read: fields, values, shapes, structure.

import { DOCUMENTATION_RULES, FIELD_RULES } from './schemaRules/fields.mjs';
import { BOUND_RULES, PATTERN_RULES, TYPE_RULES } from './schemaRules/shapes.mjs';
import { CLOSURE_RULES, CONDITION_RULES, DEFAULT_RULES, VARIANT_RULES } from './schemaRules/structure.mjs';
import { CONST_RULES, ENUM_RULES } from './schemaRules/values.mjs';

export { acceptsEveryString } from './schemaRules/shapes.mjs';
export { ANNOTATION_KEYWORDS, LEVELS, shown } from './schemaRules/terms.mjs';

/** @typedef {import('./schemaRules/terms.mjs').Level} Level */
/** @typedef {import('./schemaRules/terms.mjs').Sender} Sender */
/** @typedef {import('./schemaRules/terms.mjs').Action} Action */
/** @typedef {import('./schemaRules/terms.mjs').Verdict} Verdict */
/** @typedef {import('./schemaRules/terms.mjs').SchemaChange} SchemaChange */
/** @typedef {import('./schemaRules/terms.mjs').SchemaRule} SchemaRule */

/** The table, in the order it is read. @type {ReadonlyArray<SchemaRule>} */
export const SCHEMA_RULES = [
  ...DOCUMENTATION_RULES,
  ...FIELD_RULES,
  ...ENUM_RULES,
  ...CONST_RULES,
  ...TYPE_RULES,
  ...PATTERN_RULES,
  ...BOUND_RULES,
  ...CLOSURE_RULES,
  ...VARIANT_RULES,
  ...CONDITION_RULES,
  ...DEFAULT_RULES,
];

/** The rule that decides a change, or undefined when none does (the library's classification stands). @param {SchemaChange} change */
export function schemaRuleOf(change) {
  return SCHEMA_RULES.find((rule) => rule.when(change));
}

/**
 * The verdict for one schema keyword change, or null when the library's own classification stands.
 * @param {SchemaChange} change @returns {Verdict | null}
 */
export function classifySchemaChange(change) {
  const rule = schemaRuleOf(change);
  if (rule === undefined || rule.level === 'library') return null;
  return {
    level: typeof rule.level === 'string' ? rule.level : rule.level[change.sender],
    kind: typeof rule.kind === 'string' ? rule.kind : rule.kind(change),
    text: rule.text(change),
  };
}

/**
 * A level for a change the rules above leave to the library. Unclassified changes count as
 * breaking: the check does not let through what it cannot read.
 * @param {string} libraryType @returns {Level}
 */
export function levelOfLibraryType(libraryType) {
  if (libraryType === 'annotation') return 'patch';
  if (libraryType === 'non-breaking' || libraryType === 'deprecated') return 'notable';
  return 'breaking';
}
