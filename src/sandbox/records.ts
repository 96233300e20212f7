// The shapes of what the sandbox keeps in its store: orders and their transactions, issued
// transaction tokens, pre-auths and wallet blocks, card tokens, subscriptions and webhook
// deliveries. Fields that come from a request have the contract's types; amounts are paise and
// times epoch milliseconds unless a field says otherwise.
import type { BodyOf, Schemas } from '../types.js';
import type { SendTokenNotificationResult } from '../webhook/send.js';
import type { MinHeap } from './heap.js';
import type { Outcome, WalletSeed } from './instruments.js';

/** A pay mode: what pay's paymentMode names. */
export type PaymentMode = BodyOf<'initiatePayment'>['paymentMode'];
export type OrderKind = 'PAYMENT' | 'SUBSCRIPTION' | 'PRE_AUTH';
export type OrderStatus = 'CREATED' | 'PENDING' | 'PAID' | 'CLOSED';

export interface Order {
  mid: string;
  orderId: string;
  kind: OrderKind;
  status: OrderStatus;
  closedReason?: string;
  amount: number;
  custId?: string;
  /** The svcSsoToken of the wallet that pays WALLET and PAYMENT_DIGITAL_CREDIT payments. */
  walletToken: string;
  goodsInfo?: Schemas['GoodsInfo'][];
  shippingInfo?: Schemas['ShippingInfo'][];
  extendInfo?: Schemas['OrderExtendInfo'];
  modifications: number;
  createdAt: number;
  subscriptionId?: string;
  preAuthType?: PreAuthType;
  /** The pay modes that may pay the order (all when absent). */
  paymentModes?: PaymentMode[];
  /** Its transactions, oldest first. */
  txnIds: string[];
}

/** A transaction token the sandbox issued, for one order. */
export interface IssuedTxnToken {
  mid: string;
  orderId: string;
  expiresAt: number;
}

/** Where a wallet payment takes the money from; add-and-pay tops the balance up first. */
export interface Funding {
  walletToken: string;
  source: 'balance' | 'digitalCredit' | 'addMoney';
  /** The amount is held in the wallet until the payment ends (a payment in process). */
  held?: boolean;
}

export interface Transaction {
  txnId: string;
  mid: string;
  orderId: string;
  amount: number;
  paymentMode: PaymentMode;
  gatewayName: string;
  /** txnInfo.paymentMode, for the modes that report one. */
  txnInfoMode?: NonNullable<Schemas['TransactionInfo']['paymentMode']>;
  /** What the instrument decided; `pending` waits for a control call. */
  outcome: Outcome;
  status: Schemas['TransactionStatus'];
  bankTxnId: string;
  vpa?: string;
  createdAt: number;
  completedAt?: number;
  funding?: Funding;
}

/** An amount a pre-auth holds in a wallet until it expires. */
export interface Block {
  preAuthId: string;
  source: 'balance' | 'digitalCredit';
  amount: number;
  expiresAt: number;
}

export interface Wallet extends WalletSeed {
  /** The pre-auth blocks in force, by preAuthId. */
  blocks: Map<string, Block>;
  /** The same blocks in order of expiry. */
  expiries: MinHeap<Block>;
  /** Per source, what blocks and payments in process hold (paise). */
  held: { balance: number; digitalCredit: number };
}

export type PreAuthType = NonNullable<BodyOf<'preAuthorize'>['cardPreAuthType']>;

export interface PreAuth {
  mid: string;
  orderId: string;
  preAuthId: string;
  type: PreAuthType;
  paymentMode: BodyOf<'preAuthorize'>['paymentMode'] | null;
  status: 'BLOCKED' | 'AUTHORIZED' | 'PENDING' | 'FAILED';
  amount: number;
  blockedAmount?: number;
  expiresAt?: number;
  /** The svcSsoToken of the wallet that holds its block, when it blocked wallet money. */
  walletToken?: string;
  createdAt: number;
  /** The code the pre-auth answered. */
  statusCode: string;
}

