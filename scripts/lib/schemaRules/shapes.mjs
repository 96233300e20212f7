// The rules for the shape of a value: its type, pattern, format, and bounds (lengths, ranges, counts).

import { added, itemOf, merchantSends, NARROWER, ownValueOf, payloadValue, removed, shown, WIDER } from './terms.mjs';

/** @typedef {import('./terms.mjs').SchemaRule} SchemaRule */
/** @typedef {import('./terms.mjs').SchemaChange} SchemaChange */

const UPPER_BOUNDS = new Set(['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties', 'maxContains']);
const LOWER_BOUNDS = new Set(['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties', 'minContains']);
const BOUNDS = new Set([...UPPER_BOUNDS, ...LOWER_BOUNDS]);
const VALUE_SHAPES = new Set(['pattern', 'format', 'contentEncoding', 'contentMediaType']);

/**
 * Whether every string matches a pattern: the empty pattern, or one that matches the empty string
 * and holds no anchor, boundary or lookaround (a pattern is searched for anywhere in the string,
 * so such a one matches at its start). Patterns this cannot tell are taken as constraints.
 * @param {unknown} pattern
 */
export function acceptsEveryString(pattern) {
  if (pattern === '') return true;
  if (typeof pattern !== 'string' || /[$^]|\\[bB]|\(\?<?[=!]/.test(pattern)) return false;
  try {
    return new RegExp(pattern, 'u').test('');
  } catch {
    return false;
  }
}

/** No pattern, or one every string matches. @param {unknown} pattern */
const noConstraint = (pattern) => pattern === undefined || acceptsEveryString(pattern);
const isPattern = ownValueOf(new Set(['pattern']));
/** A pattern changed where one side accepts every string. @param {SchemaChange} c */
const patternAcceptingAll = (c) => isPattern(c) && (acceptsEveryString(c.before) || acceptsEveryString(c.after));

/** @param {unknown} value @returns {string[]} */
function typesOf(value) {
  if (Array.isArray(value)) return value.map(String);
  return value === undefined ? ['any'] : [String(value)];
}

/** Whether `from` allows a type `to` does not: `integer` is a part of `number`; no type at all (`any`) is every type. @param {unknown} from @param {unknown} to */
function allowsMoreTypes(from, to) {
  const within = typesOf(to);
  return typesOf(from).some(
    (t) => !(within.includes(t) || within.includes('any') || (t === 'integer' && within.includes('number'))),
  );
}

/** A bound added or tightened (`narrower`), removed or loosened (`wider`), or not two numbers (`other`). @param {SchemaChange} c */
function boundMove(c) {
  if (added(c)) return 'narrower';
  if (removed(c)) return 'wider';
  if (typeof c.before !== 'number' || typeof c.after !== 'number') return 'other';
  const tighter = UPPER_BOUNDS.has(c.keyword) ? c.after < c.before : c.after > c.before;
  return tighter ? 'narrower' : 'wider';
}

/** @param {SchemaChange} c */
const typeText = (c) => `type ${shown(c.before ?? 'any')} -> ${shown(c.after ?? 'any')}`;
/** @param {SchemaChange} c */
const boundText = (c) =>
  `${c.keyword} ${c.before === undefined ? 'none' : shown(c.before)} -> ${c.after === undefined ? 'none' : shown(c.after)}`;
/** @param {SchemaChange} c */
const shapeKind = (c) => `${c.keyword}-changed`;
/** `keyword value added`, `keyword value removed` or `keyword old -> new`. @param {SchemaChange} c */
function shapeText(c) {
  if (added(c)) return `${c.keyword} ${payloadValue(c, c.after)} added`;
  if (removed(c)) return `${c.keyword} ${payloadValue(c, c.before)} removed`;
  return `${c.keyword} ${payloadValue(c, c.before)} -> ${payloadValue(c, c.after)}`;
}
/** @param {SchemaChange} c */
function everyStringText(c) {
  if (added(c)) return `pattern ${payloadValue(c, c.after)} added: it accepts every string`;
  if (removed(c)) return `pattern ${payloadValue(c, c.before)} removed: it accepted every string`;
  return `pattern ${payloadValue(c, c.before)} -> ${payloadValue(c, c.after)}: both accept every string`;
}

const isType = itemOf('type');
const isBound = ownValueOf(BOUNDS);
const isValueShape = ownValueOf(VALUE_SHAPES);

/** @type {SchemaRule[]} */
export const TYPE_RULES = [
  {
    change: 'a type added to a list of types',
    when: (c) => isType(c) && added(c),
    level: WIDER,
    kind: 'type-widened',
    text: (c) => (merchantSends(c) ? `also accepts ${shown(c.after)}` : `may also be ${shown(c.after)}`),
    why: 'a wider type',
    source: 'D-45 (a wider type)',
  },
  {
    change: 'a type removed from a list of types',
    when: (c) => isType(c) && removed(c),
    level: NARROWER,
    kind: 'type-narrowed',
    text: (c) => (merchantSends(c) ? `no longer accepts ${shown(c.before)}` : `no longer ${shown(c.before)}`),
    why: 'a narrower type',
    source: 'D-45 (a narrower type)',
  },
  {
    change: 'a type that leaves out one it allowed, in what the merchant sends',
    when: (c) => c.keyword === 'type' && merchantSends(c) && allowsMoreTypes(c.before, c.after),
    level: 'breaking',
    kind: 'type-changed',
    text: typeText,
    why: 'the service accepts less',
    source: 'D-45 (a narrower type)',
  },
  {
    change: 'a type that allows one it did not, in what the merchant receives',
    when: (c) => c.keyword === 'type' && !merchantSends(c) && allowsMoreTypes(c.after, c.before),
    level: 'breaking',
    kind: 'type-changed',
    text: typeText,
    why: 'a validator of the released contract refuses the new type',
    source: 'D-45 (a wider type)',
  },
  {
    change: 'a type changed the other way: wider in what the merchant sends, narrower in what they receive',
    when: (c) => c.keyword === 'type',
    level: 'notable',
    kind: 'type-changed',
    text: typeText,
    why: 'the service accepts more, or answers less',
    source: 'D-45 (accepting more is notable)',
  },
];

/** @type {SchemaRule[]} */
export const PATTERN_RULES = [
  {
    change: 'a pattern that accepts every string, where there was none or one that did too',
    when: (c) => patternAcceptingAll(c) && noConstraint(c.before) && noConstraint(c.after),
    level: 'patch',
    kind: 'pattern-changed',
    text: everyStringText,
    why: 'a pattern every string matches is no constraint',
    source: 'D-45 (a pattern every string matches)',
  },
  {
    change: 'a pattern that accepts every string, in place of a constraint',
    when: (c) => patternAcceptingAll(c) && noConstraint(c.after),
    level: WIDER,
    kind: 'pattern-changed',
    text: (c) => `pattern ${payloadValue(c, c.before)} removed (an empty pattern accepts every string)`,
    why: 'the constraint is removed',
    source: 'D-45 (a pattern every string matches)',
  },
  {
    change: 'a pattern in place of one that accepted every string',
    when: patternAcceptingAll,
    level: NARROWER,
    kind: 'pattern-changed',
    text: (c) => `pattern ${payloadValue(c, c.after)} added (in place of a pattern that accepted every string)`,
    why: 'a constraint is added',
    source: 'D-45 (a pattern every string matches)',
  },
  {
    change: 'a pattern, format or content encoding replaced',
    when: (c) => isValueShape(c) && c.action === 'replace',
    level: 'breaking',
    kind: shapeKind,
    text: shapeText,
    why: 'the rules cannot tell which of the two accepts less',
    source: 'D-45 (what the rules cannot read is breaking)',
  },
  {
    change: 'a pattern, format or content encoding added',
    when: (c) => isValueShape(c) && added(c),
    level: NARROWER,
    kind: shapeKind,
    text: shapeText,
    why: 'fewer strings are valid',
    source: 'D-45 (a narrower pattern or format)',
  },
  {
    change: 'a pattern, format or content encoding removed',
    when: isValueShape,
    level: WIDER,
    kind: shapeKind,
    text: shapeText,
    why: 'more strings are valid',
    source: 'D-45 (a wider pattern or format)',
  },
];

/** @type {SchemaRule[]} */
export const BOUND_RULES = [
  {
    change: 'a bound (length, range, count) added or tightened',
    when: (c) => isBound(c) && boundMove(c) === 'narrower',
    level: NARROWER,
    kind: 'constraint-narrowed',
    text: boundText,
    why: 'fewer values are valid',
    source: 'D-45 (a narrower length or range)',
  },
  {
    change: 'a bound (length, range, count) removed or loosened',
    when: (c) => isBound(c) && boundMove(c) === 'wider',
    level: WIDER,
    kind: 'constraint-widened',
    text: boundText,
    why: 'more values are valid',
    source: 'D-45 (a wider length or range)',
  },
  {
    change: 'a bound replaced by what is not a number',
    when: isBound,
    level: 'breaking',
    kind: 'constraint-changed',
    text: boundText,
    why: 'the rules cannot compare it',
    source: 'D-45 (what the rules cannot read is breaking)',
  },
];
