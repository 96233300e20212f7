// @ts-nocheck: runs in a fresh project where the packed package is installed (see checks.mjs).
//
// The consumer program as a Cloudflare Worker (module syntax). The harness passes the sandbox's
// address as ?sandbox=; the answer is the results as JSON.
import { runChecks } from './checks.mjs';

export default {
  async fetch(request) {
    const sandboxUrl = new URL(request.url).searchParams.get('sandbox') || undefined;
    return Response.json(await runChecks({ sandboxUrl, skipClient: 'no sandbox given' }));
  },
};
