// The operations at their paths, read from the contract's operation index: an exact path, or a
// template whose {parameters} are one path segment each (tokenize's {mid}).
import { type SandboxOperation, SERVED_OPERATIONS } from '../operationIndex.js';

/** An operation and the path parameters of the request's path. */
export interface OperationRoute {
  readonly operationId: SandboxOperation;
  readonly path: Readonly<Record<string, string>>;
}

const exact = new Map<string, SandboxOperation>();
const templated: { pattern: RegExp; names: string[]; operationId: SandboxOperation }[] = [];
for (const op of SERVED_OPERATIONS) {
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
  if (names.length === 0) exact.set(op.path, op.operationId);
  else {
    const source = op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)');
    templated.push({ pattern: new RegExp(`^${source}$`), names, operationId: op.operationId });
  }
}

/** The operation at a path, with its path parameters. */
export function routeOf(pathname: string): OperationRoute | undefined {
  const id = exact.get(pathname);
  if (id) return { operationId: id, path: {} };
  for (const t of templated) {
    const m = t.pattern.exec(pathname);
    if (!m) continue;
    const path: Record<string, string> = {};
    try {
      t.names.forEach((name, i) => {
        path[name] = decodeURIComponent(m[i + 1] ?? '');
      });
    } catch {
      return undefined;
    }
    return { operationId: t.operationId, path };
  }
  return undefined;
}
