// Requests for the running service, generated from the contract (operationSamples.ts, values.ts):
// valid requests the service should carry out (every optional field present or absent, enum values,
// formats, lengths and amounts at their bounds), and for each of them every single mutation that
// breaks exactly one rule (mutations.ts), plus the requests a service must refuse for their
// credentials (another key, no signature, the transaction token of another order). What the
// contract does not decide comes from the run and the fixtures, never at random where the service
// would rightly refuse it (docs/decisions.md, D-127): the merchant id is the target's, order ids
// are fresh, orders and their tokens are the fixtures', instruments are the fixtures' test
// instruments, amounts are within what the funded wallet pays. Every request is judged by the
// package's own validators before it is sent: a "valid" request that is not, or a "mutated" one
// that still is, is never sent.
import fc from 'fast-check';
import { type OperationInfo, operations } from '../../generated/operations.js';
import { encryptCardData } from '../card/encryptCardData.js';
import { validate } from '../validation/index.js';
import type { PhaseContext } from './context.js';
import { applyMutation, mutationsOf } from './mutations.js';
import { type Mutation, operationView, type Sample, sampleArbitrary } from './operationSamples.js';
import { isJsonObject, type JsonObject } from './schema.js';
import { envelopeOf, operationInfo, urlOf } from './send.js';
import type { RequestSpec } from './types.js';

/** The operations verify sends (the webhook is the service's to send). */
export type SentOperation = RequestSpec['operationId'];

export const SENT_OPERATIONS: readonly SentOperation[] = [
  'tokenizeCard',
  'preAuthorize',
  'listSubscriptions',
  'initiatePayment',
  'modifyOrder',
  'createSubscription',
];

/** The pay modes a valid pay request uses: those the fixtures' instruments carry out (a bank code, a VPA) or that need none. */
const PAY_MODES = new Set(['NET_BANKING', 'UPI', 'UPI_INTENT']);
/** The pre-auth modes a valid pre-auth uses: the funded wallet's balance, or UPI's multi-step flow. */
const PRE_AUTH_MODES = new Set(['BALANCE', 'UPI']);
/** The longest block a valid pre-auth asks for (s): well within any service's maximum. */
const MAX_BLOCK_SECONDS = 900;

/** A valid sample of an operation and the choices the run fills in. */
export interface Draft {
  sample: Sample;
  /** In paise: 1.00 to 100.00 rupees, within what the funded wallet pays. */
  paise: number;
  /** A subscription starts this many days after today (UTC) and lasts this many days. */
  startInDays: number;
  spanDays: number;
  blockSeconds: number;
}

const bodyOf = (sample: Sample): JsonObject | undefined =>
  isJsonObject(sample.payload) && isJsonObject(sample.payload.body) ? sample.payload.body : undefined;

/** Whether the fixtures can carry out a sample's choices (its payment mode). */
function supported(operationId: SentOperation, sample: Sample): boolean {
  const body = bodyOf(sample);
  if (operationId === 'initiatePayment') return PAY_MODES.has(String(body?.paymentMode));
  if (operationId === 'preAuthorize') return PRE_AUTH_MODES.has(String(body?.paymentMode));
  return true;
}

/** Valid drafts of an operation's request. */
export function draftArbitrary(operationId: SentOperation): fc.Arbitrary<Draft> {
  return fc.record({
    sample: sampleArbitrary(operationView(operationId), 'request').filter((s) => supported(operationId, s)),
    paise: fc.oneof(fc.constantFrom(100, 101, 150, 9999, 10000), fc.integer({ min: 100, max: 10000 })),
    startInDays: fc.integer({ min: 1, max: 30 }),
    spanDays: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 3650 })),
    blockSeconds: fc.integer({ min: 60, max: MAX_BLOCK_SECONDS }),
  });
}

/** An amount in rupees as the contract writes it (`100`, `100.5`, `100.50`): with `decimals` decimals where the amount can be, else two. */
export function rupees(paise: number, decimals: number): string {
  const whole = Math.floor(paise / 100);
  const cents = paise % 100;
  if (decimals === 0 && cents === 0) return String(whole);
  if (decimals === 1 && cents % 10 === 0) return `${whole}.${cents / 10}`;
  return `${whole}.${String(cents).padStart(2, '0')}`;
}

const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const DAY_MS = 86_400_000;

/** What the run decides for one request: the merchant, the customer, the order, the instruments. */
export interface RunValues {
  mid: string;
  custId: string;
  orderId: string;
  svcSsoToken: string;
  bankCode: string;
  vpa: string;
  encryptedCardData: string;
}

