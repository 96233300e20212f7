// Turns AJV errors into issues a merchant can act on: a JSON Pointer to the field, the rule broken
// and a sentence. No issue ever carries the value that failed: only field names from the
// contract, schema facts (lengths, allowed values) and rule titles.
import { conditionTitle, locateRule, schemaAt } from './schemaLocation.js';
import { pointerSegment } from '../json/pointer.js';

/**
 * @typedef {object} ValidationIssue
 * @property {'body' | 'query' | 'path'} in where the field is: the JSON payload, the query string or the path
 * @property {string} pointer JSON Pointer (RFC 6901) to the field, relative to `in`
 * @property {string} rule the rule broken: a JSON Schema keyword (`required`, `pattern`, ...) or the name of a named check
 * @property {string} message what is wrong, in words
 * @property {string} [schemaPath] where the rule lives in the bundled contract
 * @property {string} [condition] the title of the conditional rule, when the rule is conditional
 * @property {string} [resultCode] the operation's own result code the service answers for this failure, when the description gives one
 */

/** At most this many issues are described; a payload with more gets one closing issue that counts them. */
export const MAX_ISSUES = 100;

function fieldName(/** @type {string} */ pointer) {
  if (pointer === '') return 'The payload';
  const last = pointer.slice(pointer.lastIndexOf('/') + 1).replace(/~1/g, '/').replace(/~0/g, '~');
  return /^\d+$/.test(last) ? `Item ${last} of ${fieldName(pointer.slice(0, pointer.lastIndexOf('/')))}` : `"${last}"`;
}

const TYPE_WORDS = /** @type {Record<string, string>} */ ({ string: 'a string', object: 'a JSON object', array: 'an array', integer: 'an integer', number: 'a number', boolean: 'true or false', null: 'null' });

/** @param {any} holder the schema that holds the keyword */
function expectation(holder) {
  const text = typeof holder?.description === 'string' ? holder.description.split('\n')[0].trim() : '';
  return text ? ` Expected: ${text}` : '';
}

/**
 * @param {{ instancePath: string, schemaPath: string, keyword: string, params: any }} error
 * @param {any} doc the bundled contract, or undefined when not available
 * @param {string} rootRef
 * @returns {ValidationIssue | null}
 */
function toIssue(error, doc, rootRef) {
  const { keyword, params } = error;
  if (keyword === 'if') return null; // the failing `then` keyword is reported on its own
  let pointer = error.instancePath;
  if (keyword === 'required' || keyword === 'dependentRequired') pointer += `/${pointerSegment(params.missingProperty)}`;
  if (keyword === 'additionalProperties') pointer += `/${pointerSegment(params.additionalProperty)}`;
  if (keyword === 'unevaluatedProperties') pointer += `/${pointerSegment(params.unevaluatedProperty)}`;
  if (keyword === 'discriminator') pointer += `/${pointerSegment(params.tag)}`;
  const schemaPath = doc ? locateRule(doc, rootRef, error) : error.schemaPath;
  const condition = doc ? conditionTitle(doc, schemaPath) : undefined;
  const holder = doc ? schemaAt(doc, schemaPath) : undefined;
  const field = fieldName(pointer);
  const within = condition ? ` (rule: ${condition})` : '';
  let message;
  switch (keyword) {
    case 'required':
      message = `${field} is missing: it is mandatory here${within}.`;
      break;
    case 'additionalProperties':
    case 'unevaluatedProperties':
      message = `${field} is not a field of this object: only the documented fields are accepted.`;
      break;
    case 'false schema':
      message = `${field} must not be sent here${within}.`;
      break;
    case 'type':
      message = `${field} must be ${[].concat(params.type).map((t) => TYPE_WORDS[t] ?? t).join(' or ')}.`;
      break;
    case 'enum':
      message = `${field} must be one of: ${params.allowedValues.map((/** @type {unknown} */ v) => JSON.stringify(v)).join(', ')}${within}.`;
      break;
    case 'const':
      message = `${field} must be ${JSON.stringify(params.allowedValue)}${within}.`;
      break;
    case 'pattern':
      message = `${field} has the wrong format${within}.${expectation(holder)}`;
      break;
    case 'format':
      message = `${field} must be a valid ${params.format}.`;
      break;
    case 'minLength':
      message = params.limit === 1 ? `${field} must not be empty.` : `${field} must be at least ${params.limit} characters long.`;
      break;
    case 'maxLength':
      message = `${field} must be at most ${params.limit} characters long.`;
      break;
    case 'minItems':
    case 'maxItems':
      message = `${field} must have ${keyword === 'minItems' ? 'at least' : 'at most'} ${params.limit} items.`;
      break;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      message = `${field} must be ${params.comparison} ${params.limit}.`;
      break;
    case 'propertyNames':
      message = `${field} has a key that is not allowed.${expectation(holder)}`;
      break;
    case 'discriminator':
      message = params.error === 'tag' ? `${field} is missing or not a string: it selects the variant of this object.` : `${field} has a value that selects no variant of this object.`;
      break;
    case 'oneOf':
    case 'anyOf': {
      const branches = Array.isArray(holder?.[keyword]) ? holder[keyword].map((/** @type {any} */ b) => b?.title).filter(Boolean) : [];
      message = `${field} matches ${keyword === 'oneOf' && params.passingSchemas ? 'more than one' : 'none'} of the allowed forms${branches.length ? `: ${branches.join('; ')}` : ''}.`;
      break;
    }
    default:
      message = `${field} breaks the rule "${keyword}".`;
  }
  return { in: 'body', pointer, rule: keyword, message, schemaPath, ...(condition ? { condition } : {}) };
}

/**
 * @param {ReadonlyArray<{ instancePath: string, schemaPath: string, keyword: string, params: any }>} errors
 * @param {any} doc the bundled contract (for rule locations and titles)
 * @param {string} rootRef the schema the payload was validated against
 * @returns {ValidationIssue[]}
 */
export function issuesFromAjv(errors, doc, rootRef) {
  /** @type {Map<string, ValidationIssue>} */
  const unique = new Map();
  let rest = 0;
  for (const error of errors) {
    if (unique.size >= MAX_ISSUES) {
      if (error.keyword !== 'if') rest++;
      continue;
    }
    const issue = toIssue(error, doc, rootRef);
    if (!issue) continue;
    const key = `${issue.pointer}\u0000${issue.rule}`;
    if (!unique.has(key)) unique.set(key, issue);
  }
  const list = [...unique.values()];
  if (rest > 0) list.push({ in: 'body', pointer: '', rule: 'moreProblems', message: `${rest} more problem(s) not listed: fix the ones above first.` });
  // An unknown tag value is reported by `enum` on the tag itself; the discriminator adds nothing.
  return list.filter((i) => !(i.rule === 'discriminator' && list.some((o) => o !== i && o.pointer === i.pointer)));
}
