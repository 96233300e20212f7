// @ts-nocheck: the tools come from test/runtimes/node_modules, installed apart from the repository's.
//
// Runs a Worker bundle in workerd through Miniflare, without nodejs_compat, and asks it for the
// results (?sandbox= gives it the sandbox's address: workerd's outbound fetch reaches loopback).
// Usage: node tools/in-workerd.mjs <worker.mjs> [sandbox url]. Prints the CHECKS line.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Miniflare } from 'miniflare';

const [bundle, sandboxUrl] = process.argv.slice(2);
// A date the bundled workerd supports; no compatibility flags, so no Node.js APIs.
// The module is named after its path relative to modulesRoot (workerd refuses a path leaving it).
const mf = new Miniflare({
  modules: true,
  script: readFileSync(bundle, 'utf8'),
  scriptPath: bundle,
  modulesRoot: dirname(bundle),
  compatibilityDate: '2026-04-01',
});
try {
  const response = await mf.dispatchFetch(
    `http://worker.test/${sandboxUrl ? `?sandbox=${encodeURIComponent(sandboxUrl)}` : ''}`,
  );
  const text = await response.text();
  if (!response.ok) throw new Error(`the Worker answered ${response.status}: ${text.slice(0, 1500)}`);
  console.log(`CHECKS ${text}`);
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await mf.dispose();
}
