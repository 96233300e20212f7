// The one load of a module whose path is not the package's own: a module the user names on the
// command line (verify's `--fixtures`). Every load of the package's own parts is a static import
// (docs/decisions.md, D-69); this one cannot be, since its path is only known when the command runs.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The user's module at `file` (relative to the working directory). */
export async function importUserModule(file: string): Promise<{ default?: unknown }> {
  return import(pathToFileURL(resolve(file)).href);
}