/** Every `mid`, `custId` and `svcSsoToken` member of a body, at any depth, set to the run's. */
function fillIdentities(node: unknown, run: RunValues): void {
  if (Array.isArray(node)) for (const item of node) fillIdentities(item, run);
  if (!isJsonObject(node)) return;
  for (const [name, value] of Object.entries(node)) {
    if (name === 'mid' && typeof value === 'string') node.mid = run.mid;
    else if (name === 'custId' && typeof value === 'string') node.custId = run.custId;
    else if (name === 'svcSsoToken' && typeof value === 'string') node.svcSsoToken = run.svcSsoToken;
    else fillIdentities(value, run);
  }
}

/**
 * An amount of `paise` written as the generated value it replaces is (whole rupees, one decimal or
 * two): the generator drew the forms the field's schema takes, the run decides how much.
 */
function amountLike(generated: unknown, paise: number): string {
  const decimals = typeof generated === 'string' ? (/\.([0-9]+)$/.exec(generated)?.[1]?.length ?? 0) : 2;
  return rupees(paise, decimals);
}

/** The choices of one operation that the run and the fixtures decide. */
function fillOperation(operationId: SentOperation, body: JsonObject, draft: Draft, run: RunValues): void {
  const money = isJsonObject(body.txnAmount) ? body.txnAmount : undefined;
  const amount = amountLike(money ? money.value : body.txnAmount, draft.paise);
  switch (operationId) {
    case 'tokenizeCard':
      body.encryptedCardData = run.encryptedCardData;
      if (isJsonObject(body.tokenizationConsent)) body.tokenizationConsent.userConsent = 1; // without consent a card is not tokenized
      break;
    case 'preAuthorize':
      body.orderId = run.orderId;
      body.txnAmount = amount;
      if (body.paymentMode === 'BALANCE') body.svcSsoToken = run.svcSsoToken;
      if (body.preAuthBlockSeconds !== undefined) body.preAuthBlockSeconds = String(draft.blockSeconds);
      break;
    case 'initiatePayment':
      body.orderId = run.orderId;
      body.requestType = 'PAYMENT';
      if (body.paymentMode === 'NET_BANKING') body.channelCode = run.bankCode;
      if (body.paymentMode === 'UPI') body.payerAccount = run.vpa;
      break;
    case 'modifyOrder':
      if (money) money.value = amount;
      break;
    case 'createSubscription': {
      body.orderId = run.orderId;
      if (money) money.value = amount;
      if (body.renewalAmount !== undefined) body.renewalAmount = amountLike(body.renewalAmount, draft.paise + 100);
      body.subscriptionMaxAmount = amountLike(body.subscriptionMaxAmount, draft.paise + 100);
      const start = Date.now() + draft.startInDays * DAY_MS;
      body.subscriptionStartDate = isoDay(start);
      body.subscriptionExpiryDate = isoDay(start + draft.spanDays * DAY_MS);
      break;
    }
    case 'listSubscriptions':
      break;
  }
}

/** One request ready to send: its spec (head frozen, so that what was validated is what is sent), and its envelope as a sample. */
export interface Prepared {
  spec: RequestSpec;
  sample: Sample;
}

const info = (operationId: SentOperation): OperationInfo => operationInfo(operationId);

/** The query and path the spec's URL carries, as validate() takes them. */
function parametersOf(
  ctx: PhaseContext,
  op: OperationInfo,
  spec: RequestSpec,
  head: JsonObject,
): { query: Record<string, string>; path: Record<string, string> } {
  const url = new URL(urlOf(ctx.target, op, spec, head));
  const query = Object.fromEntries(url.searchParams);
  return { query, path: op.parameters.some((p) => p.in === 'path') ? { mid: spec.pathMid ?? ctx.target.mid } : {} };
}

/** Whether the spec, as it would be sent, is a valid request of the contract (the package's validators and named checks). */
export function specIsValid(ctx: PhaseContext, spec: RequestSpec): boolean {
  const op = info(spec.operationId);
  const { text, head } = envelopeOf(ctx.target, op, spec);
  const { query, path } = parametersOf(ctx, op, spec, head);
  return validate(spec.operationId, 'request', JSON.parse(text), { query, path }).valid;
}

/** The spec's envelope and parameters as a sample, to mutate. */
function sampleOf(ctx: PhaseContext, spec: RequestSpec): Sample {
  const op = info(spec.operationId);
  const { head } = envelopeOf(ctx.target, op, spec);
  const { query, path } = parametersOf(ctx, op, spec, head);
  const sample: Sample = { payload: { head, body: structuredClone(spec.body) } };
  if (op.parameters.some((p) => p.in === 'query')) sample.query = query;
  if (op.parameters.some((p) => p.in === 'path')) sample.path = path;
  return sample;
}

