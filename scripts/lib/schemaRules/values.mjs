// The rules for the values a field may hold: lists of values (`enum`) and fixed values (`const`).

import { added, itemOf, merchantSends, payloadValue, removed } from './terms.mjs';

/** @typedef {import('./terms.mjs').SchemaRule} SchemaRule */
/** @typedef {import('./terms.mjs').SchemaChange} SchemaChange */

/** The whole list of values added or removed (the field becomes an enum, or stops being one). @param {SchemaChange} c */
const wholeList = (c) => c.keyword === 'enum' && !c.item && c.action !== 'replace';
const isValue = itemOf('enum');

/** @type {SchemaRule[]} */
export const ENUM_RULES = [
  {
    change: 'a list of values where there was none, in what the merchant sends',
    when: (c) => wholeList(c) && added(c) && merchantSends(c),
    level: 'breaking',
    kind: 'became-enum',
    text: (c) => `now limited to ${payloadValue(c, c.after)}`,
    why: 'values outside the list are refused, as with a const',
    source: "D-45 (a field that gets a list of values); oasdiff's request-property-became-enum",
  },
  {
    change: 'a list of values where there was none, in what the merchant receives',
    when: (c) => wholeList(c) && added(c),
    level: 'notable',
    kind: 'became-enum',
    text: (c) => `now one of ${payloadValue(c, c.after)}`,
    why: 'answers hold one of the list',
    source: "D-45 (a field that gets a list of values); oasdiff's response-property-became-enum",
  },
  {
    change: 'the list of values removed, in what the merchant sends',
    when: (c) => wholeList(c) && merchantSends(c),
    level: 'notable',
    kind: 'enum-removed',
    text: (c) => `no longer limited to ${payloadValue(c, c.before)}`,
    why: 'the service accepts more',
    source: 'D-45 (the list removed altogether is the reverse)',
  },
  {
    change: 'the list of values removed, in what the merchant receives',
    when: wholeList,
    level: 'breaking',
    kind: 'enum-removed',
    text: (c) =>
      `no longer limited to ${payloadValue(c, c.before)}: answers may hold what a validator of the released contract refuses`,
    why: 'a validator of the released contract refuses the other values',
    source: 'D-45 (the list removed altogether is the reverse)',
  },
  {
    change: 'a value added to a list',
    when: (c) => isValue(c) && added(c),
    level: 'notable',
    kind: 'value-added',
    text: (c) =>
      merchantSends(c)
        ? `new accepted value ${payloadValue(c, c.after)}`
        : `new value ${payloadValue(c, c.after)}: merchants who switch on it must handle it`,
    why: 'the service accepts more; in an answer, new values are how an interface grows',
    source: 'D-45 (a new enumerated value of an answer is notable)',
  },
  {
    change: 'a value removed from a list',
    when: (c) => isValue(c) && removed(c),
    level: 'breaking',
    kind: 'value-removed',
    text: (c) =>
      merchantSends(c)
        ? `value ${payloadValue(c, c.before)} no longer accepted`
        : `value ${payloadValue(c, c.before)} no longer sent`,
    why: 'requests that send it are refused; merchants who switch on it never see it again',
    source: 'D-45 (an enumerated value removed)',
  },
  {
    change: 'a value of a list replaced',
    when: isValue,
    level: 'breaking',
    kind: 'value-changed',
    text: (c) => `value ${payloadValue(c, c.before)} replaced by ${payloadValue(c, c.after)}`,
    why: 'a value removed, another added',
    source: 'D-45 (an enumerated value removed or changed)',
  },
  {
    change: 'a list of values replaced',
    when: (c) => c.keyword === 'enum',
    level: 'breaking',
    kind: 'value-changed',
    text: () => 'the list of values changed',
    why: 'the rules cannot tell which side accepts less',
    source: 'D-45 (what the rules cannot read is breaking)',
  },
];

/** @type {SchemaRule[]} */
export const CONST_RULES = [
  {
    change: 'a fixed value added',
    when: (c) => c.keyword === 'const' && added(c),
    level: 'breaking',
    kind: 'value-removed',
    text: (c) => `now fixed to ${payloadValue(c, c.after)}`,
    why: 'every other value is refused',
    source: 'D-45 (a fixed value changed)',
  },
  {
    change: 'a fixed value removed',
    when: (c) => c.keyword === 'const' && removed(c),
    level: 'notable',
    kind: 'value-added',
    text: (c) => `no longer fixed to ${payloadValue(c, c.before)}`,
    why: 'other values are valid too',
    source: 'D-45 (a new value is notable)',
  },
  {
    change: 'a fixed value replaced',
    when: (c) => c.keyword === 'const',
    level: 'breaking',
    kind: 'value-changed',
    text: (c) => `fixed value ${payloadValue(c, c.before)} replaced by ${payloadValue(c, c.after)}`,
    why: 'the old value is refused',
    source: 'D-45 (a fixed value changed)',
  },
];
