// Turns AJV errors into issues a merchant can act on: a JSON Pointer to the field, the rule broken
// and a sentence. No issue ever carries the value that failed: only field names from the
// contract, schema facts (lengths, allowed values) and rule titles.
import type { CompiledValidatorError } from '../../generated/validators.js';
import { HIDDEN_KEY, isFieldName, pointerSegment, type ShownPlace, shownPlace, TRUNCATED } from '../json/pointer.js';
import { conditionTitle, locateRule, schemaAt } from './schemaLocation.js';
import { closestField, type FieldWord, fieldWord } from './suggestion.js';

/** At most this many issues are described; a payload with more gets one closing issue that counts them. */
export const MAX_ISSUES = 100;

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

/** How a pointer ends when its last key is hidden, and when it was cut short. */
const HIDDEN_END = `/${HIDDEN_KEY}`;
const TRUNCATED_END = `/${TRUNCATED}`;

function fieldName(pointer: string): string {
  if (pointer === '') return 'The payload';
  const slash = pointer.lastIndexOf('/');
  const segment = pointer.slice(slash + 1);
  if (segment === HIDDEN_KEY)
    return 'The value under a key that is not a field of the contract (the key is not shown: it may hold data)';
  if (segment === TRUNCATED) return 'A value nested too deep to name';
  const last = segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment;
  return /^\d+$/.test(last) ? `Item ${last} of ${fieldName(pointer.slice(0, slash))}` : `"${last}"`;
}

/** The fields an object schema declares, through `$ref`, `allOf`, `anyOf` and `oneOf` (a few levels deep). */
function declaredFields(doc: unknown, schema: unknown, depth = 0): string[] {
  if (!schema || typeof schema !== 'object' || depth > 6) return [];
  const node = schema as Record<string, unknown>;
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
    const target = node.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((n, key) => (n && typeof n === 'object' ? (n as Record<string, unknown>)[key] : undefined), doc);
    return declaredFields(doc, target, depth + 1);
  }
  const own = node.properties && typeof node.properties === 'object' ? Object.keys(node.properties) : [];
  const parts = ['allOf', 'anyOf', 'oneOf'].flatMap((k) => (Array.isArray(node[k]) ? (node[k] as unknown[]) : []));
  return [...new Set([...own, ...parts.flatMap((p) => declaredFields(doc, p, depth + 1))])];
}

/** The declared fields of each schema that held an unknown key, found and folded once (the contract does not change). */
const fieldsOf = new WeakMap<object, FieldWord[]>();