/** A fresh order of the fixtures, for pay and modify order: its id and transaction token. */
async function freshOrder(
  ctx: PhaseContext,
  draft: Draft,
  custId: string,
): Promise<{ orderId: string; txnToken: string }> {
  const orderId = ctx.fresh('O');
  const { txnToken } = await ctx.fixtures.createOrder({ orderId, amount: rupees(draft.paise, 2), custId });
  return { orderId, txnToken };
}

/** The run's values for one request (a fresh order where the operation pays or modifies one). */
export async function runValuesFor(
  ctx: PhaseContext,
  operationId: SentOperation,
  draft: Draft,
  custId: string,
): Promise<{ run: RunValues; token?: string }> {
  const { instruments } = ctx.fixtures;
  const base = {
    mid: ctx.target.mid,
    custId,
    svcSsoToken: instruments.svcSsoToken,
    bankCode: instruments.bankCode,
    vpa: instruments.vpa,
  };
  if (operationId === 'initiatePayment' || operationId === 'modifyOrder') {
    const order = await freshOrder(ctx, draft, custId);
    return { run: { ...base, orderId: order.orderId, encryptedCardData: '' }, token: order.txnToken };
  }
  const encryptedCardData =
    operationId === 'tokenizeCard' ? await encryptCardData(cardDataOf(ctx), await cardKeyOf(ctx)) : '';
  const token = operationId === 'listSubscriptions' ? instruments.svcSsoToken : undefined;
  const orderId = sizedOrderId(ctx.fresh('O'), bodyOf(draft.sample));
  return { run: { ...base, orderId, encryptedCardData }, ...(token === undefined ? {} : { token }) };
}

/** The card encryption key of a run's fixtures, asked for once. */
const cardKeys = new WeakMap<PhaseContext, Promise<string>>();
function cardKeyOf(ctx: PhaseContext): Promise<string> {
  const known = cardKeys.get(ctx);
  if (known) return known;
  const key = ctx.fixtures.cardEncryptionKey();
  cardKeys.set(ctx, key);
  return key;
}

function cardDataOf(ctx: PhaseContext) {
  const { number, expiryMonth, expiryYear, securityCode } = ctx.fixtures.instruments.card;
  return { cardNumber: number, expiryMonth, expiryYear, securityCode };
}

/** Head fields a merchant may add that describe the request, as the draft drew them: the service echoes some (the list's `version`). */
const OPTIONAL_HEAD = ['version', 'channelId'];
function optionalHead(sample: Sample): JsonObject {
  const head = isJsonObject(sample.payload) && isJsonObject(sample.payload.head) ? sample.payload.head : {};
  return Object.fromEntries(OPTIONAL_HEAD.filter((k) => typeof head[k] === 'string').map((k) => [k, head[k]]));
}

/**
 * The run's fresh orderId at the length the draft drew for the field (its longest, a third of the
 * time): the run's ids are unique, the draft's lengths reach the contract's bounds.
 */
function sizedOrderId(orderId: string, body: JsonObject | undefined): string {
  const drawn = body?.orderId;
  if (typeof drawn !== 'string' || drawn.length <= orderId.length) return orderId;
  return `${orderId}${'0'.repeat(drawn.length - orderId.length)}`;
}

/**
 * A valid request of the draft, for the service to carry out, or undefined when the run's values
 * make it one the contract does not take (it is then not sent).
 */
export async function validRequest(
  ctx: PhaseContext,
  operationId: SentOperation,
  draft: Draft,
  custId: string,
): Promise<Prepared | undefined> {
  const { run, token } = await runValuesFor(ctx, operationId, draft, custId);
  const body = structuredClone(bodyOf(draft.sample)) ?? {};
  fillIdentities(body, run);
  fillOperation(operationId, body, draft, run);
  const draftSpec: RequestSpec = {
    operationId,
    body,
    note: `a valid ${operationId} request`,
    head: optionalHead(draft.sample),
    ...(token === undefined ? {} : { token }),
  };
  if (operationId === 'modifyOrder') draftSpec.query = { mid: run.mid, orderId: run.orderId };
  // The head as it will be sent, built once: the same requestId and timestamps when it is validated and sent.
  const { head } = envelopeOf(ctx.target, info(operationId), draftSpec);
  const { signature: _signature, ...unsigned } = head;
  const spec: RequestSpec = { ...draftSpec, head: unsigned };
  if (!specIsValid(ctx, spec)) return undefined;
  return { spec, sample: sampleOf(ctx, spec) };
}

