// Direction rules for a change of one schema keyword (DECISIONS.md, D-45). What the merchant
// sends (requests, webhook replies) breaks them when the service accepts less; what the merchant
// receives (responses, notifications) breaks them when a field or value they rely on disappears,
// or when an answer may now hold what a validator of the released contract refuses. New values
// and variants of what they receive are notable (merchants switch on them), not breaking.
// api-smart-diff classifies most keywords the same way; where it does not (removed fields, answer
// values, replaced constants and patterns, closed objects, keywords it does not know), these rules
// decide. A keyword neither knows is treated as breaking, so that nothing passes unread.

/** @typedef {'breaking' | 'notable' | 'patch'} Level */
/** The levels, the most severe first. */
export const LEVELS = /** @type {const} */ (['breaking', 'notable', 'patch']);
/** @typedef {'merchant' | 'service'} Sender */
/** @typedef {'add' | 'remove' | 'replace' | 'rename'} Action */
/** @typedef {{ level: Level, kind: string, text: string }} Verdict */

export const ANNOTATION_KEYWORDS = new Set(['title', 'description', 'examples', 'example', '$comment', 'externalDocs', 'xml', 'summary']);
const UPPER_BOUNDS = new Set(['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties', 'maxContains']);
const LOWER_BOUNDS = new Set(['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties', 'minContains']);
const VALUE_SHAPES = new Set(['pattern', 'format', 'contentEncoding', 'contentMediaType']);
const CLOSERS = new Set(['additionalProperties', 'unevaluatedProperties', 'unevaluatedItems']);
const CONDITIONS = new Set(['if', 'not', 'dependentSchemas', 'propertyNames', 'contains', 'prefixItems', 'patternProperties', 'discriminator']);

