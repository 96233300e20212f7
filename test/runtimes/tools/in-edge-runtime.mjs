// @ts-nocheck: the tools come from test/runtimes/node_modules, installed apart from the repository's.
//
// Runs an edge function bundle in Vercel's edge-runtime (the VM of Next.js's edge runtime and
// Vercel Edge Functions) and dispatches one fetch event to it; ?sandbox= gives the sandbox's address.
// Usage: node tools/in-edge-runtime.mjs <edge.js> [sandbox url]. Prints the CHECKS line.
import { readFileSync } from 'node:fs';
import { EdgeRuntime } from 'edge-runtime';

const [bundle, sandboxUrl] = process.argv.slice(2);
try {
  const runtime = new EdgeRuntime({ initialCode: readFileSync(bundle, 'utf8') });
  const response = await runtime.dispatchFetch(
    `http://edge.test/${sandboxUrl ? `?sandbox=${encodeURIComponent(sandboxUrl)}` : ''}`,
  );
  await response.waitUntil();
  const text = await response.text();
  if (!response.ok) throw new Error(`the edge function answered ${response.status}: ${text.slice(0, 1500)}`);
  console.log(`CHECKS ${text}`);
} catch (error) {
  console.error(`${error.name}: ${error.message}`);
  process.exitCode = 1;
}
