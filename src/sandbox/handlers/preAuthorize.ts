// Pre-authorize an amount (section 4.3 and the pre-auth rows of 3.3): STANDARD_AUTH blocks the
// amount in the wallet or digital credit named by the SSO token (blockedAmount), DELAYED_AUTH
// blocks nothing, UPI and cards (and no mode) go through the multi-step flow: 02 with a txnToken for
// paying the order. A second request for the same order is SR_1004; too little balance, WM_1006.
import { clientIdMatches, signatureMatches } from '../auth.js';
import { digitsId } from '../ids.js';
import { checkedPaise, formatPaise } from '../money.js';
import type { Block, PreAuth } from '../records.js';
import { orderKey } from '../store.js';
import { availableIn, block } from '../wallets.js';
import type { HandlerContext, HandlerResult, SandboxRequest } from './context.js';

/** The wallet source each wallet pre-auth mode blocks. */
const WALLET_SOURCES = { BALANCE: 'balance', SVC_DIGITAL_CREDIT: 'digitalCredit' } as const satisfies Record<
  string,
  Block['source']
>;

export function preAuthorize(ctx: HandlerContext, req: SandboxRequest<'preAuthorize'>): HandlerResult<'preAuthorize'> {
  const { config, store, clock, instruments, orders } = ctx;
  const { head, body } = req;
  const orderIdField = { orderId: body.orderId };
  if (!config.mids.includes(body.mid))
    return { code: '305', fields: orderIdField, note: 'body.mid is not a merchant the sandbox serves.' };
  if (!clientIdMatches(config, head.clientId) || !signatureMatches(config, req, head.signature)) {
    return {
      code: '330',
      fields: orderIdField,
      note: 'head.signature is not the CHECKSUM of the body under the key that head.clientId selects.',
    };
  }
  const key = orderKey(body.mid, body.orderId);
  const earlier = store.preAuths.get(key);
  if (earlier) {
    if (earlier.status === 'FAILED')
      return {
        code: '350',
        fields: orderIdField,
        note: 'This orderId was used by a pre-auth that failed: retry with a new orderId.',
      };
    return {
      code: 'SR_1004',
      fields: orderIdField,
      note: 'A pre-auth already exists for this orderId: query the transaction status.',
    };
  }
  if (store.order(body.mid, body.orderId))
    return { code: '350', fields: orderIdField, note: 'An order with this orderId already exists.' };

  const amount = checkedPaise(body.txnAmount);
  if (amount === 0) return { code: 'GE_1007', fields: orderIdField, note: 'txnAmount must be more than zero.' };
  const blockSeconds =
    body.preAuthBlockSeconds === undefined
      ? instruments.limits.preAuthMaxBlockSeconds
      : Number(body.preAuthBlockSeconds);
  if (blockSeconds > instruments.limits.preAuthMaxBlockSeconds)
    return {
      code: '704',
      fields: orderIdField,
      note: `preAuthBlockSeconds is above the sandbox's maximum of ${instruments.limits.preAuthMaxBlockSeconds}.`,
    };
  const type = body.cardPreAuthType ?? 'STANDARD_AUTH';
  const mode = body.paymentMode ?? null;
  const now = clock.now();
  const preAuthId = digitsId(now);
  const record: PreAuth = {
    mid: body.mid,
    orderId: body.orderId,
    preAuthId,
    type,
    paymentMode: mode,
    status: 'PENDING',
    amount,
    createdAt: now,
    statusCode: '02',
  };

  if (mode === 'BALANCE' || mode === 'SVC_DIGITAL_CREDIT') {
    const source = WALLET_SOURCES[mode];
    const wallet = body.svcSsoToken === undefined ? undefined : store.wallets.get(body.svcSsoToken);
    if (!wallet)
      return { code: '343', fields: orderIdField, note: 'svcSsoToken names no wallet of the test instruments.' };
    store.putPreAuth(key, record);
    if (type === 'DELAYED_AUTH') {
      record.status = 'AUTHORIZED';
      record.statusCode = '01';
      return { code: '01', fields: { orderId: body.orderId, preAuthId } };
    }
    if (availableIn(wallet, source, now) < amount) {
      record.status = 'FAILED';
      record.statusCode = 'WM_1006';
      return {
        code: 'WM_1006',
        fields: orderIdField,
        note: `The ${source === 'balance' ? 'wallet balance' : 'digital credit'} left unblocked is below txnAmount: retry with a new orderId.`,
      };
    }
    const expiresAt = now + blockSeconds * 1000;
    block(wallet, { preAuthId, source, amount, expiresAt });
    // Where the block is, so that forgetting the pre-auth ends it (D-67).
    record.walletToken = wallet.svcSsoToken;
    record.status = 'BLOCKED';
    record.statusCode = '01';
    record.blockedAmount = amount;
    record.expiresAt = expiresAt;
    return { code: '01', fields: { orderId: body.orderId, blockedAmount: formatPaise(amount), preAuthId } };
  }

  // The multi-step flow: UPI, cards, or no mode chosen yet. The sandbox's merchant is not an
  // agreement-flow merchant and has UPI and cards enabled, so websiteName is required without a mode.
  if (mode === null && body.websiteName === undefined)
    return {
      code: '805',
      fields: orderIdField,
      note: 'Without a paymentMode this merchant runs the multi-step flow, which needs websiteName.',
    };
  const { txnToken } = orders.create({
    mid: body.mid,
    orderId: body.orderId,
    amount,
    kind: 'PRE_AUTH',
    custId: body.userInfo.custId,
    preAuthType: type,
    paymentModes:
      mode === 'UPI' ? ['UPI', 'UPI_INTENT'] : mode ? [mode] : ['UPI', 'UPI_INTENT', 'CREDIT_CARD', 'DEBIT_CARD'],
  });
  store.putPreAuth(key, record);
  return { code: '02', fields: { orderId: body.orderId, preAuthId, txnToken } };
}
