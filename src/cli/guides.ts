// Where the guides shipped with the package are, as a path a reader can open from here: in an app,
// `node_modules/gateway-contract/docs/<page>`; in the repository, `docs/<page>`.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The path of a shipped guide of `docs/`, relative to the working directory. */
export function guidePath(page: 'sandbox.md' | 'mock.md' | 'journeys.md'): string {
  const file = fileURLToPath(new URL(`../../docs/${page}`, import.meta.url));
  return relative(process.cwd(), file) || file;
}
