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

/** What a merchant's reply came to: `delivered` (valid, 00), `not-accepted` (valid, another code), `invalid-reply`. */
export type ReplyVerdict = 'delivered' | 'not-accepted' | 'invalid-reply';

/** What is kept of why an attempt failed (never more: a sender given in the options may throw anything). */
export interface AttemptError {
  name: string;
  kind?: string;
  message: string;
}

/** One attempt to deliver a notification, and what came of it: a reply and its verdict, or a failure. */
export type WebhookAttempt =
  | { at: string; state: ReplyVerdict; httpStatus: number; code?: string; error?: never }
  | { at: string; state: 'failed'; error: AttemptError; httpStatus?: never; code?: never };

/** What every state of a delivery has. */
interface DeliveryBase {
  id: string;
  tokenIndexNumber: string;
  tokenStatus: Schemas['TokenStatus'];
  mid: string;
  url: string | null;
  requestId: string;
  createdAt: string;
  /** Every attempt so far, oldest first (at most 1 + webhookRetry.retries). */
  attempts: WebhookAttempt[];
  /** A copy sent by the fault duplicate-webhook: the id of the delivery it repeats (same requestId and bytes). */
  duplicateOf?: string;
  /** Held back by the fault reorder-webhooks, to go out after the notification that follows it. */
  reordered?: true;
}

/** The latest attempt was answered: the merchant's reply and its verdict against the contract. */
export interface LastReply {
  httpStatus: number;
  code?: string;
  outcome: 'success' | 'pending' | 'failure';
  valid: boolean;
  issues: SendTokenNotificationResult['issues'];
  reply: unknown;
  error?: never;
  completedAt: string;
}

/** The latest attempt got no usable reply. */
export interface LastFailure {
  httpStatus?: never;
  code?: never;
  outcome?: never;
  valid?: never;
  issues?: never;
  reply?: never;
  error: AttemptError;
  completedAt: string;
}

/** No attempt has ended yet. */
interface NoAttemptYet {
  httpStatus?: never;
  code?: never;
  outcome?: never;
  valid?: never;
  issues?: never;
  reply?: never;
  error?: never;
  completedAt?: never;
}

/** What the latest attempt left in the record: a pending or skipped delivery keeps what an earlier attempt left. */
export type LastAttempt = NoAttemptYet | LastReply | LastFailure;

/** After an attempt that ended: the next one is due (sandbox time), or none follows and `reason` may say why. */
export type AfterAttempt = { nextAttemptAt: string; reason?: never } | { nextAttemptAt?: never; reason?: string };

/** An attempt on its way, waiting for its turn, or held back by the fault reorder-webhooks. */
export type PendingDelivery = DeliveryBase & { state: 'pending'; nextAttemptAt?: never; reason?: never } & LastAttempt;
/** The latest attempt was answered (`delivered`, `not-accepted` or `invalid-reply`). */
export type AnsweredDelivery = DeliveryBase & { state: ReplyVerdict } & LastReply & AfterAttempt;
/** The latest attempt got no usable reply. */
export type FailedDelivery = DeliveryBase & { state: 'failed' } & LastFailure & AfterAttempt;
/** Not sent: no URL, or forgotten (by a reset, a stop or the retention) before its turn; `reason` says which. */
export type SkippedDelivery = DeliveryBase & { state: 'skipped'; reason: string; nextAttemptAt?: never } & LastAttempt;

/**
 * One token status notification the sandbox sent (or could not send), by the state of its latest
 * attempt: its type says which fields it has (docs/decisions.md, D-133).
 */
export type WebhookDelivery = PendingDelivery | AnsweredDelivery | FailedDelivery | SkippedDelivery;
