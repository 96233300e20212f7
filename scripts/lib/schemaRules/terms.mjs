// The words the schema rules are written in: the levels, who sends a payload, what a rule reads of
// a change, the classes by direction (D-45) and the small tests the rules' `when` combine.

/** @typedef {'breaking' | 'notable' | 'patch'} Level */
/** The levels, the most severe first. */
export const LEVELS = /** @type {const} */ (['breaking', 'notable', 'patch']);
/** @typedef {'merchant' | 'service'} Sender */
/** @typedef {'add' | 'remove' | 'replace' | 'rename'} Action */
/** @typedef {{ level: Level, kind: string, text: string }} Verdict */

/**
 * One change of one schema keyword, as the rules read it.
 * @typedef {object} SchemaChange
 * @property {Sender} sender who sends the payload
 * @property {string} keyword the keyword that changed (`properties` for a field itself)
 * @property {Action} action
 * @property {unknown} before the old value (of the keyword, the list item or the field)
 * @property {unknown} after
 * @property {boolean} item the change is one item of the keyword (an enum value, a required name, a variant, a field)
 * @property {boolean} nested the change is inside the keyword's subschema (additionalProperties/type, ...)
 * @property {boolean} [wasClosed] the object refused unlisted fields before the change
 * @property {boolean} [required] a field added is required
 * @property {boolean} [secret] the field holds a secret: values are not shown
 * @property {string} [variant] the title of a variant added or removed
 */

/** A level by who sends the payload. @typedef {{ merchant: Level, service: Level }} BySender */

/**
 * One rule of the table: which change it reads (`change` in words, `when` in code), its class (one
 * level, or one per sender; `library` leaves api-smart-diff's own classification standing, D-47),
 * the kind and words of the report, why, and the decision that says so (`source`: the description
 * says nothing of compatibility, D-45).
 * @typedef {{ change: string, when: (c: SchemaChange) => boolean, why: string, source: string } & (
 *   { level: 'library' } |
 *   { level: Level | BySender, kind: string | ((c: SchemaChange) => string), text: (c: SchemaChange) => string }
 * )} SchemaRule
 */

/** Fewer payloads valid: breaking in what the merchant sends (the service accepts less), notable in what they receive. @type {BySender} */
export const NARROWER = { merchant: 'breaking', service: 'notable' };
/** More payloads valid: notable in what the merchant sends, breaking in what they receive (a validator of the released contract refuses some). @type {BySender} */
export const WIDER = { merchant: 'notable', service: 'breaking' };

export const ANNOTATION_KEYWORDS = new Set([
  'title',
  'description',
  'examples',
  'example',
  '$comment',
  'externalDocs',
  'xml',
  'summary',
]);

/** A value for a message: JSON, cut to 60 characters. @param {unknown} value */
export function shown(value) {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A value of the payload for the report: hidden when the field holds a secret. @param {SchemaChange} c @param {unknown} value */
export function payloadValue(c, value) {
  return c.secret ? 'a value' : shown(value);
}

/** @param {SchemaChange} c */
export const merchantSends = (c) => c.sender === 'merchant';
/** @param {SchemaChange} c */
export const added = (c) => c.action === 'add';
/** @param {SchemaChange} c */
export const removed = (c) => c.action === 'remove';
/** The change is one item of `keyword` (an enum value, a required name, a variant, a field). @param {string} keyword */
export const itemOf = (keyword) => (/** @type {SchemaChange} */ c) => c.keyword === keyword && c.item;
/** The value of one of `keywords` changed, not something inside its subschema. @param {ReadonlySet<string>} keywords */
export const ownValueOf = (keywords) => (/** @type {SchemaChange} */ c) => keywords.has(c.keyword) && !c.nested;
/** @param {SchemaChange} c */
export const keywordChanged = (c) => `${c.keyword} changed`;
