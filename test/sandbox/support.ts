// Shared by the sandbox's scenario tests: a sandbox on a free port with a fixed clock and every
// answer checked against the contract (and `sandboxTest`, which gives each file one), typed clients
// for it, its control calls, and the request bodies the scenarios start from.
import { test as base, expect } from 'vitest';
import {
  createChecksumSigner,
  createGatewayClient,
  encryptCardData,
  type GatewayClient,
  validate,
} from '../../src/index.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';

/** The sandbox clock's base: a fixed moment, so tokens, dates and expiries are deterministic. */
export const T0 = Date.parse('2026-01-21T10:00:00.000Z');
export const MID = 'MERCHANT0001';
export const KEY = 'SandboxTestKey01';
export const OTHER_KEY = 'WrongMerchantKey';

/** A sandbox that validates each of its answers against the contract before sending it. */
export function sandboxFor(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, now: () => T0, checkAnswers: true, ...options });
}

/**
 * A test that takes the file's sandbox from its context (`async ({ sandbox }) => ...`): one sandbox
 * of `sandboxFor()` per file, started for its first test and stopped after its last, when no answer
 * it gave may have broken the contract; the faults a test arms are cleared after it.
 */
export const sandboxTest = base.extend<{ $test: { faultsCleared: undefined }; $file: { sandbox: Sandbox } }>({
  sandbox: [
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture takes from its first parameter.
    async ({}, use) => {
      const sandbox = await sandboxFor();
      await use(sandbox);
      await sandbox.stop();
      expect(sandbox.answerProblems).toEqual([]);
    },
    { scope: 'file' },
  ],
  faultsCleared: [
    async ({ sandbox }, use) => {
      await use(undefined);
      sandbox.faults.clear();
    },
    { auto: true },
  ],
});

/**
 * A typed client for the sandbox. `validate: true` checks requests before sending and answers on
 * arrival; scenarios that send a request breaking the contract on purpose check answers only.
 */
export function clientFor(
  sandbox: Sandbox,
  options: { key?: string; requests?: boolean; clientId?: string; fetch?: (r: Request) => Promise<Response> } = {},
): GatewayClient {
  return createGatewayClient({
    gatewayUrl: sandbox.url,
    routerUrl: sandbox.url,
    signer: createChecksumSigner(options.key ?? KEY),
    clientId: options.clientId ?? 'C11',
    version: 'v2',
    now: () => sandbox.clock.now(),
    validate: options.requests === false ? { response: true } : true,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** Calls the control API and returns its HTTP status and JSON. */
export async function control(
  sandbox: Sandbox,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

/** Posts a raw text to an operation's path, and returns the status, headers and parsed answer. */
export async function rawCall(sandbox: Sandbox, path: string, text: string | Buffer, init: RequestInit = {}) {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof text === 'string' ? text : new Blob([new Uint8Array(text)]),
    ...init,
  });
  const answerText = await response.text();
  return { status: response.status, headers: response.headers, text: answerText, json: JSON.parse(answerText) };
}

/** Asserts that an answer is valid against the contract for the operation. */
export function expectValidAnswer(operationId: Parameters<typeof validate>[0], answer: unknown) {
  const verdict = validate(operationId, 'response', answer);
  expect(verdict.valid ? [] : verdict.errors).toEqual([]);
}

export const payBody = (orderId: string, rest: Record<string, unknown>) =>
  ({ mid: MID, orderId, requestType: 'PAYMENT', ...rest }) as any;

export const walletPay = (orderId: string) =>
  payBody(orderId, { paymentMode: 'WALLET', walletInfo: { walletType: 'SVC', paymentFlow: 'PAY' } });

export const newCard = (number: string, mode: 'CREDIT_CARD' | 'DEBIT_CARD' = 'CREDIT_CARD') => ({
  paymentMode: mode,
  cardInfo: { cardFlowType: 'NEW_CARD', cardUniqueId: number, cvv: '123', expiryMonth: '12', expiryYear: '2030' },
});

/** The tokenize body for a card number, encrypted with the sandbox's public key. */
export async function tokenizeBody(sandbox: Sandbox, cardNumber: string, extra: Record<string, unknown> = {}) {
  return {
    cardSource: 'MANUAL_ENTERED',
    encryptedCardData: await encryptCardData(
      { cardNumber, expiryMonth: '12', expiryYear: '2030', securityCode: '123' },
      sandbox.publicKeyPem,
      {
        now: new Date(sandbox.clock.now()),
      },
    ),
    userInfo: { custId: 'CUST_001', firstName: 'Asha' },
    tokenizationConsent: { userConsent: 1, createdAt: 'Jan 21, 2026 10:15:30 AM', platform: 'APP' },
    ...extra,
  } as any;
}

/** A new order through the control API, with its transaction token. */
export function order(sandbox: Sandbox, value = '100.00', extra: Record<string, unknown> = {}) {
  return sandbox.createOrder({ txnAmount: { value, currency: 'INR' }, ...extra });
}
