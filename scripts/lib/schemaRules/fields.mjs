// The rules for annotations (what no validator reads) and for fields: `properties` and `required`.

import { ANNOTATION_KEYWORDS, added, itemOf, keywordChanged, merchantSends, shown } from './terms.mjs';

/** @typedef {import('./terms.mjs').SchemaRule} SchemaRule */

/** @type {SchemaRule[]} */
export const DOCUMENTATION_RULES = [
  {
    change: 'a vendor extension (x-*)',
    when: (c) => c.keyword.startsWith('x-'),
    level: 'patch',
    kind: 'extension',
    text: keywordChanged,
    why: 'no validator reads it',
    source: 'D-45 (extensions are documentation)',
  },
  {
    change: 'an annotation (title, description, examples, ...)',
    when: (c) => ANNOTATION_KEYWORDS.has(c.keyword),
    level: 'patch',
    kind: 'annotation',
    text: keywordChanged,
    why: 'no validator reads it',
    source: 'D-45 (descriptions, titles, examples)',
  },
  {
    change: 'deprecated set or cleared',
    when: (c) => c.keyword === 'deprecated',
    level: 'notable',
    kind: 'deprecated',
    text: (c) => (c.after === true ? 'deprecated' : 'no longer deprecated'),
    why: 'merchants are told to move off it before it goes',
    source: 'D-45, D-79 (a deprecated field is notable)',
  },
  {
    change: 'readOnly or writeOnly',
    when: (c) => c.keyword === 'readOnly' || c.keyword === 'writeOnly',
    level: 'patch',
    kind: 'annotation',
    text: keywordChanged,
    why: 'the validators do not read them',
    source: 'D-45',
  },
];

const isField = itemOf('properties');
const isRequiredName = itemOf('required');

/** @type {SchemaRule[]} */
export const FIELD_RULES = [
  {
    change: 'a field replaced or renamed',
    when: (c) => isField(c) && (c.action === 'replace' || c.action === 'rename'),
    level: 'library',
    why: "its keywords are compared one by one; the library's class of the whole stands",
    source: 'D-47',
  },
  {
    change: 'a required field added to what the merchant sends',
    when: (c) => isField(c) && merchantSends(c) && added(c) && c.required === true,
    level: 'breaking',
    kind: 'field-added',
    text: () => 'new required field',
    why: 'requests without it are refused',
    source: 'D-45 (a new required field)',
  },
  {
    change: 'an optional field added to what the merchant sends',
    when: (c) => isField(c) && merchantSends(c) && added(c),
    level: 'notable',
    kind: 'field-added',
    text: () => 'new optional field',
    why: 'the service accepts more',
    source: 'D-45 (accepting more is notable)',
  },
  {
    change: 'a field removed from what the merchant sends',
    when: (c) => isField(c) && merchantSends(c),
    level: 'breaking',
    kind: 'field-removed',
    text: () => 'field removed: the service stops accepting it',
    why: 'requests that send it are refused',
    source: 'D-45 (a field removed)',
  },
  {
    change: 'a field added to an object the merchant receives that refused unlisted fields',
    when: (c) => isField(c) && added(c) && c.wasClosed === true,
    level: 'breaking',
    kind: 'field-added',
    text: () => 'new field in an object that refused unlisted fields: a validator of the released contract refuses it',
    why: 'a validator of the released contract refuses the answer',
    source: "D-45 (a new field in an object that refused unlisted fields: the notification's head, D-22)",
  },
  {
    change: 'a field added to what the merchant receives',
    when: (c) => isField(c) && added(c),
    level: 'notable',
    kind: 'field-added',
    text: () => 'new field',
    why: 'answers are open: merchants skip what they do not know',
    source: 'D-45, D-22 (a new field of an answer is notable)',
  },
  {
    change: 'a field removed from what the merchant receives',
    when: isField,
    level: 'breaking',
    kind: 'field-removed',
    text: () => 'field removed: merchants who read it no longer get it',
    why: 'merchants who read it no longer get it, optional ones too',
    source: 'D-45 (a field removed)',
  },
  {
    change: 'the list of required fields replaced',
    when: (c) => isRequiredName(c) && c.action === 'replace',
    level: 'breaking',
    kind: 'required-changed',
    text: (c) => `required fields changed: ${shown(c.before)} -> ${shown(c.after)}`,
    why: 'the rules cannot tell which side accepts less',
    source: 'D-45 (what the rules cannot read is breaking)',
  },
  {
    change: 'a field made required in what the merchant sends',
    when: (c) => isRequiredName(c) && merchantSends(c) && added(c),
    level: 'breaking',
    kind: 'required-added',
    text: () => 'now required',
    why: 'requests without it are refused',
    source: 'D-45 (an optional field made required)',
  },
  {
    change: 'a field made optional in what the merchant sends',
    when: (c) => isRequiredName(c) && merchantSends(c),
    level: 'notable',
    kind: 'required-removed',
    text: () => 'now optional',
    why: 'the service accepts more',
    source: 'D-45 (accepting more is notable)',
  },
  {
    change: 'a field made always present in what the merchant receives',
    when: (c) => isRequiredName(c) && added(c),
    level: 'notable',
    kind: 'required-added',
    text: () => 'now always present',
    why: 'merchants get what they may have checked for',
    source: 'D-45',
  },
  {
    change: 'a field no longer always present in what the merchant receives',
    when: isRequiredName,
    level: 'breaking',
    kind: 'required-removed',
    text: () => 'no longer always present',
    why: 'merchants who rely on it may not get it',
    source: 'D-45 (a field no longer always present)',
  },
];
