// The rules for the structure around values: unlisted fields, variants and parts, rules between
// fields, keywords the rules do not read, and defaults.

import { added, itemOf, merchantSends, NARROWER, removed, WIDER } from './terms.mjs';

/** @typedef {import('./terms.mjs').SchemaRule} SchemaRule */
/** @typedef {import('./terms.mjs').SchemaChange} SchemaChange */

const CLOSERS = new Set(['additionalProperties', 'unevaluatedProperties', 'unevaluatedItems']);
const BETWEEN_FIELDS = new Set(['if', 'then', 'else', 'dependentSchemas']);
const UNREAD = new Set([
  'if',
  'not',
  'dependentSchemas',
  'propertyNames',
  'contains',
  'prefixItems',
  'patternProperties',
  'discriminator',
]);

/** Open (absent or true), restricted (a schema) or closed (false). @param {unknown} value */
function openness(value) {
  if (value === undefined || value === true) return 2;
  if (value === false) return 0;
  return 1;
}

/** @param {SchemaChange} c */
const isCloser = (c) => CLOSERS.has(c.keyword);
/** @param {SchemaChange} c */
const isVariant = (c) => itemOf('oneOf')(c) || itemOf('anyOf')(c);
const isPart = itemOf('allOf');
/** @param {SchemaChange} c */
const isDependentRequired = (c) => c.keyword === 'dependentRequired' && !c.nested;
/** @param {SchemaChange} c */
const variantName = (c) => (c.variant ? ` "${c.variant}"` : '');

/** @type {SchemaRule[]} */
export const CLOSURE_RULES = [
  {
    change: 'the schema of unlisted fields or items changed',
    when: (c) => isCloser(c) && c.nested,
    level: 'breaking',
    kind: 'closure-changed',
    text: (c) => `the schema of ${c.keyword} changed`,
    why: 'the rules cannot tell which side accepts less',
    source: 'D-45 (what the rules cannot read is breaking)',
  },
  {
    change: 'unlisted fields as open as before',
    when: (c) => isCloser(c) && openness(c.before) === openness(c.after),
    level: 'library',
    why: "neither side accepts less; the library's class stands",
    source: 'D-47',
  },
  {
    change: 'fewer unlisted fields allowed',
    when: (c) => isCloser(c) && openness(c.after) < openness(c.before),
    level: NARROWER,
    kind: 'closed',
    text: (c) => `${c.keyword}: fewer unlisted fields allowed`,
    why: 'an object that refuses more unlisted fields',
    source: 'D-45 (an object that refuses more unlisted fields)',
  },
  {
    change: 'more unlisted fields allowed',
    when: isCloser,
    level: WIDER,
    kind: 'opened',
    text: (c) => `${c.keyword}: more unlisted fields allowed`,
    why: 'an object opened',
    source: 'D-45 (an object opened)',
  },
];

/** @type {SchemaRule[]} */
export const VARIANT_RULES = [
  {
    change: 'a variant (oneOf, anyOf) added',
    when: (c) => isVariant(c) && added(c),
    level: 'notable',
    kind: 'variant-added',
    text: (c) =>
      merchantSends(c)
        ? `new accepted variant${variantName(c)}`
        : `new variant${variantName(c)}: merchants who switch on it must handle it`,
    why: 'the service accepts more; in an answer, new variants are how an interface grows',
    source: 'D-45 (a new variant of an answer is notable)',
  },
  {
    change: 'a variant (oneOf, anyOf) removed',
    when: (c) => isVariant(c) && removed(c),
    level: 'breaking',
    kind: 'variant-removed',
    text: (c) =>
      merchantSends(c) ? `variant${variantName(c)} no longer accepted` : `variant${variantName(c)} no longer sent`,
    why: 'requests of that shape are refused; merchants who switch on it never see it again',
    source: 'D-45 (a variant removed)',
  },
  {
    change: 'a part of the schema (allOf) added',
    when: (c) => isPart(c) && added(c),
    level: NARROWER,
    kind: 'part-added',
    text: () => 'a part of the schema (allOf) added',
    why: 'every part must hold: fewer payloads are valid',
    source: 'D-45 (a stricter rule)',
  },
  {
    change: 'a part of the schema (allOf) removed',
    when: (c) => isPart(c) && removed(c),
    level: 'breaking',
    kind: 'part-removed',
    text: () => 'a part of the schema (allOf) removed',
    why: 'the rules cannot tell what the part held',
    source: 'D-45 (what the rules cannot read is breaking)',
  },
];

/** @type {SchemaRule[]} */
export const CONDITION_RULES = [
  {
    change: 'fields that require others (dependentRequired) added',
    when: (c) => isDependentRequired(c) && added(c),
    level: NARROWER,
    kind: 'condition-changed',
    text: () => 'dependentRequired added',
    why: 'a stricter rule between fields',
    source: 'D-45 (a stricter rule between fields)',
  },
  {
    change: 'fields that require others (dependentRequired) removed',
    when: (c) => isDependentRequired(c) && removed(c),
    level: WIDER,
    kind: 'condition-changed',
    text: () => 'dependentRequired removed',
    why: 'a looser rule between fields',
    source: 'D-45 (accepting more is notable)',
  },
  {
    change: 'fields that require others (dependentRequired) changed',
    when: isDependentRequired,
    level: 'breaking',
    kind: 'condition-changed',
    text: () => 'dependentRequired changed',
    why: 'the rules cannot tell which side accepts less',
    source: 'D-45 (what the rules cannot read is breaking)',
  },
  {
    change: 'a rule between fields (if, then, else, dependentSchemas)',
    when: (c) => BETWEEN_FIELDS.has(c.keyword),
    level: 'breaking',
    kind: 'condition-changed',
    text: (c) => `a rule between fields changed (${c.keyword}); read as breaking`,
    why: 'the rules do not compare conditionals',
    source: 'D-45 (a keyword the rules do not read)',
  },
  {
    change: 'a keyword the rules do not read (not, propertyNames, contains, ...)',
    when: (c) => UNREAD.has(c.keyword),
    level: 'breaking',
    kind: 'rule-changed',
    text: (c) => `${c.keyword} changed; read as breaking`,
    why: 'nothing passes unread',
    source: 'D-45 (a keyword the rules do not read)',
  },
];

/** @type {SchemaRule[]} */
export const DEFAULT_RULES = [
  {
    change: 'a default of what the merchant receives',
    when: (c) => c.keyword === 'default' && !merchantSends(c),
    level: 'patch',
    kind: 'annotation',
    text: () => 'default changed',
    why: 'an answer holds its values: a default there only documents',
    source: 'D-45',
  },
  {
    change: 'a default added to what the merchant sends',
    when: (c) => c.keyword === 'default' && added(c),
    level: 'notable',
    kind: 'default-changed',
    text: () => 'default added',
    why: 'a field left out now has a value',
    source: 'D-45 (accepting more is notable)',
  },
  {
    change: 'a default removed or changed in what the merchant sends',
    when: (c) => c.keyword === 'default',
    level: 'breaking',
    kind: 'default-changed',
    text: (c) => (removed(c) ? 'default removed' : 'default changed'),
    why: 'a request that leaves the field out means something else',
    source: 'D-45 (a default removed)',
  },
];
