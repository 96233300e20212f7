// A program for a runtime without Node's types (Deno, a worker, a browser app): compiled by
// scripts/check-consumer.mjs with the DOM's types and no @types/node, against every web entry of
// the packed package, whose declarations must then need none of Node's.
import {
  createChecksumSigner,
  createChecksumVerifier,
  createGatewayClient,
  createWebhookReceiver,
  encryptCardData,
  validate,
} from 'gateway-contract';
import { encryptCardData as encryptFromCard } from 'gateway-contract/card';
import { createGatewayClient as clientFromEntry } from 'gateway-contract/client';
import { formatReport } from 'gateway-contract/reports';
import { resultCodes } from 'gateway-contract/result-codes';
import { generateSignature } from 'gateway-contract/signing';
import { validateMany } from 'gateway-contract/validation';
import { validateRequest } from 'gateway-contract/validators/initiatePayment';
import { createWebhookReceiver as receiverFromEntry } from 'gateway-contract/webhook';
import { createPostgresReplayStore } from 'gateway-contract/webhook/postgres';
import { createRedisReplayStore } from 'gateway-contract/webhook/redis';
import { postNotification } from 'gateway-contract/webhook/sender';
import { replayStoreCases } from 'gateway-contract/webhook/store-test-kit';

const receiver = createWebhookReceiver({ verifier: createChecksumVerifier('SandboxTestKey01') });
export const handler: (request: Request) => Promise<Response> = receiver.fetchHandler(() => undefined);
// The replay stores take a client by its shape: neither `redis` nor `pg` (nor their types) is needed.
export const shared = createWebhookReceiver({
  verifier: createChecksumVerifier('SandboxTestKey01'),
  store: createRedisReplayStore({
    client: { sendCommand: async (args: string[]) => (args[0] === 'EVAL' ? 'claimed' : 1) },
  }),
});
export const rows = createPostgresReplayStore({ client: { query: async () => ({ rowCount: 1, rows: [] }) } });
export const cases: string[] = replayStoreCases({ store: () => rows }).map((c) => c.name);
export const valid: boolean = validate('initiatePayment', 'request', {}).valid && validateRequest({}).valid;
export const client = createGatewayClient({
  gatewayUrl: 'https://gateway.example',
  routerUrl: 'https://router.example',
  signer: createChecksumSigner('SandboxTestKey01'),
});
export const parts = [
  encryptCardData,
  encryptFromCard,
  clientFromEntry,
  formatReport,
  resultCodes,
  generateSignature,
  validateMany,
  receiverFromEntry,
  postNotification,
];
