// The newcomer's path of docs/journeys.md, step by step, against local stand-ins for the gateway
// and the router: encrypt the card, tokenize it, receive the token status notification (ACTIVE) on
// the merchant's receiver and reply, then pay with the token index the notification carried. The
// code of each step is the page's code, with local addresses; the page's code and the receiver's
// code of docs/webhooks.md type-check as printed.

import { constants, generateKeyPairSync, privateDecrypt, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChecksumSigner,
  createChecksumVerifier,
  createGatewayClient,
  createWebhookReceiver,
  encryptCardData,
  type SendTokenNotificationResult,
  sendTokenNotification,
  validate,
} from '../../src/index.js';
import { memberText } from '../../src/json/member.js';
import { json, startServer, type TestServer } from '../helpers/servers.js';

const MERCHANT_KEY = 'k3yK3yk3yK3yk3yK';
const MID = 'MERCHANT0001';
const TXN_TOKEN = 'TXN-TOKEN-FROM-ORDER-CREATION';
const CARD = { cardNumber: '4111111111111111', expiryMonth: '12', expiryYear: '2030', securityCode: '123' };

// The service's RSA key pair: the merchant holds only the public key.
const { publicKey: servicePublicKeyPem, privateKey: servicePrivateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

/** What the stand-ins saw and did, for the assertions. */
const service = {
  issuedTokenIndex: `TIN${randomBytes(6).toString('hex').toUpperCase()}`,
  decryptedCard: undefined as unknown,
  notified: undefined as Promise<SendTokenNotificationResult> | undefined,
  payRequests: [] as any[],
};

let gateway: TestServer;
let router: TestServer;
let merchantServer: Server;
let merchantWebhookUrl: string;
/** The merchant's storage of card tokens, filled by its webhook handler. */
const savedTokens = new Map<string, { tokenIndexNumber: string; tokenStatus: string; cardSuffix: string }>();

beforeAll(async () => {
  // The gateway stand-in: checks the signature over the raw body, decrypts the card, answers 100
  // (INIT, pending), then sends the token status notification ACTIVE to the merchant's webhook.
  gateway = await startServer(async (req, res) => {
    const envelope = JSON.parse(req.text);
    const signed = await createChecksumVerifier(MERCHANT_KEY).verify(
      memberText(req.text, 'body')!,
      envelope.head.signature,
    );
    if (!signed)
      return json(res, {
        head: { version: 'v1', responseTimestamp: String(Date.now()), requestId: envelope.head.requestId },
        body: { resultInfo: { resultCode: '1001', resultStatus: 'FAILED', resultMsg: 'Signature Validation Failure' } },
      });
    service.decryptedCard = JSON.parse(
      privateDecrypt(
        { key: servicePrivateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(envelope.body.encryptedCardData, 'base64'),
      ).toString('utf8'),
    );
    json(res, {
      head: { version: 'v1', responseTimestamp: String(Date.now()), requestId: envelope.head.requestId },
      body: {
        mid: MID,
        tokenIndexNumber: service.issuedTokenIndex,
        tokenStatus: 'INIT',
        resultInfo: { resultCode: '100', resultStatus: 'PENDING', resultMsg: 'Pending' },
      },
    });
    service.notified = sendTokenNotification({
      url: merchantWebhookUrl,
      signer: createChecksumSigner(MERCHANT_KEY),
      body: {
        mid: MID,
        tokenInfo: {
          tokenIndexNumber: service.issuedTokenIndex,
          cardScheme: 'VISA',
          tokenExpiry: '122030',
          issuingBankName: 'Example Bank',
          cardSuffix: '1111',
          cardType: 'CC',
          displayName: 'Example Bank Visa Credit',
          tokenSuffix: '4321',
          tokenStatus: 'ACTIVE',
        },
      },
    });
  });
  // The router stand-in: answers a card payment with a bank form when the token index is one it issued.
  router = await startServer((req, res) => {
    const envelope = JSON.parse(req.text);
    service.payRequests.push({ url: req.url, envelope });
    const known =
      envelope.body.cardInfo?.cardUniqueId === service.issuedTokenIndex && envelope.head.token === TXN_TOKEN;
    json(
      res,
      known
        ? {
            head: { responseTimestamp: String(Date.now()) },
            body: {
              bankForm: {
                pageType: 'redirect',
                redirectForm: {
                  actionURL: 'https://bank.example.com/acs',
                  method: 'post',
                  type: 'redirect',
                  headers: {},
                  content: {},
                },
              },
              resultInfo: { resultCode: '0000', resultStatus: 'S', resultMsg: 'Success' },
            },
          }
        : {
            head: { responseTimestamp: String(Date.now()) },
            body: { resultInfo: { resultCode: '312', resultStatus: 'F', resultMsg: 'Invalid card details' } },
          },
    );
  });

  // The merchant's webhook, as docs/journeys.md writes it (node:http).
  const receiver = createWebhookReceiver({ verifier: createChecksumVerifier(MERCHANT_KEY), expectedMid: MID });
  merchantServer = createServer(
    receiver.nodeHandler(async (event) => {
      const { tokenIndexNumber, tokenStatus, cardSuffix } = event.body.tokenInfo;
      savedTokens.set(cardSuffix, { tokenIndexNumber, tokenStatus, cardSuffix });
    }),
  );
  await new Promise<void>((resolve) => merchantServer.listen(0, '127.0.0.1', resolve));
  merchantWebhookUrl = `http://127.0.0.1:${(merchantServer.address() as AddressInfo).port}/webhooks/token`;
});

afterAll(async () => {
  merchantServer.closeAllConnections();
  await Promise.all([
    gateway.close(),
    router.close(),
    new Promise<void>((resolve) => merchantServer.close(() => resolve())),
  ]);
});

describe('walkthrough (docs/journeys.md): pay with a token-index card', () => {
  const client = () =>
    createGatewayClient({
      gatewayUrl: gateway.url,
      routerUrl: router.url,
      signer: createChecksumSigner(MERCHANT_KEY),
      validate: true,
    });

  it('1. encrypts the card and tokenizes it', async () => {
    const encryptedCardData = await encryptCardData(CARD, servicePublicKeyPem, {
      now: new Date('2026-01-21T10:15:30Z'),
    });
    expect(encryptedCardData).not.toContain(CARD.cardNumber);
    const tokenized = await client().tokenizeCard({
      mid: MID,
      body: {
        cardSource: 'MANUAL_ENTERED',
        encryptedCardData,
        userInfo: { custId: 'CUST_001' },
        tokenizationConsent: { userConsent: 1, createdAt: 'Jan 21, 2026 10:15:30 AM' },
      },
    });
    expect(tokenized).toMatchObject({ outcome: 'pending', code: '100', status: 'PENDING' });
    if (tokenized.outcome === 'pending') expect(tokenized.data.body.tokenStatus).toBe('INIT');
    expect(service.decryptedCard).toEqual(CARD);
    expect(gateway.requests[0].url).toMatch(/^\/coft-center\/coft\/merchant\/MERCHANT0001\/tokenize\?requestId=/);
  });

  it('2. receives the token status notification (ACTIVE) and replies 00', async () => {
    expect(service.notified).toBeDefined();
    const delivered = await service.notified!;
    expect(delivered).toMatchObject({ httpStatus: 200, valid: true, issues: [], code: '00', outcome: 'success' });
    expect(validate('notifyTokenStatus', 'response', delivered.reply)).toEqual({ valid: true });
    expect(savedTokens.get('1111')).toEqual({
      tokenIndexNumber: service.issuedTokenIndex,
      tokenStatus: 'ACTIVE',
      cardSuffix: '1111',
    });
  });

  it('3. pays with cardFlowType TOKEN_INDEX_NO and the token index from the notification', async () => {
    const { tokenIndexNumber } = savedTokens.get('1111')!;
    const paid = await client().initiatePayment({
      txnToken: TXN_TOKEN,
      body: {
        mid: MID,
        orderId: 'ORDER-1001',
        requestType: 'PAYMENT',
        paymentMode: 'CREDIT_CARD',
        cardInfo: { cardFlowType: 'TOKEN_INDEX_NO', cardUniqueId: tokenIndexNumber, cvv: '123' },
      },
    });
    expect(paid).toMatchObject({ outcome: 'success', code: '0000' });
    if (paid.outcome === 'success')
      expect(paid.data.body.bankForm?.redirectForm?.actionURL).toBe('https://bank.example.com/acs');
    const sent = service.payRequests.at(-1);
    expect(sent.url).toBe('/aoa-acquiring-biz/v2/payment?mid=MERCHANT0001&orderId=ORDER-1001');
    expect(sent.envelope.head).toMatchObject({ tokenType: 'TXN_TOKEN', token: TXN_TOKEN });
    expect(sent.envelope.body.cardInfo).toEqual({
      cardFlowType: 'TOKEN_INDEX_NO',
      cardUniqueId: service.issuedTokenIndex,
      cvv: '123',
    });
  });
});

describe('walkthrough: the code as printed', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  /** The TypeScript blocks of a page (between two headings when given), in order. */
  const blocksOf = (page: string, from?: string, to?: string) => {
    const text = readFileSync(join(root, page), 'utf8');
    const start = from ? text.indexOf(from) : 0;
    const section = text.slice(start, to ? text.indexOf(to, start) : undefined);
    return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  };
  // What the pages leave to the reader: addresses, the card, storage, the raw body of a request.
  const given = [
    'declare const gatewayUrl: string, routerUrl: string, servicePublicKeyPem: string, cardNumber: string, cvv: string;',
    'declare const txnToken: string, tokenIndexNumber: string, rawBody: Uint8Array;',
    "declare const res: import('node:http').ServerResponse, log: { warn(...args: unknown[]): void };",
    'declare function saveCardToken(token: { tokenIndexNumber: string; tokenStatus: string; cardSuffix: string }): Promise<void>;',
  ].join('\n');

  /** The problems TypeScript finds in the blocks as one program that imports the package by its name. */
  function problemsOf(blocks: string[], name: string) {
    const code = `${given}\n${blocks.join('\n')}\nexport {};\n`;
    // Inside the repository, so that \`gateway-contract\` resolves to this package by its name, as in an app.
    mkdirSync(join(root, 'test/.artifacts'), { recursive: true });
    const dir = mkdtempSync(join(root, 'test/.artifacts/docs-'));
    try {
      const file = join(dir, `${name}.mts`);
      writeFileSync(file, code);
      const program = ts.createProgram([file], {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(root, 'node_modules/@types')],
      });
      return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("docs/journeys.md type-checks against the package's declarations", () => {
    const blocks = blocksOf('docs/journeys.md');
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(problemsOf(blocks, 'journeys')).toEqual([]);
  });

  it("the receiver's code of docs/webhooks.md type-checks against the package's declarations", () => {
    const blocks = blocksOf('docs/webhooks.md', '## Receive it', '## Reply codes');
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(problemsOf(blocks, 'webhooks')).toEqual([]);
  });
});
