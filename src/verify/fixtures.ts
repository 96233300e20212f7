// What verify needs that the contract does not describe: creating an order and its transaction
// token (order creation is referred to, not described), the RSA key of `encryptedCardData`, test
// instruments the service accepts, and where token notifications are sent. A staging service
// provides them through a small module (`--fixtures <module>`, docs/verify.md); the package's own
// sandbox provides them through its control API (`--sandbox <url>`).

/** A card to tokenize and pay with, as the merchant's customer types it. */
export interface FixtureCard {
  number: string;
  expiryMonth: string;
  expiryYear: string;
  securityCode: string;
}

/** Instruments the service accepts and pays with success, for requests that must not be refused. */
export interface FixtureInstruments {
  /** A card that tokenizes ACTIVE at once and pays with success. */
  card: FixtureCard;
  /** A net-banking bank code (`channelCode`) that pays with success. */
  bankCode: string;
  /** A VPA (`payerAccount`) whose UPI collect succeeds. */
  vpa: string;
  /** The SSO token of a funded wallet: pre-auth of BALANCE, wallet payments, list subscriptions. */
  svcSsoToken: string;
  /** An SSO token of a wallet too low for `lowBalanceAmount` (pre-auth answers WM_1006); optional. */
  lowBalance?: { svcSsoToken: string; amount: string } | undefined;
}

/** A token status a fixture can move a card token to, as its issuer would. */
export type IssuerMove = 'ACTIVE' | 'SUSPENDED' | 'DEAD';

/** What a fixtures module provides (its default export, or what its default export returns). */
export interface VerifyFixtures {
  /** Creates an order of `amount` (rupees, two decimals) for `custId`, and answers its transaction token. */
  createOrder(order: { orderId: string; amount: string; custId: string }): Promise<{ txnToken: string }>;
  /** The RSA public key (PEM) that `encryptedCardData` is encrypted with. */
  cardEncryptionKey(): Promise<string>;
  instruments: FixtureInstruments;
  /**
   * Arranges that the service sends the merchant's token status notifications to `url` (verify's own
   * receiver, on 127.0.0.1), or stops sending them there with `null`. Without it, notifications are
   * not checked.
   */
  notifyTo?(url: string | null): Promise<void>;
  /** Moves a card token as its issuer would, so that a notification follows. Without it, only tokenize's notifications are checked. */
  moveToken?(tokenIndexNumber: string, status: IssuerMove): Promise<void>;
  /** Closes an order not yet paid, as the merchant's system would. Without it, closed orders (410) are not checked. */
  closeOrder?(orderId: string): Promise<void>;
  /** Ends a payment in process with success (the bank page of a bank form). Without it, state checks stop at "in process". */
  completePayment?(orderId: string): Promise<void>;
  /** Lets time pass on the service's side (a sandbox clock), in ms; without it, verify waits in real time where it must. */
  advanceTime?(ms: number): Promise<void>;
}

/** How a fixtures module is called: the target's addresses and merchant id. */
export interface FixturesContext {
  gatewayUrl: string;
  routerUrl: string;
  mid: string;
}

/** What a fixtures module exports by default. */
export type FixturesFactory = (context: FixturesContext) => VerifyFixtures | Promise<VerifyFixtures>;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Why a value is not usable fixtures, or undefined when it is. */
export function fixturesProblem(value: unknown): string | undefined {
  if (!isObject(value))
    return 'The fixtures module must export by default an object or a function that returns one (docs/verify.md).';
  for (const name of ['createOrder', 'cardEncryptionKey'])
    if (typeof value[name] !== 'function') return `The fixtures lack ${name}(), a function (docs/verify.md).`;
  for (const name of ['notifyTo', 'moveToken', 'closeOrder', 'completePayment', 'advanceTime'])
    if (value[name] !== undefined && typeof value[name] !== 'function')
      return `The fixtures' ${name} must be a function when it is given.`;
  const instruments = value.instruments;
  if (!isObject(instruments)) return 'The fixtures lack instruments: { card, bankCode, vpa, svcSsoToken }.';
  for (const name of ['bankCode', 'vpa', 'svcSsoToken'])
    if (typeof instruments[name] !== 'string' || instruments[name] === '')
      return `The fixtures' instruments.${name} must be a string.`;
  const card = instruments.card;
  if (
    !isObject(card) ||
    ['number', 'expiryMonth', 'expiryYear', 'securityCode'].some((k) => typeof card[k] !== 'string')
  )
    return "The fixtures' instruments.card must be { number, expiryMonth, expiryYear, securityCode }, strings.";
  return undefined;
}