/** A value for a message: JSON, cut to 60 characters. @param {unknown} value */
export function shown(value) {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

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

/** @param {unknown} value @returns {string[]} */
function typesOf(value) {
  if (Array.isArray(value)) return value.map(String);
  return value === undefined ? ['any'] : [String(value)];
}

/** Open (absent or true), restricted (a schema) or closed (false). @param {unknown} value */
function openness(value) {
  if (value === undefined || value === true) return 2;
  if (value === false) return 0;
  return 1;
}

/**
 * The verdict for one schema keyword change, or null when the library's own classification stands.
 * @param {object} change
 * @param {Sender} change.sender who sends the payload
 * @param {string} change.keyword the keyword that changed (`properties` for a field itself)
 * @param {Action} change.action
 * @param {unknown} change.before the old value (of the keyword, the list item or the field)
 * @param {unknown} change.after
 * @param {boolean} change.item the change is one item of the keyword (an enum value, a required name, a variant, a field)
 * @param {boolean} change.nested the change is inside the keyword's subschema (additionalProperties/type, ...)
 * @param {boolean} [change.wasClosed] the object refused unlisted fields before the change
 * @param {boolean} [change.required] a field added is required
 * @param {boolean} [change.secret] the field holds a secret: values are not shown
 * @param {string} [change.variant] the title of a variant added or removed
 * @returns {Verdict | null}
 */
export function classifySchemaChange(change) {
  const { sender, keyword, action, before, after, item, nested } = change;
  const merchantSends = sender === 'merchant';
  const value = (/** @type {unknown} */ v) => (change.secret ? 'a value' : shown(v));
  const added = action === 'add';
  const removed = action === 'remove';
  /** @type {(level: Level, kind: string, text: string) => Verdict} */
  const verdict = (level, kind, text) => ({ level, kind, text });

  if (keyword.startsWith('x-')) return verdict('patch', 'extension', `${keyword} changed`);
  if (ANNOTATION_KEYWORDS.has(keyword)) return verdict('patch', 'annotation', `${keyword} changed`);
  if (keyword === 'deprecated') return verdict('notable', 'deprecated', after === true ? 'deprecated' : 'no longer deprecated');
  if (keyword === 'readOnly' || keyword === 'writeOnly') return verdict('patch', 'annotation', `${keyword} changed`);

  if (keyword === 'properties' && item) {
    if (action === 'replace' || action === 'rename') return null;
    if (merchantSends) {
      if (added) return change.required ? verdict('breaking', 'field-added', 'new required field') : verdict('notable', 'field-added', 'new optional field');
      return verdict('breaking', 'field-removed', 'field removed: the service stops accepting it');
    }
    if (added) {
      return change.wasClosed
        ? verdict('breaking', 'field-added', 'new field in an object that refused unlisted fields: a validator of the released contract refuses it')
        : verdict('notable', 'field-added', 'new field');
    }
    return verdict('breaking', 'field-removed', 'field removed: merchants who read it no longer get it');
  }

  if (keyword === 'required' && item) {
    if (action === 'replace') return verdict('breaking', 'required-changed', `required fields changed: ${shown(before)} -> ${shown(after)}`);
    if (merchantSends) return added ? verdict('breaking', 'required-added', 'now required') : verdict('notable', 'required-removed', 'now optional');
    return added ? verdict('notable', 'required-added', 'now always present') : verdict('breaking', 'required-removed', 'no longer always present');
  }

  if (keyword === 'enum' && (item || action !== 'replace')) {
    if (!item) {
      // The whole list added or removed: the field becomes an enum, or stops being one. What the
      // merchant sends is then refused outside the list; what the merchant receives is one of it
      // (oasdiff: request-property-became-enum is breaking, response-property-became-enum is not).
      if (added)
        return merchantSends
          ? verdict('breaking', 'became-enum', `now limited to ${value(after)}`)
          : verdict('notable', 'became-enum', `now one of ${value(after)}`);
      return merchantSends
        ? verdict('notable', 'enum-removed', `no longer limited to ${value(before)}`)
        : verdict('breaking', 'enum-removed', `no longer limited to ${value(before)}: answers may hold what a validator of the released contract refuses`);
    }
    if (added)
      return verdict(
        'notable',
        'value-added',
        merchantSends ? `new accepted value ${value(after)}` : `new value ${value(after)}: merchants who switch on it must handle it`,
      );
    if (removed)
      return verdict('breaking', 'value-removed', merchantSends ? `value ${value(before)} no longer accepted` : `value ${value(before)} no longer sent`);
    return verdict('breaking', 'value-changed', `value ${value(before)} replaced by ${value(after)}`);
  }
  if (keyword === 'enum') return verdict('breaking', 'value-changed', 'the list of values changed');

  if (keyword === 'const') {
    if (added) return verdict('breaking', 'value-removed', `now fixed to ${value(after)}`);
    if (removed) return verdict('notable', 'value-added', `no longer fixed to ${value(before)}`);
    return verdict('breaking', 'value-changed', `fixed value ${value(before)} replaced by ${value(after)}`);
  }

  if (keyword === 'type') {
    if (item) {
      // One type of a list of types.
      if (added)
        return merchantSends
          ? verdict('notable', 'type-widened', `also accepts ${shown(after)}`)
          : verdict('breaking', 'type-widened', `may also be ${shown(after)}`);
      if (removed)
        return merchantSends
          ? verdict('breaking', 'type-narrowed', `no longer accepts ${shown(before)}`)
          : verdict('notable', 'type-narrowed', `no longer ${shown(before)}`);
    }
    const b = typesOf(before);
    const a = typesOf(after);
    // `integer` is a part of `number`; no type at all (`any`) is every type.
    const within = (/** @type {string} */ t, /** @type {string[]} */ list) =>
      list.includes(t) || list.includes('any') || (t === 'integer' && list.includes('number'));
    const widened = a.some((t) => !within(t, b));
    const narrowed = b.some((t) => !within(t, a));
    const text = `type ${shown(before ?? 'any')} -> ${shown(after ?? 'any')}`;
    if (merchantSends) return verdict(narrowed ? 'breaking' : 'notable', 'type-changed', text);
    return verdict(widened ? 'breaking' : 'notable', 'type-changed', text);
  }

  if (keyword === 'pattern' && !nested && (acceptsEveryString(before) || acceptsEveryString(after))) {
    // A pattern every string matches (the empty one) is no constraint: put in place of another it
    // removes that one, in place of none it changes nothing.
    const was = acceptsEveryString(before) ? undefined : before;
    const is = acceptsEveryString(after) ? undefined : after;
    if (was === undefined && is === undefined) {
      const text = added
        ? `pattern ${value(after)} added: it accepts every string`
        : removed
          ? `pattern ${value(before)} removed: it accepted every string`
          : `pattern ${value(before)} -> ${value(after)}: both accept every string`;
      return verdict('patch', 'pattern-changed', text);
    }
    if (is === undefined)
      return verdict(merchantSends ? 'notable' : 'breaking', 'pattern-changed', `pattern ${value(before)} removed (an empty pattern accepts every string)`);
    return verdict(
      merchantSends ? 'breaking' : 'notable',
      'pattern-changed',
      `pattern ${value(after)} added (in place of a pattern that accepted every string)`,
    );
  }

  if (VALUE_SHAPES.has(keyword) && !nested) {
    const text = added
      ? `${keyword} ${value(after)} added`
      : removed
        ? `${keyword} ${value(before)} removed`
        : `${keyword} ${value(before)} -> ${value(after)}`;
    if (action === 'replace') return verdict('breaking', `${keyword}-changed`, text);
    const narrower = added;
    return verdict(narrower === merchantSends ? 'breaking' : 'notable', `${keyword}-changed`, text);
  }

  if ((UPPER_BOUNDS.has(keyword) || LOWER_BOUNDS.has(keyword)) && !nested) {
    const upper = UPPER_BOUNDS.has(keyword);
    const text = `${keyword} ${before === undefined ? 'none' : shown(before)} -> ${after === undefined ? 'none' : shown(after)}`;
    let narrower;
    if (added) narrower = true;
    else if (removed) narrower = false;
    else if (typeof before === 'number' && typeof after === 'number') narrower = upper ? after < before : after > before;
    else return verdict('breaking', 'constraint-changed', text);
    return verdict(narrower === merchantSends ? 'breaking' : 'notable', narrower ? 'constraint-narrowed' : 'constraint-widened', text);
  }

  if (CLOSERS.has(keyword)) {
    if (nested) return verdict('breaking', 'closure-changed', `the schema of ${keyword} changed`);
    const b = openness(before);
    const a = openness(after);
    if (a === b) return null;
    const closes = a < b;
    const text = closes ? `${keyword}: fewer unlisted fields allowed` : `${keyword}: more unlisted fields allowed`;
    return verdict(closes === merchantSends ? 'breaking' : 'notable', closes ? 'closed' : 'opened', text);
  }

  if ((keyword === 'oneOf' || keyword === 'anyOf') && item) {
    const name = change.variant ? ` "${change.variant}"` : '';
    if (added)
      return verdict(
        'notable',
        'variant-added',
        merchantSends ? `new accepted variant${name}` : `new variant${name}: merchants who switch on it must handle it`,
      );
    if (removed) return verdict('breaking', 'variant-removed', merchantSends ? `variant${name} no longer accepted` : `variant${name} no longer sent`);
  }
  if (keyword === 'allOf' && item) {
    if (added) return verdict(merchantSends ? 'breaking' : 'notable', 'part-added', 'a part of the schema (allOf) added');
    if (removed) return verdict('breaking', 'part-removed', 'a part of the schema (allOf) removed');
  }

  if (keyword === 'dependentRequired' && !nested) {
    if (added || removed)
      return verdict(added === merchantSends ? 'breaking' : 'notable', 'condition-changed', `dependentRequired ${added ? 'added' : 'removed'}`);
    return verdict('breaking', 'condition-changed', 'dependentRequired changed');
  }
  if (keyword === 'if' || keyword === 'then' || keyword === 'else' || keyword === 'dependentSchemas') {
    return verdict('breaking', 'condition-changed', `a rule between fields changed (${keyword}); read as breaking`);
  }
  if (CONDITIONS.has(keyword)) return verdict('breaking', 'rule-changed', `${keyword} changed; read as breaking`);

  if (keyword === 'default') {
    if (!merchantSends) return verdict('patch', 'annotation', 'default changed');
    return added
      ? verdict('notable', 'default-changed', 'default added')
      : verdict('breaking', 'default-changed', removed ? 'default removed' : 'default changed');
  }
  return null;
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
