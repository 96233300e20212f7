// @ts-nocheck: runs in a fresh project where the packed package is installed (see checks.mjs).
//
// The consumer program in a page. The sandbox sends no CORS headers and is a server-side tool, so
// the client is not checked here. The results are left on globalThis for the harness to read.
import { describe, runChecks } from './checks.mjs';

runChecks({ skipClient: 'a page cannot call the sandbox (another origin, no CORS)' }).then(
  (results) => {
    globalThis.__checks = results;
  },
  (error) => {
    globalThis.__checks = [{ id: '-', name: 'the program', ok: false, detail: describe(error) }];
  },
);
