// The contract's path matching, in one place for the proxy, the sandbox and the HAR reader: a
// request's path to an operation and its path parameters. A path is compared segment by segment as
// it was sent (no segment dropped, no literal decoded); a path parameter is decoded once and refused
// when a server or a front in between could read it as another path: a dot segment, an encoded
// slash or backslash, a ';' (a path parameter to some servers), a '%' left after decoding (a second
// decoding would change it), or an escape that does not decode (docs/decisions.md, D-112).
import { type OperationInfo, operations } from '../../generated/operations.js';

/** An operation at the path, with its path parameters decoded. */
export interface OperationMatch {
  readonly kind: 'operation';
  readonly operation: OperationInfo;
  readonly path: Readonly<Record<string, string>>;
}

/** The path is an operation's, but a path parameter may be read as another path: never to be forwarded or served. */
export interface UnsafeMatch {
  readonly kind: 'unsafe';
  readonly operation: OperationInfo;
  /** The parameter's name (`mid`); never its value. */
  readonly parameter: string;
  /** What is wrong, in words, without the value. */
  readonly message: string;
}

export type RouteMatch = OperationMatch | UnsafeMatch;

/** A path parameter decoded, or why it is refused. */
export type PathParameter = { ok: true; value: string } | { ok: false; reason: string };

/** A segment of a template: a literal, or a parameter by its name. */
type Segment = { literal: string; name?: undefined } | { literal?: undefined; name: string };

interface Template {
  readonly operation: OperationInfo;
  readonly segments: readonly Segment[];
}

/** The segments of a path as sent: `/a/b/` is `a`, `b`, `` (nothing dropped, nothing decoded). */
export function pathSegments(pathname: string): string[] {
  return pathname.slice(1).split('/');
}

const TEMPLATES: readonly Template[] = operations
  .filter((o) => o.path !== null)
  .map((operation) => ({
    operation,
    segments: pathSegments(operation.path as string).map((s) =>
      s.startsWith('{') && s.endsWith('}') ? { name: s.slice(1, -1) } : { literal: s },
    ),
  }))
  // A longer path is the more specific match when any base path may come before it.
  .sort((a, b) => b.segments.length - a.segments.length);

/** A dot segment, with any `;` parameters some servers strip (`..;x`). */
const DOT_SEGMENT = /^\.\.?(;.*)?$/;

/** The value of one path parameter as sent (`raw`), decoded once, or why it is refused. */
export function readPathParameter(raw: string): PathParameter {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return { ok: false, reason: 'holds a %-escape that does not decode' };
  }
  if (DOT_SEGMENT.test(value)) return { ok: false, reason: 'is a dot segment' };
  if (value.includes('/') || value.includes('\\')) return { ok: false, reason: 'holds a slash or backslash' };
  if (value.includes(';')) return { ok: false, reason: "holds a ';'" };
  if (value.includes('%')) return { ok: false, reason: "holds a '%' once decoded" };
  return { ok: true, value };
}

/** The template's match at `offset` of `segments`, when every literal is there as sent. */
function matchAt(segments: readonly string[], offset: number, template: Template): RouteMatch | undefined {
  const path: Record<string, string> = {};
  let unsafe: UnsafeMatch | undefined;
  for (let i = 0; i < template.segments.length; i++) {
    const want = template.segments[i] as Segment;
    const got = segments[offset + i] as string;
    if (want.name === undefined) {
      if (want.literal !== got) return undefined;
      continue;
    }
    if (got === '') return undefined;
    const param = readPathParameter(got);
    if (param.ok) path[want.name] = param.value;
    else
      unsafe ??= {
        kind: 'unsafe',
        operation: template.operation,
        parameter: want.name,
        message: `The path parameter ${want.name} ${param.reason}: a server in front of the service could read it as another path.`,
      };
  }
  return unsafe ?? { kind: 'operation', operation: template.operation, path };
}

/**
 * The operation at `pathname` (the path before any `?`, as sent). By default the path must be the
 * operation's exactly; with `anyBasePath`, it may end with it (a recording made under a base path).
 * A path of no operation is undefined.
 */
export function matchOperation(pathname: string, options: { anyBasePath?: boolean } = {}): RouteMatch | undefined {
  // An absolute URL or `*` is no path of the contract.
  if (!pathname.startsWith('/')) return undefined;
  const segments = pathSegments(pathname);
  for (const template of TEMPLATES) {
    const offset = segments.length - template.segments.length;
    if (offset < 0 || (offset > 0 && !options.anyBasePath)) continue;
    const match = matchAt(segments, offset, template);
    if (match) return match;
  }
  return undefined;
}
