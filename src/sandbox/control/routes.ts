// The control API's routes, under /sandbox/: a sandbox extension, outside the contract. Each route
// is a method, a path template, what it does (GET /sandbox lists them) and its action, which reads
// the call's parameters and body, then asks the actions for a change or the views for a picture.
import type { CardKeyPair } from '../cardKeys.js';
import type { Clock } from '../clock.js';
import { isWebhookUrl, type SandboxConfig, WEBHOOK_URL_RULE } from '../config.js';
import type { Faults } from '../faults.js';
import type { Instruments } from '../instruments.js';
import type { CardToken } from '../records.js';
import type { Scheduler } from '../scheduler.js';
import { orderKey, type Store } from '../store.js';
import { memberOf } from '../untrusted.js';
import { clockView, orderView, overview, preAuthView, tokenView, walletView } from '../views.js';
import type { Webhooks } from '../webhooks/index.js';
import { type ControlActions, merchantOf } from './actions.js';
import { badRequest, type ControlAnswer, notFound, reply } from './replies.js';

/** The query string of a control call (a repeated name keeps its last value). */
export type ControlQuery = Readonly<Record<string, string>>;

/** The names of a path template's {parameters}. */
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;

/** A path template's parameters, decoded, by name. */
export type PathParams<P extends string> = { readonly [K in ParamNames<P>]: string };

export interface ControlRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly what: string;
  /** The template as a pattern: {txnId} is digits, any other {name} one path segment. */
  readonly pattern: RegExp;
  /** Takes a form body (application/x-www-form-urlencoded) besides JSON: the bank page, as its bankForm declares. */
  readonly form?: true;
  /** Runs the action with the decoded values of the template's parameters, in their order. */
  run(values: readonly string[], query: ControlQuery, body: unknown): ControlAnswer | Promise<ControlAnswer>;
}

function route<P extends string>(
  method: 'GET' | 'POST' | 'DELETE',
  path: P,
  action: (params: PathParams<P>, query: ControlQuery, body: unknown) => ControlAnswer | Promise<ControlAnswer>,
  what: string,
  options: { form?: true } = {},
): ControlRoute {
  const names = [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1] ?? '');
  const pattern = new RegExp(`^${path.replace(/\{txnId\}/g, '([0-9]{1,64})').replace(/\{[A-Za-z]+\}/g, '([^/]+)')}/?$`);
  return {
    method,
    path,
    what,
    pattern,
    ...options,
    // The pattern captures one value per {name} of the template, in order: the record has them all.
    run: (values, query, body) =>
      action(Object.fromEntries(names.map((name, i) => [name, values[i] ?? ''])) as PathParams<P>, query, body),
  };
}

/** The statuses a control call may move a token to. */
const MOVABLE_STATUSES = ['ACTIVE', 'SUSPENDED', 'DEAD', 'FAILED'] as const;
const isMovableStatus = (value: unknown): value is (typeof MOVABLE_STATUSES)[number] =>
  MOVABLE_STATUSES.some((s) => s === value);

export interface RouteContext {
  readonly config: SandboxConfig;
  readonly store: Store;
  readonly clock: Clock;
  readonly instruments: Instruments;
  readonly scheduler: Scheduler;
  readonly webhooks: Webhooks;
  readonly cardKey: CardKeyPair;
  readonly faults: Faults;
  /** The sandbox's address, once it listens. */
  readonly baseUrl: () => string;
}