export interface CardToken {
  tokenIndexNumber: string;
  mid: string;
  custId: string;
  cardScheme: Schemas['CardScheme'];
  cardType: Schemas['TokenInfo']['cardType'];
  issuingBankName: string;
  cardSuffix: string;
  tokenBin: string;
  tokenSuffix: string;
  /** MMYYYY. */
  tokenExpiry: string;
  panUniqueReference: string;
  /** Set when the token first becomes ACTIVE. */
  tokenUniqueReference?: string;
  displayName: string;
  tokenStatus: Schemas['TokenStatus'];
  /** How a payment with the token ends. */
  pay: Outcome;
  /** ISO 8601. */
  createdAt: string;
  /** Its latest status changes, oldest first: at most MAX_TOKEN_HISTORY (D-67). */
  history: { status: Schemas['TokenStatus']; at: string }[];
}

type SubscriptionBody = BodyOf<'createSubscription'>;

export interface Subscription {
  subscriptionId: string;
  mid: string;
  custId: string;
  orderId: string;
  requestType: SubscriptionBody['requestType'];
  /** The sandbox's statuses (the description shows none); EXPIRED is computed when listed. */
  status: 'INIT' | 'ACTIVE' | 'FAILED';
  subscriptionAmountType: SubscriptionBody['subscriptionAmountType'];
  /** The first payment. */
  txnAmount: number;
  renewalAmount?: number;
  subscriptionMaxAmount?: number;
  subscriptionFrequencyUnit: SubscriptionBody['subscriptionFrequencyUnit'];
  subscriptionFrequency: string;
  subscriptionStartDate: string;
  subscriptionExpiryDate: string;
  subscriptionGraceDays: SubscriptionBody['subscriptionGraceDays'];
  subscriptionPaymentMode: SubscriptionBody['subscriptionPaymentMode'];
  subscriptionEnableRetry: SubscriptionBody['subscriptionEnableRetry'];
  subscriptionRetryCount: SubscriptionBody['subscriptionRetryCount'];
  autoRenewal: SubscriptionBody['autoRenewal'];
  autoRetry: SubscriptionBody['autoRetry'];
  websiteName: string;
  createdAt: number;
}

/** One token status notification the sandbox sent (or could not send). */
/** One attempt to deliver a notification, and what came of it. */
export interface WebhookAttempt {
  at: string;
  state: 'delivered' | 'not-accepted' | 'invalid-reply' | 'failed';
  httpStatus?: number;
  code?: string;
  error?: { name: string; kind?: string; message: string };
}

export interface WebhookDelivery {
  id: string;
  tokenIndexNumber: string;
  tokenStatus: Schemas['TokenStatus'];
  mid: string;
  url: string | null;
  requestId: string;
  createdAt: string;
  completedAt?: string;
  /**
   * The outcome of the latest attempt: `delivered` (valid reply, 00), `not-accepted` (valid reply,
   * another code), `invalid-reply`, `failed` (no usable reply), `skipped` (no URL), `pending` (an
   * attempt on its way, or held back by the fault reorder-webhooks).
   */
  state: 'pending' | 'delivered' | 'not-accepted' | 'invalid-reply' | 'failed' | 'skipped';
  httpStatus?: number;
  code?: string;
  outcome?: 'success' | 'pending' | 'failure';
  valid?: boolean;
  issues?: SendTokenNotificationResult['issues'];
  reply?: unknown;
  error?: { name: string; kind?: string; message: string };
  /** Why the delivery ended without reaching the merchant, or why no further attempt is made. */
  reason?: string;
  /** Every attempt so far, oldest first (at most 1 + webhookRetry.retries). */
  attempts: WebhookAttempt[];
  /** When the next attempt is due (sandbox time), while one is scheduled. */
  nextAttemptAt?: string;
  /** A copy sent by the fault duplicate-webhook: the id of the delivery it repeats (same requestId and bytes). */
  duplicateOf?: string;
  /** Held back by the fault reorder-webhooks, to go out after the notification that follows it. */
  reordered?: true;
}
