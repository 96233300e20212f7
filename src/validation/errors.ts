// Turns AJV errors into issues a merchant can act on: a JSON Pointer to the field, the rule broken
// and a sentence. No issue ever carries the value that failed: only field names from the
// contract, schema facts (lengths, allowed values) and rule titles.
import type { CompiledValidatorError } from '../../generated/validators.js';
import { pointerSegment } from '../json/pointer.js';
import { conditionTitle, locateRule, schemaAt } from './schemaLocation.js';

/** One problem of a payload. Never carries the value that failed. */
export interface ValidationIssue {
  /** Where the field is: the JSON payload, the query string or the path. */
  in: 'body' | 'query' | 'path';
  /** JSON Pointer (RFC 6901) to the field, relative to `in`. For a missing field, the field itself. */
  pointer: string;
  /** The rule broken: a JSON Schema keyword (`required`, `pattern`, ...) or a named check (`queryMatchesBody`, ...). */
  rule: string;
  /** What is wrong, in words. */
  message: string;
  /** Where the rule lives in the bundled contract (generated/openapi.json). */
  schemaPath?: string;
  /** The title of the conditional rule, when the rule is conditional. */
  condition?: string;
  /** The operation's own result code the service answers for this failure, when the description gives one. */
  resultCode?: string;
}

/** At most this many issues are described; a payload with more gets one closing issue that counts them. */
export const MAX_ISSUES = 100;

function fieldName(pointer: string): string {
  if (pointer === '') return 'The payload';
  const last = pointer
    .slice(pointer.lastIndexOf('/') + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
  return /^\d+$/.test(last) ? `Item ${last} of ${fieldName(pointer.slice(0, pointer.lastIndexOf('/')))}` : `"${last}"`;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  object: 'a JSON object',
  array: 'an array',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
};

/** The first line of the description of the schema that holds the keyword. */
function expectation(holder: unknown): string {
  const description = (holder as { description?: unknown } | undefined)?.description;
  const text = typeof description === 'string' ? (description.split('\n')[0] ?? '').trim() : '';
  return text ? ` Expected: ${text}` : '';
}

/** AJV's `params` of an error, by keyword (only what the messages read). */
interface ErrorParams {
  missingProperty?: string;
  additionalProperty?: string;
  unevaluatedProperty?: string;
  tag?: string;
  type?: string | string[];
  allowedValues?: unknown[];
  allowedValue?: unknown;
  format?: string;
  limit?: number;
  comparison?: string;
  error?: string;
  passingSchemas?: unknown;
}

function toIssue(error: CompiledValidatorError, doc: unknown, rootRef: string): ValidationIssue | null {
  const { keyword } = error;
  const params = error.params as ErrorParams;
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
  let message: string;
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
      message = `${field} must be ${([] as string[])
        .concat(params.type ?? [])
        .map((t) => TYPE_WORDS[t] ?? t)
        .join(' or ')}.`;
      break;
    case 'enum':
      message = `${field} must be one of: ${(params.allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}${within}.`;
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
      message =
        params.error === 'tag'
          ? `${field} is missing or not a string: it selects the variant of this object.`
          : `${field} has a value that selects no variant of this object.`;
      break;
    case 'oneOf':
    case 'anyOf': {
      const list = (holder as Record<string, unknown> | undefined)?.[keyword];
      const branches = Array.isArray(list)
        ? list.map((b: { title?: unknown } | null) => b?.title).filter((t): t is string => typeof t === 'string' && t !== '')
        : [];
      message = `${field} matches ${keyword === 'oneOf' && params.passingSchemas ? 'more than one' : 'none'} of the allowed forms${branches.length ? `: ${branches.join('; ')}` : ''}.`;
      break;
    }
    default:
      message = `${field} breaks the rule "${keyword}".`;
  }
  return { in: 'body', pointer, rule: keyword, message, schemaPath, ...(condition ? { condition } : {}) };
}

/**
 * The issues of AJV's errors, one per field and rule, at most MAX_ISSUES of them.
 * `doc` is the bundled contract (for rule locations and titles); `rootRef` the schema the payload
 * was validated against.
 */
export function issuesFromAjv(errors: readonly CompiledValidatorError[], doc: unknown, rootRef: string): ValidationIssue[] {
  const unique = new Map<string, ValidationIssue>();
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
