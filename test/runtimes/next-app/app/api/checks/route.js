// @ts-nocheck: part of the Next.js app that run.mjs builds in a fresh project.
//
// The whole consumer program inside Next's server build: GET ?sandbox= answers the results as JSON.
import { runChecks } from '../../../consumer/checks.mjs';

export const dynamic = 'force-dynamic';

export async function GET(request) {
  const sandboxUrl = new URL(request.url).searchParams.get('sandbox') || undefined;
  return Response.json(await runChecks({ sandboxUrl, skipClient: 'no sandbox given' }));
}
