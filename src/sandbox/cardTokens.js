// Card tokens made by tokenize, and their life: INIT becomes ACTIVE or FAILED after a delay (or on a
// control call), ACTIVE and SUSPENDED move between each other, and either may become DEAD. Every
// change sends the token status notification (section 6). The description shows no transitions
// (3.1); these are the sandbox's, recorded in DECISIONS.md.
import { newTokenIndexNumber, randomDigits } from './ids.js';

/** Which status each status may move to. */
export const TRANSITIONS = Object.freeze({
  INIT: ['ACTIVE', 'FAILED'],
  ACTIVE: ['SUSPENDED', 'DEAD'],
  SUSPENDED: ['ACTIVE', 'DEAD'],
  FAILED: [],
  DEAD: [],
});

const TOKEN_BINS = /** @type {Record<string, string>} */ ({ VISA: '489537', MASTER: '522223', RUPAY: '608001' });

/**
 * @param {{ store: import('./store.js').Store, clock: import('./clock.js').Clock, scheduler: ReturnType<typeof import('./scheduler.js').createScheduler>,
 *   webhooks: import('./webhooks.js').Webhooks, config: import('./config.js').SandboxConfig }} deps
 */
export function createCardTokens({ store, clock, scheduler, webhooks, config }) {
  /** The token as the notification carries it (TokenInfo, section 2.2). @param {any} token */
  function tokenInfo(token) {
    return {
      tokenIndexNumber: token.tokenIndexNumber,
      cardScheme: token.cardScheme,
      tokenExpiry: token.tokenExpiry,
      issuingBankName: token.issuingBankName,
      cardSuffix: token.cardSuffix,
      ...(token.tokenUniqueReference ? { tokenUniqueReference: token.tokenUniqueReference } : {}),
      panUniqueReference: token.panUniqueReference,
      cardType: token.cardType,
      displayName: token.displayName,
      tokenSuffix: token.tokenSuffix,
      tokenStatus: token.tokenStatus,
      tokenBin: token.tokenBin,
    };
  }

  /** Changes the status and notifies the merchant. @param {any} token @param {string} status */
  function setStatus(token, status) {
    token.tokenStatus = status;
    if (status === 'ACTIVE' && !token.tokenUniqueReference) token.tokenUniqueReference = `DNITHE${randomDigits(18)}`;
    token.history.push({ status, at: new Date(clock.now()).toISOString() });
    return webhooks.notify(token.mid, tokenInfo(token));
  }

  return {
    tokenInfo,
    /**
     * A new token for a card (the card number itself is not kept: only its last four digits).
     * @param {{ mid: string, custId: string, card: import('./instruments.js').CardInstrument, cardSuffix: string, expiryMonth: string, expiryYear: string }} spec
     * @param {'ACTIVE' | 'FAILED' | 'INIT'} status @param {'ACTIVE' | 'FAILED'} [then] what an INIT token becomes
     */
    create(spec, status, then) {
      const cardKind = spec.card.cardType === 'DC' ? 'Debit' : 'Credit';
      const token = {
        tokenIndexNumber: newTokenIndexNumber(), mid: spec.mid, custId: spec.custId,
        cardScheme: spec.card.scheme, cardType: spec.card.cardType, issuingBankName: spec.card.issuingBankName,
        cardSuffix: spec.cardSuffix, tokenBin: TOKEN_BINS[spec.card.scheme] ?? '400000', tokenSuffix: randomDigits(4),
        tokenExpiry: `${spec.expiryMonth}${spec.expiryYear}`, panUniqueReference: `PUR${randomDigits(21)}`,
        displayName: `${spec.card.issuingBankName} ${spec.card.scheme} ${cardKind}`,
        tokenStatus: 'INIT', pay: spec.card.pay === 'invalid' ? 'failure' : spec.card.pay,
        createdAt: new Date(clock.now()).toISOString(), history: /** @type {{ status: string, at: string }[]} */ ([]),
      };
      store.cardTokens.set(token.tokenIndexNumber, token);
      if (status === 'INIT') {
        token.history.push({ status: 'INIT', at: token.createdAt });
        const finalStatus = then ?? 'ACTIVE';
        scheduler.at(clock.now() + config.tokenActivationDelayMs, () => (token.tokenStatus === 'INIT' ? setStatus(token, finalStatus) : undefined));
      } else {
        // Provisioning completed (or failed) at once: the notification goes out after the answer
        // (webhooks.notify sends asynchronously).
        setStatus(token, status);
      }
      return token;
    },
    /**
     * Moves a token (control call). Resolves with the delivery of the notification, or with the
     * reason the move is not allowed.
     * @param {any} token @param {string} status
     */
    async move(token, status) {
      const allowed = /** @type {Record<string, string[]>} */ (TRANSITIONS)[token.tokenStatus] ?? [];
      if (!allowed.includes(status)) return { allowed: false, from: token.tokenStatus, to: status, possible: allowed };
      return { allowed: true, delivery: await setStatus(token, status) };
    },
    /** What the control API shows of a token. @param {any} token */
    view(token) {
      const { pay, history, ...rest } = token;
      return { ...tokenInfo(token), mid: rest.mid, custId: rest.custId, createdAt: rest.createdAt, history, payOutcome: pay };
    },
  };
}

/** @typedef {ReturnType<typeof createCardTokens>} CardTokens */
