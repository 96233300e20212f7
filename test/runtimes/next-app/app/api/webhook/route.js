// @ts-nocheck: part of the Next.js app that run.mjs builds in a fresh project.
//
// The merchant's webhook as an App Router route handler: POST is the receiver's Fetch handler;
// GET tells how many notifications were accepted (the harness checks the handler ran once).
import { createChecksumVerifier, createWebhookReceiver } from 'gateway-contract';
import { KEY } from '../../../consumer/checks.mjs';

export const dynamic = 'force-dynamic';

let accepted = 0;
const receiver = createWebhookReceiver({ verifier: createChecksumVerifier(KEY) });

export const POST = receiver.fetchHandler(() => {
  accepted += 1;
});

export function GET() {
  return Response.json({ accepted });
}
