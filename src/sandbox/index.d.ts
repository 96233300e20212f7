import type { Schemas } from '../types.js';
import type { SendTokenNotificationOptions, SendTokenNotificationResult } from '../webhook/send.js';

export interface SandboxOptions {
  /** Address to bind (default `127.0.0.1`). */
  host?: string;
  /** Port; `0` picks a free one (default 4020). */
  port?: number;
  /** The merchant id the sandbox serves (default `MERCHANT0001`). */
  mid?: string;
  /** Several merchant ids, all with the same key and webhook URL (wins over `mid`). */
  mids?: string[];
  /** The merchant key, 16 bytes (default `DEFAULT_MERCHANT_KEY`, a test key for the sandbox only). */
  merchantKey?: string;
  /** The head `clientId` that selects the merchant key (default `C11`). */
  clientId?: string;
  /** The merchant's `{merchant_response_url}`: token status notifications go there. None: deliveries are recorded as skipped. */
  webhookUrl?: string;
  /** The base clock, epoch milliseconds (default `Date.now`); `clock.advance()` moves the sandbox ahead of it. */
  now?: () => number;
  /** How long an INIT token waits before it becomes ACTIVE or FAILED, in sandbox time (default 5000 ms). */
  tokenActivationDelayMs?: number;
  /** How long a webhook delivery may take (default 10 000 ms). */
  webhookTimeoutMs?: number;
  /** Largest request body accepted (default 65 536 bytes). */
  maxBodyBytes?: number;
  /** Validate every answer against the contract before sending it; a failure is answered HTTP 500 and recorded in `answerProblems`. */
  checkAnswers?: boolean;
  /** Receives one line per request, webhook delivery and unexpected error. Never a secret. */
  onLog?: (line: string) => void;
  /** The seed of test instruments: a file (path or URL) or the parsed object (default `src/sandbox/instruments.json`). */
  instruments?: string | URL | object;
  /** The RSA private key (PEM) for `encryptedCardData` (default: one generated per process). */
  cardPrivateKeyPem?: string;
  /** Sends a notification (default `sendTokenNotification`). */
  sendNotification?: (options: SendTokenNotificationOptions) => Promise<SendTokenNotificationResult>;
}

/** One token status notification the sandbox sent (or could not send). */
export interface WebhookDelivery {
  id: string;
  tokenIndexNumber: string;
  tokenStatus: 'INIT' | 'SUSPENDED' | 'ACTIVE' | 'DEAD' | 'FAILED';
  mid: string;
  url: string | null;
  requestId: string;
  createdAt: string;
  completedAt?: string;
  /** `delivered` (valid reply, 00), `not-accepted` (valid reply, another code), `invalid-reply`, `failed` (no usable reply), `skipped` (no URL), `pending`. */
  state: 'pending' | 'delivered' | 'not-accepted' | 'invalid-reply' | 'failed' | 'skipped';
  httpStatus?: number;
  code?: string;
  outcome?: 'success' | 'pending' | 'failure';
  valid?: boolean;
  issues?: SendTokenNotificationResult['issues'];
  reply?: unknown;
  error?: { name: string; kind?: string; message: string };
  reason?: string;
}

/** An order as the control API shows it. */
export interface SandboxOrder {
  mid: string;
  orderId: string;
  kind: 'PAYMENT' | 'SUBSCRIPTION' | 'PRE_AUTH';
  status: 'CREATED' | 'PENDING' | 'PAID' | 'CLOSED';
  closedReason?: string;
  txnAmount: { value: string; currency: 'INR' };
  custId?: string;
  modifications: number;
  modificationsLeft: number;
  goodsInfo?: unknown[];
  shippingInfo?: unknown[];
  extendInfo?: Record<string, unknown>;
  subscriptionId?: string;
  paymentModes?: string[];
  transaction?: { txnId: string; paymentMode: string; status: 'PENDING' | 'TXN_SUCCESS' | 'TXN_FAILURE' };
  createdAt: string;
}

export interface CreateOrderSpec {
  txnAmount: { value: string; currency?: 'INR' };
  mid?: string;
  orderId?: string;
  custId?: string;
  /** Links the customer's wallet (a test instrument) for WALLET and PAYMENT_DIGITAL_CREDIT payments. */
  svcSsoToken?: string;
  goodsInfo?: Schemas['GoodsInfo'][];
  shippingInfo?: Schemas['ShippingInfo'][];
  extendInfo?: Record<string, string>;
}

export interface Sandbox {
  /** `http://127.0.0.1:<port>`: both the gateway (`{base_url}`) and the router (`{router_url}`). */
  url: string;
  port: number;
  mids: string[];
  clientId: string;
  /** The RSA public key (PEM) to encrypt card data for tokenize with `encryptCardData`. */
  publicKeyPem: string;
  /** Answers that broke the contract, with `checkAnswers` (empty when all is well). */
  answerProblems: { operationId: string; code: string; issues: { pointer: string; rule: string; message: string }[] }[];
  clock: {
    now(): number;
    /** Moves the clock forward; token changes that became due run and their webhooks are delivered before it resolves. */
    advance(ms: number): Promise<void>;
  };
  /** The control call POST /sandbox/orders. Throws (with `status`) what the call answers with an error. */
  createOrder(spec: CreateOrderSpec): { mid: string; orderId: string; txnToken: string; txnTokenExpiresAt: string; order: SandboxOrder };
  /** The control call POST /sandbox/orders/{orderId}/complete. */
  completePayment(orderId: string, outcome: 'success' | 'failure', mid?: string): { order: SandboxOrder; txnInfo: Schemas['TransactionInfo'] };
  /** Every token status notification so far, oldest first. */
  deliveries(): WebhookDelivery[];
  /** Resolves when every delivery started so far has ended. */
  idle(): Promise<void>;
  /** The control call POST /sandbox/reset. */
  reset(): void;
  /** Stops the server (idempotent). */
  stop(): Promise<void>;
}

/** Starts the sandbox and resolves once it listens. */
export declare function startSandbox(options?: SandboxOptions): Promise<Sandbox>;

/** The sandbox's default merchant id. */
export declare const DEFAULT_MID: 'MERCHANT0001';
/** The sandbox's default merchant key: a published test key, never a real secret. */
export declare const DEFAULT_MERCHANT_KEY: 'SandboxTestKey01';
export declare const DEFAULT_CLIENT_ID: 'C11';
export declare const DEFAULT_PORT: 4020;
/** Transaction tokens live 15 minutes. */
export declare const TXN_TOKEN_TTL_MS: 900000;
export declare const DEFAULT_TOKEN_ACTIVATION_DELAY_MS: 5000;

/** The text txnInfo.checksumHash signs: every other field's value, keys in code-point order, joined with "|" (null as ""). */
export declare function txnInfoChecksumText(txnInfo: Record<string, unknown>): string;
/** Whether txnInfo.checksumHash is the merchant-key CHECKSUM of the other txnInfo values. */
export declare function verifyTxnInfoChecksum(txnInfo: Record<string, unknown>, merchantKey: string): boolean;
