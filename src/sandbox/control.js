// The sandbox's control API, under /sandbox/: a sandbox extension, outside the contract. It does what
// the description leaves to other operations (creating orders, completing payments) and what only a
// sandbox needs (the clock, a reset, the card encryption key, token status changes, the record of
// webhook deliveries). Plain JSON; errors are {error: {code, message}} with an HTTP status.
import { parseJson } from '../json/parse.js';
import { validate } from '../validation/validate.js';
import { operations as operationIndex } from '../../generated/operations.js';
import { TXN_TOKEN_TTL_MS } from './config.js';
import { newOrderId } from './ids.js';
import { formatPaise, toPaise } from './money.js';
import { availableIn } from './store.js';
import { problem, sendJson } from './http.js';
import { readBody } from '../http/readBody.js';

const ORDER_ID = /^[A-Za-z0-9@._-]{1,50}$/;
/** Control bodies are small. */
const CONTROL_MAX_BYTES = 64 * 1024;

/** @typedef {{ status: number, body: unknown }} ControlAnswer */
/** @typedef {import('./handlers/context.js').HandlerContext & { scheduler: ReturnType<typeof import('./scheduler.js').createScheduler>, webhooks: import('./webhooks.js').Webhooks, baseUrl: () => string }} ControlContext */

/** @param {number} status @param {unknown} body @returns {ControlAnswer} */
const reply = (status, body) => ({ status, body });
/** @param {string} message @param {string} [pointer] */
const badRequest = (message, pointer) => reply(400, problem('invalid-request', message, pointer ? { pointer } : {}));
/** @param {string} what */
const notFound = (what) => reply(404, problem('not-found', `${what} is not known to the sandbox (POST /sandbox/reset clears everything).`));

/**
 * The control API's routes and their actions. Exposed for startSandbox's programmatic helpers.
 * @param {ControlContext} ctx
 */
