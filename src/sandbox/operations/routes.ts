// The operations at their paths, by the contract's one path matching (http/route.ts): an exact path,
// or a template whose {parameters} are one path segment each (tokenize's {mid}), a parameter that
// could be read as another path refused (docs/decisions.md, D-112).
import { matchOperation } from '../../http/route.js';
import { isServed, type SandboxOperation } from '../operationIndex.js';

/** An operation and the path parameters of the request's path. */
export interface OperationRoute {
  readonly operationId: SandboxOperation;
  readonly path: Readonly<Record<string, string>>;
}

/** A path of an operation whose parameter the sandbox refuses: why, in words (never the value). */
export interface RefusedRoute {
  readonly refused: string;
}

/** The operation at a path, with its path parameters; a refused parameter; or undefined for no operation. */
export function routeOf(pathname: string): OperationRoute | RefusedRoute | undefined {
  const match = matchOperation(pathname);
  if (!match || !isServed(match.operation)) return undefined;
  if (match.kind === 'unsafe') return { refused: match.message };
  return { operationId: match.operation.operationId, path: match.path };
}
