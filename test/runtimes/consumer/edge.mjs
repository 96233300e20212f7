// @ts-nocheck: runs in a fresh project where the packed package is installed (see checks.mjs).
//
// The consumer program as an edge function in the service-worker syntax that Vercel's edge-runtime
// evaluates (a script, so it is bundled as an IIFE). ?sandbox= gives the sandbox's address.
import { runChecks } from './checks.mjs';

addEventListener('fetch', (event) => {
  const sandboxUrl = new URL(event.request.url).searchParams.get('sandbox') || undefined;
  event.respondWith(
    runChecks({ sandboxUrl, skipClient: 'no sandbox given' }).then((results) => Response.json(results)),
  );
});