export function createControl(ctx) {
  const { config, store, clock, instruments, orders, payments, cardTokens, scheduler, webhooks } = ctx;

  /** @param {Record<string, string>} query */
  function midOf(query) {
    const mid = query.mid ?? config.defaultMid;
    return config.mids.includes(mid) ? mid : undefined;
  }

  /**
   * Creates an order from the control call's body (also used by startSandbox().createOrder).
   * @param {any} input
   * @returns {ControlAnswer}
   */
  function createOrder(input) {
    if (!input || typeof input !== 'object' || Array.isArray(input)) return badRequest('The body must be a JSON object.');
    const known = ['mid', 'orderId', 'txnAmount', 'custId', 'svcSsoToken', 'goodsInfo', 'shippingInfo', 'extendInfo'];
    const unknown = Object.keys(input).find((k) => !known.includes(k));
    if (unknown !== undefined) return badRequest(`Unknown field: the fields are ${known.join(', ')}.`, /^[A-Za-z0-9_]{1,40}$/.test(unknown) ? `/${unknown}` : undefined);
    const mid = input.mid ?? config.defaultMid;
    if (!config.mids.includes(mid)) return badRequest(`mid must be a merchant the sandbox serves: ${config.mids.join(', ')}.`, '/mid');
    const orderId = input.orderId ?? newOrderId(clock.now());
    if (typeof orderId !== 'string' || !ORDER_ID.test(orderId)) return badRequest('orderId must be 1 to 50 letters, digits or @ . _ -.', '/orderId');
    // The order's amount, goods, shipping and extendInfo have the shapes of modify order's body
    // (the currency may be left out: INR is the only one).
    const txnAmount = input.txnAmount && typeof input.txnAmount === 'object' && input.txnAmount.currency === undefined ? { ...input.txnAmount, currency: 'INR' } : input.txnAmount;
    const shape = validate('modifyOrder', 'request', { head: { tokenType: 'TXN_TOKEN', token: 'x' }, body: { txnAmount, goodsInfo: input.goodsInfo, shippingInfo: input.shippingInfo, extendInfo: input.extendInfo } }, {});
    if (input.txnAmount === undefined) return badRequest('txnAmount is mandatory: {"value": "100.00", "currency": "INR"}.', '/txnAmount');
    if (!shape.valid) return badRequest(shape.errors[0].message, shape.errors[0].pointer.replace(/^\/body/, ''));
    const amount = /** @type {number} */ (toPaise(txnAmount.value));
    if (amount === 0) return badRequest('txnAmount.value must be more than zero.', '/txnAmount/value');
    if (input.custId !== undefined && (typeof input.custId !== 'string' || input.custId === '' || input.custId.length > 64)) return badRequest('custId must be a string of 1 to 64 characters.', '/custId');
    if (input.svcSsoToken !== undefined && !store.wallets.has(input.svcSsoToken)) return badRequest('svcSsoToken names no wallet of the test instruments (GET /sandbox/instruments).', '/svcSsoToken');
    if (store.order(mid, orderId)) return reply(409, problem('order-exists', 'An order with this orderId already exists for this merchant.'));
    const { order, txnToken, expiresAt } = orders.create({
      mid, orderId, amount,
      ...(input.custId ? { custId: input.custId } : {}), ...(input.svcSsoToken ? { svcSsoToken: input.svcSsoToken } : {}),
      ...(input.goodsInfo ? { goodsInfo: input.goodsInfo } : {}), ...(input.shippingInfo ? { shippingInfo: input.shippingInfo } : {}),
      ...(input.extendInfo ? { extendInfo: input.extendInfo } : {}),
    });
    return reply(201, { mid, orderId, txnToken, txnTokenExpiresAt: new Date(expiresAt).toISOString(), order: orders.view(order) });
  }

  /** @param {string} orderId @param {Record<string, string>} query */
  function orderFrom(orderId, query) {
    const mid = midOf(query);
    return mid === undefined ? undefined : store.order(mid, orderId);
  }

  /** Completes the pending transaction of an order. @param {any} order @param {unknown} outcome */
  function completeOrder(order, outcome) {
    if (outcome !== 'success' && outcome !== 'failure') return badRequest('outcome must be "success" or "failure".', '/outcome');
    const txn = store.currentTransaction(order);
    if (order.status !== 'PENDING' || !txn || txn.status !== 'PENDING') return reply(409, problem('not-pending', `The order has no payment in process (its status is ${order.status}).`));
    payments.complete(txn, outcome);
    return reply(200, { order: orders.view(order), txnInfo: payments.txnInfoOf(txn) });
  }

  /** @type {[string, string, (params: string[], query: Record<string, string>, body: any) => ControlAnswer | Promise<ControlAnswer>, string][]} */
  const table = [
    ['GET', '/sandbox', () => reply(200, overview()), 'this overview'],
    ['POST', '/sandbox/reset', () => {
      store.reset();
      scheduler.clear();
      clock.reset();
      return reply(200, { reset: true, now: new Date(clock.now()).toISOString() });
    }, 'forget every order, token, pre-auth, subscription and delivery; wallets back to the seed; clock back to its base'],
    ['GET', '/sandbox/clock', () => reply(200, clockView()), 'the sandbox clock'],
    ['POST', '/sandbox/clock/advance', async (_p, _q, body) => {
      const ms = (Number(body?.ms ?? 0) || 0) + (Number(body?.seconds ?? 0) || 0) * 1000 + (Number(body?.minutes ?? 0) || 0) * 60_000;
      if (!body || typeof body !== 'object' || !Number.isFinite(ms) || ms <= 0) return badRequest('Give how far to move the clock: {"ms": n}, {"seconds": n} or {"minutes": n}, more than zero.');
      clock.advance(ms);
      await scheduler.runDue();
      await webhooks.idle();
      return reply(200, clockView());
    }, 'move the clock forward ({"minutes": 16}); due token changes run and their webhooks are delivered before the answer'],
    ['GET', '/sandbox/card-encryption-key', () => reply(200, { publicKeyPem: ctx.cardKey.publicKeyPem, padding: 'RSA_PKCS1_OAEP_PADDING', oaepHash: 'sha256', use: 'encryptCardData(card, publicKeyPem) for tokenize body.encryptedCardData' }), 'the RSA public key for encryptedCardData'],
    ['GET', '/sandbox/instruments', () => reply(200, instruments.seed), 'the test instruments'],
    ['GET', '/sandbox/wallets', () => reply(200, { wallets: [...store.wallets.values()].map((w) => ({
      name: w.name, balance: formatPaise(w.balance), balanceUnblocked: formatPaise(availableIn(w, 'balance', clock.now())),
      digitalCredit: formatPaise(w.digitalCredit), digitalCreditUnblocked: formatPaise(availableIn(w, 'digitalCredit', clock.now())),
      blocks: w.blocks.map((b) => ({ preAuthId: b.preAuthId, source: b.source, amount: formatPaise(b.amount), expiresAt: new Date(b.expiresAt).toISOString() })),
    })) }), 'wallet balances and blocks'],
    ['POST', '/sandbox/orders', (_p, _q, body) => createOrder(body), 'create an order: {"txnAmount": {"value": "100.00", "currency": "INR"}, "orderId"?, "mid"?, "custId"?, "svcSsoToken"?, "goodsInfo"?, "shippingInfo"?, "extendInfo"?}; answers its txnToken'],
    ['GET', '/sandbox/orders/{orderId}', ([orderId], query) => {
      const order = orderFrom(orderId, query);
      return order ? reply(200, orders.view(order)) : notFound('This order');
    }, 'an order and its state (?mid= when not the first merchant)'],
    ['POST', '/sandbox/orders/{orderId}/token', ([orderId], query) => {
      const order = orderFrom(orderId, query);
      if (!order) return notFound('This order');
      const { txnToken, expiresAt } = orders.issueToken(order);
      return reply(201, { mid: order.mid, orderId: order.orderId, txnToken, txnTokenExpiresAt: new Date(expiresAt).toISOString() });
    }, 'a new transaction token for an order (the old one stays valid until it expires)'],
    ['POST', '/sandbox/orders/{orderId}/close', ([orderId], query) => {
      const order = orderFrom(orderId, query);
      if (!order) return notFound('This order');
      if (order.status === 'PAID' || order.status === 'CLOSED') return reply(409, problem('not-open', `The order is already ${order.status}.`));
      orders.close(order, 'closed by a control call');
      const txn = store.currentTransaction(order);
      if (txn && txn.status === 'PENDING') txn.status = 'TXN_FAILURE';
      return reply(200, orders.view(order));
    }, 'close an order (pay and modify then answer 410)'],
    ['POST', '/sandbox/orders/{orderId}/complete', ([orderId], query, body) => {
      const order = orderFrom(orderId, query);
      return order ? completeOrder(order, body?.outcome) : notFound('This order');
    }, 'complete the payment in process: {"outcome": "success" | "failure"}; answers the txnInfo'],
    ['POST', '/sandbox/bank-form/{txnId}', ([txnId], _q, body) => {
      const txn = store.transactions.get(txnId);
      if (!txn) return notFound('This transaction');
      const order = /** @type {any} */ (store.order(txn.mid, txn.orderId));
      const action = body?.action ?? 'submit';
      if (action !== 'submit' && action !== 'cancel') return badRequest('action must be "submit" or "cancel".', '/action');
      if (txn.status !== 'PENDING' || order.status !== 'PENDING') return reply(409, problem('not-pending', `This payment is no longer in process (${txn.status}).`));
      if (action === 'cancel') return completeOrder(order, 'failure');
      if (txn.outcome === 'pending') return reply(202, { order: orders.view(order), txnInfo: payments.txnInfoOf(txn), message: 'The bank has not answered: complete it with POST /sandbox/orders/{orderId}/complete.' });
      return completeOrder(order, txn.outcome);
    }, 'the bank form of card, net banking, EMI, UPI collect, PPBL and add-money payments: {"action": "submit" | "cancel"}'],
    ['GET', '/sandbox/pre-auths/{orderId}', ([orderId], query) => {
      const mid = midOf(query);
      const p = mid === undefined ? undefined : store.preAuths.get(`${mid}\n${orderId}`);
      if (!p) return notFound('This pre-auth');
      return reply(200, {
        mid: p.mid, orderId: p.orderId, preAuthId: p.preAuthId, type: p.type, paymentMode: p.paymentMode, status: p.status,
        txnAmount: formatPaise(p.amount), ...(p.blockedAmount !== undefined ? { blockedAmount: formatPaise(p.blockedAmount) } : {}),
        ...(p.expiresAt !== undefined ? { blockExpiresAt: new Date(p.expiresAt).toISOString() } : {}),
      });
    }, 'a pre-auth and its block'],
    ['GET', '/sandbox/tokens', (_p, query) => reply(200, { tokens: [...store.cardTokens.values()]
      .filter((t) => (query.mid === undefined || t.mid === query.mid) && (query.custId === undefined || t.custId === query.custId))
      .map((t) => cardTokens.view(t)) }), 'card tokens (?mid=, ?custId=)'],
    ['GET', '/sandbox/tokens/{tokenIndexNumber}', ([tin]) => {
      const token = store.cardTokens.get(tin);
      return token ? reply(200, cardTokens.view(token)) : notFound('This token');
    }, 'one card token'],
    ['POST', '/sandbox/tokens/{tokenIndexNumber}/status', async ([tin], _q, body) => {
      const token = store.cardTokens.get(tin);
      if (!token) return notFound('This token');
      if (!['ACTIVE', 'SUSPENDED', 'DEAD', 'FAILED'].includes(body?.status)) return badRequest('status must be ACTIVE, SUSPENDED, DEAD or FAILED.', '/status');
      const moved = await cardTokens.move(token, body.status);
      if (!moved.allowed) return reply(409, problem('transition-not-allowed', `A ${moved.from} token cannot become ${moved.to}${moved.possible?.length ? `; it can become ${moved.possible.join(' or ')}` : '; it is final'}.`));
      return reply(200, { token: cardTokens.view(token), delivery: moved.delivery });
    }, 'move a token ({"status": "SUSPENDED"}); answers after the webhook delivery ends'],
    ['GET', '/sandbox/webhooks/deliveries', () => reply(200, { deliveries: webhooks.list() }), 'token status webhook deliveries and the merchant\'s replies'],
  ];

  // Each route's path template as a pattern: {txnId} is digits, any other {name} one path segment.
  const routes = table.map(([method, path, action, what]) => ({
    method, path, action, what,
    pattern: new RegExp(`^${path.replace(/\{txnId\}/g, '([0-9]{1,64})').replace(/\{[A-Za-z]+\}/g, '([^/]+)')}/?$`),
  }));

  function clockView() {
    return { now: new Date(clock.now()).toISOString(), epochMs: clock.now(), offsetMs: clock.offset(), txnTokenTtlMs: TXN_TOKEN_TTL_MS, pendingTokenChanges: scheduler.pending() };
  }

  function overview() {
    return {
      sandbox: 'A stateful sandbox of the service. The operations answer at the description\'s paths; everything under /sandbox/ is a sandbox extension, outside the contract.',
      merchant: { mids: config.mids, clientId: config.clientId, merchantKey: config.usesDefaultKey ? 'the documented default test key' : 'configured', webhookUrl: config.webhookUrl ?? null },
      now: new Date(clock.now()).toISOString(),
      operations: operationIndex.filter((o) => o.kind === 'operation').map((o) => ({ operationId: o.operationId, method: o.method, path: `${ctx.baseUrl()}${o.path}` })),
      control: routes.map(({ method, path, what }) => ({ method, path, what })),
    };
  }

  /**
   * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res
   * @param {string} pathname @param {string} search
   */
  function handle(req, res, pathname, search) {
    const matches = routes.filter((r) => r.pattern.test(pathname));
    if (matches.length === 0) return sendJson(res, 404, problem('not-found', 'No control call at this path: GET /sandbox lists them.'));
    const route = matches.find((r) => r.method === req.method);
    if (!route) return sendJson(res, 405, problem('method-not-allowed', `Use ${matches.map((r) => r.method).join(' or ')}.`), { allow: matches.map((r) => r.method).join(', ') });
    /** @type {string[]} */
    let params;
    try {
      params = /** @type {RegExpExecArray} */ (route.pattern.exec(pathname)).slice(1).map((p) => decodeURIComponent(p));
    } catch {
      return sendJson(res, 400, problem('invalid-request', 'The path is not valid percent-encoding.'));
    }
    /** @type {Record<string, string>} */
    const query = {};
    for (const [k, v] of new URLSearchParams(search)) query[k] = v;
    readBody(req, CONTROL_MAX_BYTES, async (buffer, failure) => {
      if (failure === 'aborted') return;
      if (!buffer) return sendJson(res, 413, problem('too-large', `Control bodies are at most ${CONTROL_MAX_BYTES} bytes.`), { connection: 'close' });
      let body = {};
      if (buffer.length > 0) {
        const type = String(req.headers['content-type'] ?? '');
        if (type.startsWith('application/x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(buffer.toString('utf8')));
        else {
          const parsed = parseJson(buffer);
          if (!parsed.ok) return sendJson(res, 400, problem('invalid-json', `The body is not JSON: ${parsed.message}.`));
          body = /** @type {any} */ (parsed.value);
        }
      }
      try {
        const answer = await route.action(params, query, body);
        sendJson(res, answer.status, answer.body);
      } catch {
        sendJson(res, 500, problem('internal', 'The sandbox failed unexpectedly; this is a bug of the sandbox.'));
      }
    });
  }

  return { handle, createOrder, completeOrder, orderFrom };
}
