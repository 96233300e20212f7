// The seed of test instruments (by default the built-in seed, instrumentSeed.ts): loaded once at start, checked, and turned into
// lookups. The behaviour of an instrument is one of success, failure or pending; cards add what
// tokenize does with them.
import { readFile } from 'node:fs/promises';
import { type ResultCodeCatalog, resultCodes } from '../../generated/resultCodes.js';
import { passesLuhn } from '../card/encryptCardData.js';
import { amountInPaise } from '../validation/amount.js';
import { INSTRUMENT_SEED } from './instrumentSeed.js';
import { memberOf } from './untrusted.js';

export type Outcome = 'success' | 'failure' | 'pending';
/** What tokenize does with a card: a token in a state (INIT then its final state), or no token. */
export type TokenizeState = 'ACTIVE' | 'INIT_THEN_ACTIVE' | 'INIT_THEN_FAILED' | 'FAILED';
/** A FAILED code of the tokenize table: tokenize refuses the card with it and makes no token. */
export type TokenizeRefusal = Extract<ResultCodeCatalog['tokenizeCard']['codes'][number], { status: 'FAILED' }>['code'];

export interface CardInstrument {
  number: string;
  scheme: string;
  cardType: 'CC' | 'DC';
  issuingBankName: string;
  tokenize: TokenizeState | TokenizeRefusal;
  pay: Outcome | 'invalid';
  known: boolean;
}

export interface WalletSeed {
  name: string;
  svcSsoToken: string;
  /** Paise. */
  balance: number;
  /** Paise. */
  digitalCredit: number;
  pay?: Outcome;
}

export interface Instruments {
  /** The seed as given (the control API shows it). */
  readonly seed: unknown;
  readonly wallets: readonly WalletSeed[];
  /** The wallet of orders created without an svcSsoToken. */
  readonly defaultWallet: string;
  readonly limits: {
    readonly preAuthMaxBlockSeconds: number;
    readonly upiSubscriptionMaxAmount: number;
    readonly subscriptionMaxAmount: number;
  };
  /** The card behind a number: from the seed, or the default behaviour of other Luhn-valid numbers. */
  card(number: string): CardInstrument;
  vpa(vpa: string): Outcome;
  /** The outcome of a bank code, or undefined for a code the sandbox does not know. */
  bank(code: string): Outcome | undefined;
  bankCodes(): string[];
  mpin(mpin: string): Outcome;
}

/** A test that a value is one of `values`. */
function oneOf<T>(values: readonly T[]): (value: unknown) => value is T {
  const set: ReadonlySet<unknown> = new Set(values);
  return (value): value is T => set.has(value);
}

const isOutcome = oneOf<Outcome>(['success', 'failure', 'pending']);
const isPayBehaviour = oneOf<CardInstrument['pay']>(['success', 'failure', 'pending', 'invalid']);
const isCardType = oneOf<CardInstrument['cardType']>(['CC', 'DC']);
const TOKENIZE_STATES: readonly TokenizeState[] = ['ACTIVE', 'INIT_THEN_ACTIVE', 'INIT_THEN_FAILED', 'FAILED'];
const isTokenizeBehaviour = oneOf<CardInstrument['tokenize']>([
  ...TOKENIZE_STATES,
  ...resultCodes.tokenizeCard.codes
    .filter((c): c is Extract<typeof c, { status: 'FAILED' }> => c.status === 'FAILED')
    .map((c) => c.code),
]);

/** Whether tokenize refuses the card with a code of its table (the states are words, the codes digits). */
export const isTokenizeRefusal = (tokenize: CardInstrument['tokenize']): tokenize is TokenizeRefusal =>
  /^[0-9]+$/.test(tokenize);

/** Reads a seed file (or takes a seed object; by default the built-in seed) and checks it. */
export async function loadInstruments(source: string | URL | object = INSTRUMENT_SEED): Promise<Instruments> {
  const seed: unknown =
    typeof source === 'object' && !(source instanceof URL) ? source : JSON.parse(await readFile(source, 'utf8'));
  return createInstruments(seed);
}

/** The scheme of a card number that is not in the seed, from its first digits. */
function schemeOf(number: string): 'VISA' | 'MASTER' | 'RUPAY' | 'OTHER' {
  if (number.startsWith('4')) return 'VISA';
  const two = Number(number.slice(0, 2));
  const four = Number(number.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'MASTER';
  if (['60', '65', '81', '82'].includes(number.slice(0, 2)) || number.startsWith('508')) return 'RUPAY';
  return 'OTHER';
}

/** The items of a list of the seed with their indexes; an absent list has none. */
function itemsOf(value: unknown, what: string, problems: string[]): [number, unknown][] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push(`${what} must be a list`);
    return [];
  }
  return [...value.entries()];
}

