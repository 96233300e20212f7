// @ts-nocheck: runs in a fresh project where the packed package is installed (see checks.mjs).
//
// The consumer program as a command: Node (unbundled and bundled by esbuild, webpack and rollup),
// Bun and Deno. The sandbox's address is the first argument (none: the client is not checked).
// Prints one line, CHECKS and the results as JSON. No top-level await: the CommonJS bundle has none.
import { describe, runChecks } from './checks.mjs';

const sandboxUrl = process.argv[2] || undefined;
runChecks({ sandboxUrl, skipClient: 'no sandbox given' })
  .catch((error) => [{ id: '-', name: 'the program', ok: false, detail: describe(error) }])
  // Exit once the line is written: an idle keep-alive socket of the client must not hold the run.
  .then((results) => process.stdout.write(`CHECKS ${JSON.stringify(results)}\n`, () => process.exit(0)));
