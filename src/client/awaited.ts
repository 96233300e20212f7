// Values a program makes with an asynchronous helper must be awaited before they go into a call:
// un-awaited, `encryptCardData()` or `generateSignature()` gives a Promise, which JSON writes as
// `{}`, and the service would get an empty card or signature. The client refuses such a request
// before anything is sent, whether or not `validate` is on: a field a helper of the package makes
// must be a string, and no Promise (any thenable) may stand anywhere in the head, the body or the
// parameters. The error names the field by JSON Pointer and the likely cause, never the value
// (docs/decisions.md, D-117).
import { safePointer } from '../json/pointer.js';
import { RequestValidationError } from '../transport/errors.js';
import type { ClientOperationId } from '../types.js';
import type { ValidationIssue } from '../validation/errors.js';

/** A field of a request that a helper of the package makes, as a string. */
interface HelperField {
  /** Its place in the envelope, `{ head, body }`. */
  segments: readonly string[];
  /** What it holds, in words. */
  what: string;
  /** The helper that makes it. */
  helper: string;
  /** Whether the operation requires it (a missing one is refused too). */
  required: boolean;
}

const ENCRYPTED_CARD: HelperField = {
  segments: ['body', 'encryptedCardData'],
  what: 'the encrypted card data',
  helper: 'encryptCardData()',
  required: true,
};
const SIGNATURE: HelperField = {
  segments: ['head', 'signature'],
  what: 'the signature',
  helper: 'generateSignature()',
  required: false,
};

/** The fields a helper makes, per operation: the card of tokenize; the head's signature wherever a head carries one. */
const HELPER_FIELDS: { [O in ClientOperationId]: readonly HelperField[] } = {
  tokenizeCard: [ENCRYPTED_CARD, SIGNATURE],
  preAuthorize: [SIGNATURE],
  listSubscriptions: [SIGNATURE],
  initiatePayment: [],
  modifyOrder: [SIGNATURE],
  createSubscription: [SIGNATURE],
};

/** Objects and arrays visited at most, and how deep: far more than any request holds; the rest is left to the contract's validation. */
const MAX_NODES = 10_000;
const MAX_DEPTH = 64;

/** What a request of one call holds, as the client built it. */
export interface BuiltRequest {
  /** The envelope as signed: the head (with the signer's signature, when signed) and the body. */
  envelope: { head: unknown; body: unknown };
  /** The path and query parameters. */
  params: { path?: unknown; query?: unknown };
  /** Whether the client's signer wrote the head's signature. */
  signed: boolean;
}

/**
 * Refuses (RequestValidationError) a request that holds a Promise or another thenable, or whose
 * field made by a helper is not a string; nothing is sent.
 */
export function refuseUnawaited(operationId: ClientOperationId, request: BuiltRequest): void {
  const fields = HELPER_FIELDS[operationId];
  const issues = [...helperFieldIssues(fields, request), ...thenableIssues(fields, request)];
  if (issues.length === 0) return;
  throw new RequestValidationError(`${operationId}: ${issues.map((i) => i.message).join(' ')} Nothing was sent.`, {
    operationId,
    issues,
  });
}

/** The kind of a value, in words that never show it. */
function kindOf(value: unknown): string {
  if (isThenable(value)) return 'a Promise';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'undefined') return 'missing';
  return `a ${typeof value}`;
}

function isThenable(value: unknown): boolean {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  try {
    return typeof (value as { then?: unknown }).then === 'function';
  } catch {
    // A getter or proxy that throws is no JSON value either.
    return true;
  }
}

/** A property of an object, or undefined (a getter or proxy that throws reads as missing). */
function read(node: unknown, key: string): unknown {
  if (node === null || typeof node !== 'object') return undefined;
  try {
    return (node as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function helperFieldIssues(fields: readonly HelperField[], { envelope, signed }: BuiltRequest): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const field of fields) {
    const value = field.segments.reduce<unknown>(read, envelope);
    if (typeof value === 'string' || (value === undefined && !field.required)) continue;
    const pointer = safePointer(envelope, field.segments);
    const cause =
      field === SIGNATURE && signed
        ? "the signer's sign() must resolve to the signature string."
        : isThenable(value)
          ? `did you forget to await ${field.helper}?`
          : `${field.helper} gives it (await it).`;
    issues.push({
      in: 'body',
      pointer,
      rule: 'type',
      message: `${pointer} (${field.what}) must be a string, but is ${kindOf(value)}: ${cause}`,
    });
  }
  return issues;
}

/** Every thenable in the head, the body and the parameters, except in the helper fields (named by helperFieldIssues). */
function thenableIssues(fields: readonly HelperField[], { envelope, params }: BuiltRequest): ValidationIssue[] {
  const isHelperField = (path: readonly string[]) =>
    fields.some((field) => field.segments.length === path.length && field.segments.every((s, i) => s === path[i]));
  const issues: ValidationIssue[] = [];
  const seen = new Set<object>();
  // One path, extended and shortened as the walk goes; a pointer is made only for a Promise found.
  const path: string[] = [];
  const walk = (root: unknown, node: unknown, where: ValidationIssue['in']): void => {
    if (
      node === null ||
      typeof node !== 'object' ||
      seen.has(node) ||
      seen.size >= MAX_NODES ||
      path.length > MAX_DEPTH
    )
      return;
    seen.add(node);
    for (const key of Object.keys(node)) {
      const value = read(node, key);
      path.push(key);
      if (!isThenable(value)) walk(root, value, where);
      else if (where !== 'body' || !isHelperField(path)) {
        const pointer = safePointer(root, path);
        issues.push({
          in: where,
          pointer,
          rule: 'type',
          message: `${pointer || 'The payload'} is a Promise, not a value: did you forget to await it?`,
        });
      }
      path.pop();
    }
  };
  walk(envelope, envelope, 'body');
  walk(params.path, params.path, 'path');
  walk(params.query, params.query, 'query');
  return issues;
}
