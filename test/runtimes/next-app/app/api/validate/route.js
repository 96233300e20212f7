// @ts-nocheck: part of the Next.js app that run.mjs builds in a fresh project.
//
// Validation as a route handler: POST { payload, query } answers validate()'s verdict for a pay request.
import { validate } from 'gateway-contract';

export const dynamic = 'force-dynamic';

export async function POST(request) {
  const { payload, query } = await request.json();
  return Response.json(validate('initiatePayment', 'request', payload, { query }));
}