/** A request that breaks one rule, and the rule it breaks. */
export interface Broken {
  spec: RequestSpec;
  /** What was broken, in words: the rule and the field's pointer, never a value. */
  what: string;
  pointer: string;
  /** `credential` for a request refused for its credentials, `rule` for one that breaks a rule of the contract. */
  kind: 'rule' | 'credential';
  /** The kind of rule broken (`required`, `pattern`, ...), or `credential`: trials draw a group, then a request of it. */
  group: string;
}

/** Whether a mutation can be sent as a request: the envelope stays `{ head, body }` with a head object. */
function sendable(m: Mutation): boolean {
  const [first] = m.at;
  if (first === '$path') return m.action === 'set';
  if (first === '$query') return true;
  if (first === 'head') return m.at.length >= 2;
  return first === 'body' && (m.at.length >= 2 || m.action === 'set');
}

/** The spec of a valid request with one mutation applied: a body change is signed again, a head change is sent as it is. */
function mutatedSpec(prepared: Prepared, m: Mutation): RequestSpec {
  const mutated = applyMutation(prepared.sample, m);
  const payload = isJsonObject(mutated.payload) ? mutated.payload : {};
  const head = isJsonObject(payload.head) ? payload.head : {};
  const base = { ...prepared.spec, note: `${prepared.spec.operationId} breaking ${m.kind} at ${m.pointer}` };
  switch (m.at[0]) {
    case '$query':
      return { ...base, query: mutated.query ?? {} };
    case '$path':
      return { ...base, pathMid: mutated.path?.mid ?? '' };
    case 'head': {
      // A head field deleted is left out of the head built around the spec's (a nested one is gone from `head` itself).
      const omitted = m.action === 'delete' && m.at.length === 2 && m.at[1] !== undefined ? [m.at[1]] : [];
      return { ...base, head, omitHead: omitted, sign: false };
    }
    default:
      return { ...base, body: payload.body };
  }
}

/**
 * The requests that break one rule of the contract, made from a valid one: one per mutation. A
 * mutation the validators still accept is no broken request: `specIsValid` tells, before one is sent.
 */
export function brokenRequests(prepared: Prepared): Broken[] {
  const view = operationView(prepared.spec.operationId);
  let mutations: Mutation[];
  try {
    mutations = mutationsOf(view, 'request', prepared.sample);
  } catch {
    return []; // the envelope as built takes no single branch of the contract: nothing to mutate reliably
  }
  return mutations.filter(sendable).map(
    (m): Broken => ({
      spec: mutatedSpec(prepared, m),
      what: `${m.kind} (${m.rules[0] ?? 'the contract'})`,
      pointer: m.pointer,
      kind: 'rule',
      group: m.kind,
    }),
  );
}

/** Another key than the merchant's, to sign a request the service must refuse. */
const OTHER_KEY = 'VerifyOtherKey01';

/** The requests a service must refuse for their credentials: signed with another key, unsigned where signed, another order's token. */
export async function credentialRequests(
  ctx: PhaseContext,
  prepared: Prepared,
  draft: Draft,
  custId: string,
): Promise<Broken[]> {
  const op = info(prepared.spec.operationId);
  const { spec } = prepared;
  const out: Broken[] = [];
  if (op.signature === 'required') {
    out.push({
      spec: { ...spec, signWith: OTHER_KEY, note: `${spec.operationId} signed with another key` },
      what: 'a signature made with another key',
      pointer: '/head/signature',
      kind: 'credential',
      group: 'credential',
    });
    out.push({
      spec: { ...spec, omitHead: ['signature'], note: `${spec.operationId} without a signature` },
      what: 'no signature',
      pointer: '/head/signature',
      kind: 'credential',
      group: 'credential',
    });
  }
  if (op.operationId === 'initiatePayment' || op.operationId === 'modifyOrder') {
    const other = await freshOrder(ctx, draft, custId);
    out.push({
      spec: {
        ...spec,
        token: other.txnToken,
        head: { ...spec.head, token: other.txnToken },
        note: `${spec.operationId} with the transaction token of another order`,
      },
      what: 'the transaction token of another order',
      pointer: '/head/token',
      kind: 'credential',
      group: 'credential',
    });
  }
  return out;
}

/** The operations of the contract verify generates requests for, in the contract's order. */
export const sentOperations = (): SentOperation[] =>
  operations.map((o) => o.operationId).filter((id): id is SentOperation => SENT_OPERATIONS.some((s) => s === id));