function declaredFieldsOf(doc: unknown, holder: unknown): FieldWord[] {
  if (!holder || typeof holder !== 'object') return [];
  let fields = fieldsOf.get(holder);
  if (!fields) {
    fields = declaredFields(doc, holder).map(fieldWord);
    fieldsOf.set(holder, fields);
  }
  return fields;
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

/** The allowed values of each `enum` of the contract as a message lists them, written once. */
const allowedLists = new WeakMap<readonly unknown[], string>();

function allowedList(values: readonly unknown[]): string {
  let list = allowedLists.get(values);
  if (list === undefined) {
    list = values.map((v) => JSON.stringify(v)).join(', ');
    allowedLists.set(values, list);
  }
  return list;
}

/** The type or types a value must have, in words: `a string or null`. */
function typeWords(type: string | readonly string[]): string {
  if (typeof type === 'string') return TYPE_WORDS[type] ?? type;
  return type.map((t) => TYPE_WORDS[t] ?? t).join(' or ');
}

/** The first line of the description of the schema that holds the keyword. */
function expectation(holder: unknown): string {
  const description = (holder as { description?: unknown } | undefined)?.description;
  if (typeof description !== 'string') return '';
  const end = description.indexOf('\n');
  const text = (end === -1 ? description : description.slice(0, end)).trim();
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

/** The pointer of an error's field, from the shown pointer of the value that broke the rule (`at`). */
function issuePointer(error: CompiledValidatorError, at: string): string {
  const { keyword } = error;
  const params = error.params as ErrorParams;
  let pointer = at;
  if (keyword === 'required' || keyword === 'dependentRequired')
    pointer += `/${pointerSegment(params.missingProperty)}`;
  if (keyword === 'additionalProperties') pointer += `/${pointerSegment(params.additionalProperty)}`;
  if (keyword === 'unevaluatedProperties') pointer += `/${pointerSegment(params.unevaluatedProperty)}`;
  if (keyword === 'discriminator') pointer += `/${pointerSegment(params.tag)}`;
  return pointer;
}

/** Where a rule lives in the contract, its condition's title and the schema that holds it. */
interface RulePlace {
  schemaPath: string;
  condition: string | undefined;
  holder: unknown;
}

/**
 * The places of rules already found, per contract document, by the schema the payload was
 * validated against, the rule's relative path and the place in the payload. Finding one walks
 * the contract (tens of microseconds): a payload whose hundred items break the same rule, or a run
 * of payloads that break the same rules, finds each place once. The place in the payload is its
 * shape (`shownPlace`: the shown pointer with array indices as `#`): a rule's place depends on
 * which fields the path goes through (a key that is not a field name is under no `properties`, so
 * it is hidden and counts as any other such key) and on whether a step is an array item, never on
 * which item.
 */
interface KnownPlaces {
  /** By the schema the payload was validated against, then the rule's relative path, then the shape. */
  byRoot: Map<string, Map<string, Map<string, RulePlace>>>;
  size: number;
}
const places = new WeakMap<object, KnownPlaces>();
const MAX_PLACES = 4_096;

/** Where the rule of an error lives, found by walking the contract. */
function findPlace(error: CompiledValidatorError, doc: unknown, rootRef: string): RulePlace {
  const schemaPath = doc ? locateRule(doc, rootRef, error) : error.schemaPath;
  return {
    schemaPath,
    condition: doc ? conditionTitle(doc, schemaPath) : undefined,
    holder: doc ? schemaAt(doc, schemaPath) : undefined,
  };
}

/** The wording of one payload's errors: the contract, the schema validated against, the places known. */
interface Wording {
  doc: unknown;
  rootRef: string;
  /** The document's known places, and those under `rootRef` by the rule's relative path (none without a document). */
  known: KnownPlaces | undefined;
  byRule: Map<string, Map<string, RulePlace>> | undefined;
  /** The unknown keys left for which the likely field is looked for. */
  suggestions: number;
}

/** The wording of a payload's errors against `rootRef`, with the places already known under it (at most MAX_PLACES per document). */
function wordingOf(doc: unknown, rootRef: string): Wording {
  const wording: Wording = { doc, rootRef, known: undefined, byRule: undefined, suggestions: MAX_SUGGESTIONS };
  if (!doc || typeof doc !== 'object') return wording;
  let known = places.get(doc);
  if (!known || known.size >= MAX_PLACES) {
    known = { byRoot: new Map(), size: 0 };
    places.set(doc, known);
  }
  let byRule = known.byRoot.get(rootRef);
  if (!byRule) {
    byRule = new Map();
    known.byRoot.set(rootRef, byRule);
  }
  wording.known = known;
  wording.byRule = byRule;
  return wording;
}

function rulePlace(error: CompiledValidatorError, at: ShownPlace, wording: Wording): RulePlace {
  const { known, byRule, doc, rootRef } = wording;
  // A pointer cut short names no single place.
  if (!known || !byRule || at.pointer.endsWith(TRUNCATED_END)) return findPlace(error, doc, rootRef);
  let byShape = byRule.get(error.schemaPath);
  if (!byShape) {
    byShape = new Map();
    byRule.set(error.schemaPath, byShape);
  }
  let place = byShape.get(at.shape);
  if (!place) {
    place = findPlace(error, doc, rootRef);
    byShape.set(at.shape, place);
    known.size++;
  }
  return place;
}

/** The issue of an error: `at` is the shown place of the value that broke the rule, `pointer` the field's. */
function toIssue(
  error: CompiledValidatorError,
  at: ShownPlace,
  pointer: string,
  wording: Wording,
): ValidationIssue | null {
  const { keyword } = error;
  const params = error.params as ErrorParams;
  if (keyword === 'if') return null; // the failing `then` keyword is reported on its own
  const { schemaPath, condition, holder } = rulePlace(error, at, wording);
  const field = fieldName(pointer);
  const within = condition ? ` (rule: ${condition})` : '';
  let message: string;
  switch (keyword) {
    case 'required':
      message = `${field} is missing: it is mandatory here${within}.`;
      break;
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const sent = keyword === 'additionalProperties' ? params.additionalProperty : params.unevaluatedProperty;
      // The likely field is looked for for the first few unknown keys of a payload only: each
      // search compares the key with every field of its object.
      let closest: string | undefined;
      if (!isFieldName(sent) && wording.suggestions > 0) {
        wording.suggestions--;
        closest = closestField(sent, declaredFieldsOf(wording.doc, holder));
      }
      const what = pointer.endsWith(HIDDEN_END)
        ? 'A key that is not a field of the contract (not shown: it may hold data)'
        : field;
      message = `${what} is not a field of this object: only the documented fields are accepted.${closest ? ` Did you mean "${closest}"?` : ''}`;
      break;
    }
    case 'false schema':
      message = `${field} must not be sent here${within}.`;
      break;
    case 'type':
      message = `${field} must be ${typeWords(params.type ?? [])}.`;
      break;
    case 'enum':
      message = `${field} must be one of: ${allowedList(params.allowedValues ?? [])}${within}.`;
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
      message =
        params.limit === 1
          ? `${field} must not be empty.`
          : `${field} must be at least ${params.limit} characters long.`;
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
        ? list
            .map((b: { title?: unknown } | null) => b?.title)
            .filter((t): t is string => typeof t === 'string' && t !== '')
        : [];
      message = `${field} matches ${keyword === 'oneOf' && params.passingSchemas ? 'more than one' : 'none'} of the allowed forms${branches.length ? `: ${branches.join('; ')}` : ''}.`;
      break;
    }
    default:
      message = `${field} breaks the rule "${keyword}".`;
  }
  const issue: ValidationIssue = { in: 'body', pointer, rule: keyword, message, schemaPath };
  if (condition) issue.condition = condition;
  return issue;
}

