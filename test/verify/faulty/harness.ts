// Drives a front (front.ts) as a merchant's code would, to show what a fault changes: requests
// built and signed by verify's own `send`, orders and token moves through the sandbox's fixtures,
// and a receiver on 127.0.0.1 that records the token notifications passed on (always closed).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encryptCardData } from '../../../src/card/encryptCardData.js';
import type { VerifyFixtures } from '../../../src/verify/fixtures.js';
import { sandboxFixtures } from '../../../src/verify/sandboxFixtures.js';
import { send } from '../../../src/verify/send.js';
import type { Exchange, RequestSpec, Target } from '../../../src/verify/types.js';
import { type Envelope, envelopeOf, FRONT_KEY } from './envelopes.js';
import { acceptedReply, type Front } from './front.js';

export const MID = 'MERCHANT0001';

export interface Harness {
  front: Front;
  target: Target;
  fixtures: VerifyFixtures;
  call(spec: Omit<RequestSpec, 'note'>): Promise<Exchange>;
  /** An id unique to this harness. */
  fresh(prefix: string): string;
  /** A new order of `amount` with its transaction token. */
  order(amount?: string): Promise<{ orderId: string; txnToken: string }>;
  /** The tokenize body of a test card, encrypted with the sandbox's key. */
  tokenizeBody(extra?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The notifications received so far (after `listen()`). */
  notifications: Envelope[];
  /** Has the front pass notifications on to the harness's receiver. */
  listen(): Promise<void>;
  close(): Promise<void>;
}

let counter = 0;

export async function harnessFor(front: Front): Promise<Harness> {
  const target: Target = {
    gatewayUrl: front.url,
    routerUrl: front.url,
    key: FRONT_KEY,
    mid: MID,
    clientId: 'C11',
    timeoutMs: 10_000,
    maxAnswerBytes: 1024 * 1024,
  };
  const budget = { maxRequests: 10_000, deadline: Date.now() + 600_000, sent: 0 };
  const fixtures = await sandboxFixtures(front.url);
  const notifications: Envelope[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 64 * 1024) chunks.push(chunk);
    });
    req.on('end', () => {
      const envelope = envelopeOf(Buffer.concat(chunks).toString('utf8'));
      if (envelope) notifications.push(envelope);
      const reply = acceptedReply();
      res.writeHead(200, { 'content-type': reply.contentType }).end(reply.text);
    });
  });
  const fresh = (prefix: string) =>
    `${prefix}H${Date.now().toString(36).toUpperCase()}${(counter++).toString(36).toUpperCase()}`;
  return {
    front,
    target,
    fixtures,
    notifications,
    fresh,
    call: (spec) => send(target, budget, { ...spec, note: 'harness' }),
    async order(amount = '100.00') {
      const orderId = fresh('O');
      const { txnToken } = await fixtures.createOrder({ orderId, amount, custId: fresh('C') });
      return { orderId, txnToken };
    },
    async tokenizeBody(extra = {}) {
      const card = fixtures.instruments.card;
      const encryptedCardData = await encryptCardData(
        {
          cardNumber: card.number,
          expiryMonth: card.expiryMonth,
          expiryYear: card.expiryYear,
          securityCode: card.securityCode,
        },
        await fixtures.cardEncryptionKey(),
      );
      return {
        cardSource: 'MANUAL_ENTERED',
        encryptedCardData,
        userInfo: { custId: fresh('C') },
        tokenizationConsent: { userConsent: 1, createdAt: 'Jan 21, 2026 10:15:30 AM' },
        ...extra,
      };
    },
    async listen() {
      if (!receiver.listening)
        await new Promise((resolve) => receiver.listen({ port: 0, host: '127.0.0.1' }, () => resolve(undefined)));
      // Listening on a host and port, the address is an AddressInfo.
      const { port } = receiver.address() as AddressInfo;
      await fixtures.notifyTo?.(`http://127.0.0.1:${port}/notifications`);
    },
    async close() {
      if (receiver.listening) {
        receiver.closeAllConnections();
        await new Promise((resolve) => receiver.close(() => resolve(undefined)));
      }
    },
  };
}