export function createInstruments(seed: unknown): Instruments {
  const problems: string[] = [];
  const cards = new Map<string, CardInstrument>();
  for (const [i, c] of itemsOf(memberOf(seed, 'cards', 'numbers'), 'cards.numbers', problems)) {
    const number = memberOf(c, 'number');
    const cardType = memberOf(c, 'cardType');
    const tokenize = memberOf(c, 'tokenize');
    const pay = memberOf(c, 'pay');
    const numberOk = typeof number === 'string' && /^[0-9]{12,19}$/.test(number) && passesLuhn(number);
    if (!numberOk) problems.push(`cards.numbers[${i}].number must be 12 to 19 digits passing the Luhn check`);
    if (!isCardType(cardType)) problems.push(`cards.numbers[${i}].cardType must be CC or DC`);
    if (!isTokenizeBehaviour(tokenize))
      problems.push(
        `cards.numbers[${i}].tokenize must be one of ${TOKENIZE_STATES.join(', ')} or a FAILED code of the tokenize table`,
      );
    if (!isPayBehaviour(pay)) problems.push(`cards.numbers[${i}].pay must be success, failure, pending or invalid`);
    if (
      typeof number !== 'string' ||
      !numberOk ||
      !isCardType(cardType) ||
      !isTokenizeBehaviour(tokenize) ||
      !isPayBehaviour(pay)
    )
      continue;
    cards.set(number, {
      number,
      // The scheme and the bank's name are not checked: they are passed on as the seed gives them
      // (its documented cards include a scheme the contract does not know, AMEX).
      scheme: memberOf(c, 'scheme') as string,
      cardType,
      issuingBankName: (memberOf(c, 'issuingBankName') ?? 'Sandbox Bank') as string,
      tokenize,
      pay,
      known: true,
    });
  }
  const table = (name: string, map: unknown): Map<string, Outcome> => {
    const entries: [string, unknown][] = Object.entries(map ?? {});
    const outcomes = new Map<string, Outcome>();
    for (const [k, v] of entries) {
      if (isOutcome(v)) outcomes.set(k, v);
      else problems.push(`${name}.${k} must be success, failure or pending`);
    }
    return outcomes;
  };
  const vpas = table('upi.vpas', memberOf(seed, 'upi', 'vpas'));
  const banks = table('banks.codes', memberOf(seed, 'banks', 'codes'));
  const mpins = table('ppbl.mpins', memberOf(seed, 'ppbl', 'mpins'));
  const wallets: WalletSeed[] = [];
  /** Each account's svcSsoToken as given, for finding the default among them. */
  const givenTokens: unknown[] = [];
  for (const [i, w] of itemsOf(memberOf(seed, 'wallets', 'accounts'), 'wallets.accounts', problems)) {
    const balance = amountInPaise(memberOf(w, 'balance'));
    const digitalCredit = amountInPaise(memberOf(w, 'digitalCredit') ?? '0');
    const svcSsoToken = memberOf(w, 'svcSsoToken');
    const pay = memberOf(w, 'pay');
    if (typeof svcSsoToken !== 'string' || !svcSsoToken)
      problems.push(`wallets.accounts[${i}].svcSsoToken must be a non-empty string`);
    if (balance === null || digitalCredit === null)
      problems.push(`wallets.accounts[${i}] balance and digitalCredit must be amounts`);
    if (pay !== undefined && !isOutcome(pay))
      problems.push(`wallets.accounts[${i}].pay must be success, failure or pending`);
    givenTokens.push(svcSsoToken);
    wallets.push({
      name: String(memberOf(w, 'name') ?? `wallet${i}`),
      svcSsoToken: typeof svcSsoToken === 'string' ? svcSsoToken : '',
      balance: balance ?? 0,
      digitalCredit: digitalCredit ?? 0,
      ...(isOutcome(pay) ? { pay } : {}),
    });
  }
  const defaultIndex = givenTokens.indexOf(memberOf(seed, 'wallets', 'default'));
  if (defaultIndex < 0) problems.push('wallets.default must be the svcSsoToken of one of wallets.accounts');
  const limits = {
    preAuthMaxBlockSeconds: Number(memberOf(seed, 'limits', 'preAuthMaxBlockSeconds') ?? 604800),
    upiSubscriptionMaxAmount: amountInPaise(memberOf(seed, 'limits', 'upiSubscriptionMaxAmount') ?? '15000.00') ?? 0,
    subscriptionMaxAmount: amountInPaise(memberOf(seed, 'limits', 'subscriptionMaxAmount') ?? '1000000.00') ?? 0,
  };
  if (!Number.isSafeInteger(limits.preAuthMaxBlockSeconds) || limits.preAuthMaxBlockSeconds <= 0)
    problems.push('limits.preAuthMaxBlockSeconds must be a positive whole number');
  const defaultWallet = wallets[defaultIndex];
  if (problems.length || !defaultWallet)
    throw new TypeError(`The sandbox's test instruments are not valid: ${problems.join('; ')}.`);
  const upiDefault = memberOf(seed, 'upi', 'default');
  const ppblDefault = memberOf(seed, 'ppbl', 'default');
  const vpaDefault: Outcome = isOutcome(upiDefault) ? upiDefault : 'success';
  const mpinDefault: Outcome = isOutcome(ppblDefault) ? ppblDefault : 'failure';

  return {
    seed,
    wallets,
    defaultWallet: defaultWallet.svcSsoToken,
    limits,
    card(number) {
      const known = cards.get(number);
      if (known) return known;
      const scheme = schemeOf(number);
      return {
        number,
        scheme,
        cardType: 'CC',
        issuingBankName: 'Sandbox Bank',
        tokenize: scheme === 'OTHER' ? '420' : 'ACTIVE',
        pay: 'success',
        known: false,
      };
    },
    vpa: (vpa) => vpas.get(vpa.toLowerCase()) ?? vpaDefault,
    bank: (code) => banks.get(code),
    bankCodes: () => [...banks.keys()],
    mpin: (mpin) => mpins.get(mpin) ?? mpinDefault,
  };
}