/** The unknown keys of one payload for which the field they most likely meant is looked for. */
const MAX_SUGGESTIONS = 5;

/**
 * The issues of AJV's errors, one per field and rule, at most MAX_ISSUES of them.
 * `doc` is the bundled contract (for rule locations and titles); `rootRef` the schema the payload
 * was validated against; `payload` the payload (to tell array indices from keys along a path).
 */
export function issuesFromAjv(
  errors: readonly CompiledValidatorError[],
  doc: unknown,
  rootRef: string,
  payload: unknown,
  limit = MAX_ISSUES,
): ValidationIssue[] {
  const list: ValidationIssue[] = [];
  // The rules already described at each field's pointer.
  const described = new Map<string, string[]>();
  const wording = wordingOf(doc, rootRef);
  let rest = 0;
  for (const error of errors) {
    if (list.length >= limit) {
      if (error.keyword !== 'if') rest++;
      continue;
    }
    if (error.keyword === 'if') continue;
    // The problem's identity (field and rule) first: a hundred unknown keys of one object are one
    // problem, described once, where each was described and then dropped (4.6 ms a payload).
    // The payload's own keys along the path are shown only when they are field names of the contract.
    const at = shownPlace(payload, error.instancePath);
    const pointer = issuePointer(error, at.pointer);
    const rules = described.get(pointer);
    if (rules?.includes(error.keyword)) continue;
    const issue = toIssue(error, at, pointer, wording);
    if (!issue) continue;
    list.push(issue);
    if (rules) rules.push(error.keyword);
    else described.set(pointer, [error.keyword]);
  }
  if (rest > 0)
    list.push({
      in: 'body',
      pointer: '',
      rule: 'moreProblems',
      message: `${rest} more problem(s) not listed: fix the ones above first.`,
    });
  // An unknown tag value is reported by `enum` on the tag itself; the discriminator adds nothing.
  if (!list.some((i) => i.rule === 'discriminator')) return list;
  return list.filter((i) => !(i.rule === 'discriminator' && list.some((o) => o !== i && o.pointer === i.pointer)));
}
