// Tokenize a card (section 4.2): the merchant's signature, a fresh request id, the card decrypted
// with the sandbox's RSA key, and the tokenization decision the test card documents.
import { buildCardPlaintext, type CardData } from '../../card/encryptCardData.js';
import { parseJson } from '../../json/parse.js';
import { clientIdMatches, signatureMatches } from '../auth.js';
import { decryptCardData } from '../cardKeys.js';
import { isTokenizeRefusal } from '../instruments.js';
import { memberOf } from '../untrusted.js';
import type { HandlerContext, HandlerResult, SandboxRequest } from './context.js';

/** Whether decrypted card data has the four text fields of CardData (buildCardPlaintext checks the rest). */
function hasCardFields(value: unknown): value is CardData {
  return ['cardNumber', 'expiryMonth', 'expiryYear', 'securityCode'].every(
    (field) => typeof memberOf(value, field) === 'string',
  );
}

export function tokenizeCard(ctx: HandlerContext, req: SandboxRequest<'tokenizeCard'>): HandlerResult<'tokenizeCard'> {
  const { config, store, clock, instruments, cardTokens } = ctx;
  const { head, body } = req;
  const { mid } = req.path;
  if (!config.mids.includes(mid))
    return { code: '407', note: 'The merchant id in the path is not one the sandbox serves.' };
  if (!clientIdMatches(config, head.clientId) || !signatureMatches(config, req, head.signature)) {
    return {
      code: '1001',
      note: 'head.signature is not the CHECKSUM of the body under the merchant key (or head.clientId selects no key).',
    };
  }
  const requestKey = `${mid}\n${head.requestId}`;
  if (store.seenTokenizeRequest(requestKey))
    return { code: '412', note: 'This head.requestId was already used for this merchant.' };

  const plaintext = decryptCardData(ctx.cardKey.privateKey, body.encryptedCardData);
  const parsed = plaintext === undefined ? undefined : parseJson(plaintext);
  const card = parsed?.ok ? parsed.value : undefined;
  const undecryptable = {
    code: '711',
    note: 'encryptedCardData does not decrypt with the sandbox key (GET /sandbox/card-encryption-key), or the card in it is not valid or has expired.',
  } as const;
  if (!hasCardFields(card)) return undecryptable;
  try {
    buildCardPlaintext(card, { now: new Date(clock.now()) });
  } catch {
    return undecryptable;
  }
  if (body.tokenizationConsent.userConsent !== 1)
    return {
      code: '409',
      note: "tokenizationConsent.userConsent is 0: a card is tokenized only with the customer's consent.",
    };
  const instrument = instruments.card(card.cardNumber);
  if (isTokenizeRefusal(instrument.tokenize))
    return { code: instrument.tokenize, note: 'The test card is documented to be refused with this code.' };
  if (instrument.scheme === 'RUPAY' && body.authRefId === undefined)
    return { code: '410', note: 'authRefId is mandatory for cards of the RUPAY scheme.' };

  const spec = {
    mid,
    custId: body.userInfo.custId,
    card: instrument,
    cardSuffix: card.cardNumber.slice(-4),
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
  };
  if (instrument.tokenize === 'ACTIVE') {
    const token = cardTokens.create(spec, 'ACTIVE');
    return { code: '00', fields: { mid, tokenIndexNumber: token.tokenIndexNumber, tokenStatus: 'ACTIVE' } };
  }
  if (instrument.tokenize === 'FAILED') {
    const token = cardTokens.create(spec, 'FAILED');
    return { code: '730', fields: { mid, tokenIndexNumber: token.tokenIndexNumber, tokenStatus: 'FAILED' } };
  }
  const token = cardTokens.create(spec, 'INIT', instrument.tokenize === 'INIT_THEN_FAILED' ? 'FAILED' : 'ACTIVE');
  return { code: '100', fields: { mid, tokenIndexNumber: token.tokenIndexNumber, tokenStatus: 'INIT' } };
}