/** The control API's routes and their actions. */
export function createControlRoutes(ctx: RouteContext, actions: ControlActions): readonly ControlRoute[] {
  const { config, store, clock, instruments, scheduler, webhooks, faults } = ctx;
  const routes: readonly ControlRoute[] = [
    route('GET', '/sandbox', () => reply(200, overview(ctx, ctx.baseUrl(), routes)), 'this overview'),
    route(
      'POST',
      '/sandbox/reset',
      () => {
        actions.reset();
        return reply(200, { reset: true, now: new Date(clock.now()).toISOString() });
      },
      'forget every order, token, pre-auth, subscription, delivery and fault; wallets back to the seed; clock back to its base',
    ),
    route(
      'POST',
      '/sandbox/faults',
      (_p, _q, body) => actions.armFault(body),
      'arm a fault: {"operationId", "fault": "drop-answer" | "delay" | "reset" | "http-500" | "http-503", "count"?, "delayMs"?}, or for notifyTokenStatus "duplicate-webhook" | "reorder-webhooks"',
    ),
    route('GET', '/sandbox/faults', () => reply(200, { faults: faults.list() }), 'the armed faults'),
    route('DELETE', '/sandbox/faults', () => reply(200, { cleared: faults.clear() }), 'disarm every fault'),
    route('GET', '/sandbox/clock', () => reply(200, clockView(clock, scheduler)), 'the sandbox clock'),
    route(
      'POST',
      '/sandbox/clock/advance',
      async (_p, _q, body) => {
        const ms =
          (Number(memberOf(body, 'ms') ?? 0) || 0) +
          (Number(memberOf(body, 'seconds') ?? 0) || 0) * 1000 +
          (Number(memberOf(body, 'minutes') ?? 0) || 0) * 60_000;
        if (!body || typeof body !== 'object' || !Number.isFinite(ms) || ms <= 0)
          return badRequest(
            'Give how far to move the clock: {"ms": n}, {"seconds": n} or {"minutes": n}, more than zero.',
          );
        // Refused before anything moves: the clock stays where it was.
        const tooFar = clock.advanceProblem(ms);
        if (tooFar) return badRequest(tooFar);
        await actions.advanceClock(ms);
        return reply(200, clockView(clock, scheduler));
      },
      'move the clock forward ({"minutes": 16}; at most 3660 days a call, never past the year 9999); due token changes run, and the answer waits for their webhooks at most webhookTimeoutMs',
    ),
    route(
      'GET',
      '/sandbox/card-encryption-key',
      () =>
        reply(200, {
          publicKeyPem: ctx.cardKey.publicKeyPem,
          padding: 'RSA_PKCS1_OAEP_PADDING',
          oaepHash: 'sha256',
          use: 'encryptCardData(card, publicKeyPem) for tokenize body.encryptedCardData',
        }),
      'the RSA public key for encryptedCardData',
    ),
    route('GET', '/sandbox/instruments', () => reply(200, instruments.seed), 'the test instruments'),
    route(
      'GET',
      '/sandbox/wallets',
      () => reply(200, { wallets: [...store.wallets.values()].map((w) => walletView(w, clock.now())) }),
      'wallet balances and blocks',
    ),
    route(
      'POST',
      '/sandbox/orders',
      (_p, _q, body) => actions.createOrder(body),
      'create an order: {"txnAmount": {"value": "100.00", "currency": "INR"}, "orderId"?, "mid"?, "custId"?, "svcSsoToken"?, "goodsInfo"?, "shippingInfo"?, "extendInfo"?}; answers its txnToken',
    ),
    route(
      'GET',
      '/sandbox/orders/{orderId}',
      ({ orderId }, query) => {
        const order = actions.orderFrom(orderId, query);
        return order ? reply(200, orderView(store, order)) : notFound('This order');
      },
      'an order and its state (?mid= when not the first merchant)',
    ),
    route(
      'POST',
      '/sandbox/orders/{orderId}/token',
      ({ orderId }, query) => {
        const order = actions.orderFrom(orderId, query);
        return order ? actions.issueToken(order) : notFound('This order');
      },
      'a new transaction token for an order (the old one stays valid until it expires)',
    ),
    route(
      'POST',
      '/sandbox/orders/{orderId}/close',
      ({ orderId }, query) => {
        const order = actions.orderFrom(orderId, query);
        return order ? actions.closeOrder(order) : notFound('This order');
      },
      'close an order (pay and modify then answer 410)',
    ),
    route(
      'POST',
      '/sandbox/orders/{orderId}/complete',
      ({ orderId }, query, body) => {
        const order = actions.orderFrom(orderId, query);
        return order ? actions.completeOrder(order, memberOf(body, 'outcome')) : notFound('This order');
      },
      'complete the payment in process: {"outcome": "success" | "failure"}; answers the txnInfo',
    ),
    route(
      'POST',
      '/sandbox/bank-form/{txnId}',
      ({ txnId }, _q, body) => {
        const txn = store.transactions.get(txnId);
        if (!txn) return notFound('This transaction');
        const action = memberOf(body, 'action') ?? 'submit';
        if (action !== 'submit' && action !== 'cancel')
          return badRequest('action must be "submit" or "cancel".', '/action');
        return actions.submitBankForm(txn, action);
      },
      'the bank form of card, net banking, EMI, UPI collect, PPBL and add-money payments: {"action": "submit" | "cancel"}, or the form of the bankForm',
      { form: true },
    ),
    route(
      'GET',
      '/sandbox/pre-auths/{orderId}',
      ({ orderId }, query) => {
        const mid = merchantOf(config, query);
        const p = mid === undefined ? undefined : store.preAuths.get(orderKey(mid, orderId));
        return p ? reply(200, preAuthView(p)) : notFound('This pre-auth');
      },
      'a pre-auth and its block',
    ),
    route(
      'GET',
      '/sandbox/tokens',
      (_p, query) => {
        const page = pageOf(query);
        if (typeof page === 'string') return badRequest(page, '/limit');
        const matching = (t: CardToken) =>
          (query.mid === undefined || t.mid === query.mid) && (query.custId === undefined || t.custId === query.custId);
        const { items, next } = paginate(store.cardTokens.values(), (t) => t.tokenIndexNumber, matching, page);
        return reply(200, { tokens: items.map(tokenView), ...(next ? { next } : {}) });
      },
      'card tokens, oldest first, a page at a time (?mid=, ?custId=, ?limit= up to 1000, default 100, ?after= the next of the previous page)',
    ),
    route(
      'GET',
      '/sandbox/tokens/{tokenIndexNumber}',
      ({ tokenIndexNumber }) => {
        const token = store.cardTokens.get(tokenIndexNumber);
        return token ? reply(200, tokenView(token)) : notFound('This token');
      },
      'one card token',
    ),
    route(
      'POST',
      '/sandbox/tokens/{tokenIndexNumber}/status',
      async ({ tokenIndexNumber }, _q, body) => {
        const token = store.cardTokens.get(tokenIndexNumber);
        if (!token) return notFound('This token');
        const status = memberOf(body, 'status');
        if (!isMovableStatus(status)) return badRequest('status must be ACTIVE, SUSPENDED, DEAD or FAILED.', '/status');
        return actions.moveToken(token, status);
      },
      'move a token ({"status": "SUSPENDED"}); answers after the webhook delivery ends, or 202 with it pending after webhookTimeoutMs',
    ),
    route(
      'POST',
      '/sandbox/webhook-url',
      (_p, _q, body) => {
        const url = memberOf(body, 'url');
        if (!body || typeof body !== 'object' || Array.isArray(body) || (url !== null && !isWebhookUrl(url)))
          return badRequest(`Give {"url": "http://..."} or {"url": null}. ${WEBHOOK_URL_RULE}`, '/url');
        config.webhookUrl = url ?? undefined;
        return reply(200, { webhookUrl: config.webhookUrl ?? null });
      },
      'where token notifications go from now on: {"url": "http://..."}, or {"url": null} for nowhere (recorded as skipped); a reset keeps it',
    ),
    route(
      'GET',
      '/sandbox/webhooks/deliveries',
      (_p, query) => {
        const page = pageOf(query);
        if (typeof page === 'string') return badRequest(page, '/limit');
        const { items, next } = paginate(
          webhooks.list(),
          (d) => d.id,
          () => true,
          page,
        );
        return reply(200, { deliveries: items, ...(next ? { next } : {}) });
      },
      "token status webhook deliveries and the merchant's replies, oldest first, a page at a time (?limit=, ?after=)",
    ),
  ];
  return routes;
}

