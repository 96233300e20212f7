// The seed of test instruments (instruments.json): loaded once at start, checked, and turned into
// lookups. The behaviour of an instrument is one of success, failure or pending; cards add what
// tokenize does with them.
import { readFile } from 'node:fs/promises';
import { resultCodes } from '../../generated/resultCodes.js';
import { passesLuhn } from '../card/encryptCardData.js';
import { toPaise } from './money.js';

/** @typedef {'success' | 'failure' | 'pending'} Outcome */
/** @typedef {{ number: string, scheme: string, cardType: 'CC' | 'DC', issuingBankName: string, tokenize: string, pay: Outcome | 'invalid', known: boolean }} CardInstrument */
/** @typedef {{ name: string, svcSsoToken: string, balance: number, digitalCredit: number, pay?: Outcome }} WalletSeed */

export const SEED_FILE = new URL('./instruments.json', import.meta.url);
const OUTCOMES = ['success', 'failure', 'pending'];
const TOKENIZE_STATES = ['ACTIVE', 'INIT_THEN_ACTIVE', 'INIT_THEN_FAILED', 'FAILED'];
const TOKENIZE_FAILURES = new Set(resultCodes.tokenizeCard.codes.filter((c) => c.status === 'FAILED').map((c) => c.code));

/** Reads the seed file (or takes a seed object) and checks it. @param {string | URL | object} [source] */
export async function loadInstruments(source = SEED_FILE) {
  const seed = typeof source === 'object' && !(source instanceof URL) ? source : JSON.parse(await readFile(source, 'utf8'));
  return createInstruments(seed);
}

/** The scheme of a card number that is not in the seed, from its first digits. @param {string} number */
function schemeOf(number) {
  if (number.startsWith('4')) return 'VISA';
  const two = Number(number.slice(0, 2));
  const four = Number(number.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'MASTER';
  if (['60', '65', '81', '82'].includes(number.slice(0, 2)) || number.startsWith('508')) return 'RUPAY';
  return 'OTHER';
}

/** @param {any} seed */
export function createInstruments(seed) {
  const problems = [];
  /** @type {Map<string, CardInstrument>} */
  const cards = new Map();
  for (const [i, c] of (seed?.cards?.numbers ?? []).entries()) {
    if (typeof c?.number !== 'string' || !/^[0-9]{12,19}$/.test(c.number) || !passesLuhn(c.number)) problems.push(`cards.numbers[${i}].number must be 12 to 19 digits passing the Luhn check`);
    if (!['CC', 'DC'].includes(c?.cardType)) problems.push(`cards.numbers[${i}].cardType must be CC or DC`);
    if (!TOKENIZE_STATES.includes(c?.tokenize) && !TOKENIZE_FAILURES.has(c?.tokenize)) problems.push(`cards.numbers[${i}].tokenize must be one of ${TOKENIZE_STATES.join(', ')} or a FAILED code of the tokenize table`);
    if (![...OUTCOMES, 'invalid'].includes(c?.pay)) problems.push(`cards.numbers[${i}].pay must be success, failure, pending or invalid`);
    cards.set(c?.number, { number: c?.number, scheme: c?.scheme, cardType: c?.cardType, issuingBankName: c?.issuingBankName ?? 'Sandbox Bank', tokenize: c?.tokenize, pay: c?.pay, known: true });
  }
  const table = (/** @type {string} */ name, /** @type {any} */ map) => {
    for (const [k, v] of Object.entries(map ?? {})) if (!OUTCOMES.includes(/** @type {string} */ (v))) problems.push(`${name}.${k} must be success, failure or pending`);
    return new Map(Object.entries(map ?? {}));
  };
  const vpas = table('upi.vpas', seed?.upi?.vpas);
  const banks = table('banks.codes', seed?.banks?.codes);
  const mpins = table('ppbl.mpins', seed?.ppbl?.mpins);
  /** @type {WalletSeed[]} */
  const wallets = [];
  for (const [i, w] of (seed?.wallets?.accounts ?? []).entries()) {
    const balance = toPaise(w?.balance);
    const digitalCredit = toPaise(w?.digitalCredit ?? '0');
    if (typeof w?.svcSsoToken !== 'string' || !w.svcSsoToken) problems.push(`wallets.accounts[${i}].svcSsoToken must be a non-empty string`);
    if (balance === null || digitalCredit === null) problems.push(`wallets.accounts[${i}] balance and digitalCredit must be amounts`);
    if (w?.pay !== undefined && !OUTCOMES.includes(w.pay)) problems.push(`wallets.accounts[${i}].pay must be success, failure or pending`);
    wallets.push({ name: String(w?.name ?? `wallet${i}`), svcSsoToken: w?.svcSsoToken, balance: balance ?? 0, digitalCredit: digitalCredit ?? 0, ...(w?.pay ? { pay: w.pay } : {}) });
  }
  const defaultWallet = seed?.wallets?.default;
  if (!wallets.some((w) => w.svcSsoToken === defaultWallet)) problems.push('wallets.default must be the svcSsoToken of one of wallets.accounts');
  const limits = {
    preAuthMaxBlockSeconds: Number(seed?.limits?.preAuthMaxBlockSeconds ?? 604800),
    upiSubscriptionMaxAmount: toPaise(seed?.limits?.upiSubscriptionMaxAmount ?? '15000.00') ?? 0,
    subscriptionMaxAmount: toPaise(seed?.limits?.subscriptionMaxAmount ?? '1000000.00') ?? 0,
  };
  if (!Number.isSafeInteger(limits.preAuthMaxBlockSeconds) || limits.preAuthMaxBlockSeconds <= 0) problems.push('limits.preAuthMaxBlockSeconds must be a positive whole number');
  if (problems.length) throw new TypeError(`The sandbox's test instruments are not valid: ${problems.join('; ')}.`);
  const upiDefault = OUTCOMES.includes(seed?.upi?.default) ? seed.upi.default : 'success';
  const ppblDefault = OUTCOMES.includes(seed?.ppbl?.default) ? seed.ppbl.default : 'failure';

  return {
    seed,
    wallets,
    defaultWallet: /** @type {string} */ (defaultWallet),
    limits,
    /** The card behind a number: from the seed, or the default behaviour of other Luhn-valid numbers. @param {string} number @returns {CardInstrument} */
    card(number) {
      const known = cards.get(number);
      if (known) return known;
      const scheme = schemeOf(number);
      return { number, scheme, cardType: 'CC', issuingBankName: 'Sandbox Bank', tokenize: scheme === 'OTHER' ? '420' : 'ACTIVE', pay: 'success', known: false };
    },
    /** @param {string} vpa @returns {Outcome} */
    vpa: (vpa) => /** @type {Outcome} */ (vpas.get(vpa.toLowerCase()) ?? upiDefault),
    /** The outcome of a bank code, or undefined for a code the sandbox does not know. @param {string} code @returns {Outcome | undefined} */
    bank: (code) => /** @type {Outcome | undefined} */ (banks.get(code)),
    bankCodes: () => [...banks.keys()],
    /** @param {string} mpin @returns {Outcome} */
    mpin: (mpin) => /** @type {Outcome} */ (mpins.get(mpin) ?? ppblDefault),
  };
}

/** @typedef {ReturnType<typeof createInstruments>} Instruments */