/** What a path and method find among the routes. */
export type RouteMatch =
  | { readonly found: true; readonly route: ControlRoute; readonly values: readonly string[] }
  | { readonly found: false; readonly methods: readonly string[] };

/** The route of a call: by path, then by method; without one, the methods the path has (none: no such path). */
export function matchRoute(routes: readonly ControlRoute[], method: string | undefined, pathname: string): RouteMatch {
  const matches = routes.filter((r) => r.pattern.test(pathname));
  const found = matches.find((r) => r.method === method);
  if (!found) return { found: false, methods: matches.map((r) => r.method) };
  return { found: true, route: found, values: found.pattern.exec(pathname)?.slice(1) ?? [] };
}

/** A page of a control listing: at most `limit` items after the one named `after`. */
interface Page {
  limit: number;
  after: string | undefined;
}

const DEFAULT_PAGE = 100;
const MAX_PAGE = 1_000;

/** The page a query asks for, or why it cannot be read. */
function pageOf(query: Readonly<Record<string, string>>): Page | string {
  const limit = query.limit === undefined ? DEFAULT_PAGE : Number(query.limit);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE)
    return `limit must be a whole number from 1 to ${MAX_PAGE}.`;
  return { limit, after: query.after };
}

/** One page of `all` (in their order), and the cursor of the next page when there is one. */
function paginate<T>(
  all: Iterable<T>,
  idOf: (item: T) => string,
  matching: (item: T) => boolean,
  page: Page,
): { items: T[]; next: string | undefined } {
  const items: T[] = [];
  let started = page.after === undefined;
  for (const item of all) {
    if (!started) {
      started = idOf(item) === page.after;
      continue;
    }
    if (!matching(item)) continue;
    if (items.length === page.limit) return { items, next: idOf(items[items.length - 1] as T) };
    items.push(item);
  }
  return { items, next: undefined };
}
