// The validating proxy: one server in front of the gateway's and the order router's hosts (and the
// merchant's webhook), routing each request by the contract's paths, forwarding the exact bytes
// both ways, checking each exchange (check.ts), recording it redacted (harWriter.ts) and keeping
// what the run covered. Bounds as the sandbox's: request bodies, headers, the time a client and the
// upstream may take (docs/decisions.md, D-87 to D-92).
import { createServer, Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { type OperationInfo, operations } from '../../generated/operations.js';
import { resultCodes } from '../../generated/resultCodes.js';
import { readBody } from '../http/readBody.js';
import { matchOperation, type UnsafeMatch } from '../http/route.js';
import { decodeUtf8 } from '../json/parse.js';
import type { CaseIssue, CaseResult, OperationCoverage, Report } from '../report/model.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_REQUEST_TIMEOUT_MS } from '../http/limits.js';
import { checkAnswer, checkRequest, checkStatus, type ExchangeIssue, type Parsed, parseBody, type RequestVerdict } from './check.js';
import { codingsOf, decodeAnswer } from './decode.js';
import { HarWriter, type RecordedMessage } from './harWriter.js';
import { InFlight } from './inFlight.js';
import { Secrets } from './redact.js';

export const DEFAULT_PROXY_PORT = 4030;
/** Answers larger than this are not forwarded (a 502 problem): a list of subscriptions with details stays far below it. */
export const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;
/** How long the upstream may take to answer (the client's own default). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;
/**
 * How long stop() waits for the exchanges in flight before it cuts them off: below the 10 s a
 * container runtime gives a process between SIGTERM and SIGKILL (D-111).
 */
export const DEFAULT_GRACE_MS = 5_000;
/** Exchanges kept for the report; past it they are counted, not kept (every output is bounded). */
const MAX_CASES = 100_000;
const HEADERS_TIMEOUT_MS = 10_000;

export interface ProxyOptions {
  /** The gateway's address, `{base_url}` (any base path is kept). */
  gatewayUpstream: string;
  /** The order router's address, `{router_url}`. */
  routerUpstream: string;
  /** The merchant's webhook address: notifications posted to `webhookPath` go there. */
  webhookUpstream?: string | undefined;
  /** The path the proxy receives the token notification at (default: the path of `webhookUpstream`). */
  webhookPath?: string | undefined;
  host?: string | undefined;
  port?: number | undefined;
  /** The merchant key: signatures and txnInfo.checksumHash are checked with it. Never printed. */
  merchantKey?: string | undefined;
  /** Answer a request that breaks the contract with a 422 problem, never forwarding it. */
  enforce?: boolean | undefined;
  /** Record every exchange, redacted, as HAR 1.2 in this file. */
  harFile?: string | undefined;
  /** After this many exchanges `finished` resolves. */
  maxExchanges?: number | undefined;
  maxBodyBytes?: number | undefined;
  maxAnswerBytes?: number | undefined;
  upstreamTimeoutMs?: number | undefined;
  requestTimeoutMs?: number | undefined;
  /** How long stop() waits for the exchanges in flight (default DEFAULT_GRACE_MS); those still open then are cut off. */
  graceMs?: number | undefined;
  /** One line per exchange: operation, verdict, code, time. Never a value. */
  onLog?: ((line: string) => void) | undefined;
}

export interface RunningProxy {
  readonly url: string;
  /** Resolves once `maxExchanges` exchanges have ended. */
  readonly finished: Promise<void>;
  /** The run so far: one case per exchange, and the coverage per operation. */
  report(): Report;
  /** How many exchanges are in flight: received, not yet answered and recorded. */
  inFlight(): number;
  /** Ends a stop()'s grace now: the exchanges still in flight are cut off (a second Ctrl-C). */
  endGrace(): void;
  /**
   * Stops listening, waits up to the grace for the exchanges in flight (each answered and recorded as
   * it ends), cuts off those still open (a 503 problem, recorded as the problem `shutdown`), then ends
   * the recording.
   */
  stop(): Promise<void>;
}

interface Route {
  op: OperationInfo;
  upstream: URL;
  /** The upstream's path for this request, before the query. */
  path: string;
  /** The query as received (validate() reads it, a repeated parameter refused: D-109), and the path parameters. */
  params: { query?: string; path?: Record<string, string> };
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
  'host',
  'content-length',
]);

/** An http(s) address, checked. */
function upstreamUrl(value: string, what: string): URL {
  if (!/^https?:\/\/[^\s]+$/i.test(value) || !URL.canParse(value)) throw new TypeError(`${what} must be an http(s) address.`);
  const url = new URL(value);
  if (url.search || url.hash) throw new TypeError(`${what} must have no query or fragment.`);
  return url;
}

/** An RFC 9457 problem. */
function sendProblem(res: ServerResponse, status: number, problem: Record<string, unknown>): string {
  const text = JSON.stringify({ status, ...problem });
  if (!res.headersSent) {
    res.writeHead(status, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
    res.end(text);
  }
  return text;
}

const PROBLEM = 'urn:gateway-contract:proxy:';

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const gateway = upstreamUrl(options.gatewayUpstream, 'gatewayUpstream');
  const router = upstreamUrl(options.routerUpstream, 'routerUpstream');
  const webhookUpstream = options.webhookUpstream === undefined ? undefined : upstreamUrl(options.webhookUpstream, 'webhookUpstream');
  const webhookPath = options.webhookPath ?? webhookUpstream?.pathname;
  if (webhookPath !== undefined && !webhookUpstream) throw new TypeError('webhookPath needs webhookUpstream: the address notifications are forwarded to.');
  if (webhookPath !== undefined && !/^\/[^\s?#]*$/.test(webhookPath)) throw new TypeError('webhookPath must be a URL path, e.g. /webhooks/token.');
  if (webhookPath !== undefined && matchOperation(webhookPath) !== undefined) throw new TypeError("webhookPath is one of the contract's paths.");
  const key = options.merchantKey;
  if (key !== undefined && new TextEncoder().encode(key).length !== 16) throw new TypeError('The merchant key must be 16 bytes.');
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const webhookOp = operations.find((o) => o.operationId === 'notifyTokenStatus') as OperationInfo;

  const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 256 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 256 }) };
  const har = options.harFile === undefined ? undefined : new HarWriter(options.harFile);

  const cases: CaseResult[] = [];
  let exchanges = 0;
  let invalid = 0;
  const coverage = new Map<string, { exchanges: number; met: Set<string>; fired: Map<string, number> }>();
  /** The exchanges in flight, each with how to cut it off when the grace ends; and the requests already recorded. */
  const inFlight = new InFlight<IncomingMessage>();
  const recorded = new WeakSet<IncomingMessage>();
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });

  /** The route of a request: an operation's (or the webhook's), a path parameter refused (D-112), another method, or none. */
  function route(method: string, rawUrl: string): Route | UnsafeMatch | null | 'method' {
    const q = rawUrl.indexOf('?');
    const pathname = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const search = q < 0 ? '' : rawUrl.slice(q + 1);
    const match = matchOperation(pathname);
    if (match) {
      if (method !== 'POST') return 'method';
      if (match.kind === 'unsafe') return match;
      const upstream = match.operation.host === 'router' ? router : gateway;
      return {
        op: match.operation,
        upstream,
        path: `${upstream.pathname.replace(/\/$/, '')}${pathname}`,
        params: { query: search, ...(Object.keys(match.path).length ? { path: { ...match.path } } : {}) },
      };
    }
    if (webhookPath !== undefined && webhookUpstream && pathname === webhookPath) {
      if (method !== 'POST') return 'method';
      return { op: webhookOp, upstream: webhookUpstream, path: webhookUpstream.pathname, params: {} };
    }
    return null;
  }

  /** Ends an exchange: its case, its coverage, its recording, its log line. */
  function record(
    r: Route | null,
    req: IncomingMessage,
    started: number,
    issues: ExchangeIssue[],
    extra: { resultCode?: string | undefined; met?: string | undefined; fired?: string[]; note?: string | undefined },
    request: RecordedMessage,
    response: RecordedMessage & { status: number; statusText: string },
    secrets: Secrets,
  ): void {
    // An exchange ends once: one cut off at shutdown is not recorded again when its upstream call fails.
    if (recorded.has(req)) return;
    recorded.add(req);
    const n = ++exchanges;
    const operationId = r?.op.operationId ?? '<none>';
    const valid = issues.length === 0;
    if (!valid) invalid++;
    if (r) {
      let cov = coverage.get(operationId);
      if (!cov) {
        cov = { exchanges: 0, met: new Set(), fired: new Map() };
        coverage.set(operationId, cov);
      }
      cov.exchanges++;
      if (extra.met) cov.met.add(extra.met);
      for (const name of extra.fired ?? []) cov.fired.set(name, (cov.fired.get(name) ?? 0) + 1);
    }
    const errors: CaseIssue[] = issues.map(({ side, ...issue }) => ({ ...issue, message: `${side === 'request' ? 'Request' : 'Answer'}: ${issue.message}` }));
    const codeOf = extra.resultCode && r ? resultCodes[r.op.operationId as keyof typeof resultCodes].codes.find((c) => c.code === extra.resultCode) : undefined;
    const name = `exchange ${n} ${req.method ?? ''} ${operationId}${extra.note ? ` (${extra.note})` : ''}`;
    if (cases.length < MAX_CASES)
      cases.push({
        index: n - 1,
        name,
        operationId,
        direction: 'exchange',
        valid,
        errors: errors.slice(0, 100),
        errorCount: errors.length,
        ...(codeOf ? { resultCode: { code: codeOf.code as never, status: codeOf.status, message: codeOf.messages[0] ?? '' } } : {}),
      });
    const durationMs = Date.now() - started;
    options.onLog?.(
      `${name}: ${valid ? 'valid' : `${issues.length} problem(s)`}, HTTP ${response.status}${extra.met ? `, code ${extra.met}` : ''}, ${durationMs} ms`,
    );
    if (har) {
      const comment = valid
        ? 'valid'
        : `${issues.length} problem(s): ${issues
            .slice(0, 10)
            .map((i) => `${i.side} ${i.pointer || '(the payload)'} ${i.rule}`)
            .join('; ')}`;
      har.write({
        started,
        durationMs,
        method: req.method ?? 'GET',
        url: `http://${req.headers.host ?? 'proxy'}${req.url ?? '/'}`,
        operationId: r?.op.operationId ?? null,
        template: r?.op.path ?? null,
        request,
        response,
        secrets,
        comment,
      });
    }
    if (options.maxExchanges !== undefined && exchanges >= options.maxExchanges) finish();
  }

  // Without a recording, nothing of a message is kept: no text is kept for it.
  const message = (headers: RecordedMessage['headers'], bytes: Uint8Array | null, text: string | null, parsed?: Parsed): RecordedMessage => ({
    headers,
    text: har ? text : null,
    parsed: parsed?.ok ? parsed : { ok: false },
    size: bytes?.byteLength ?? 0,
  });

  function answerProblem(res: ServerResponse, status: number, problem: Record<string, unknown>): RecordedMessage & { status: number; statusText: string } {
    const text = sendProblem(res, status, problem);
    return {
      headers: { 'content-type': 'application/problem+json' },
      text,
      parsed: { ok: true, value: JSON.parse(text) },
      ownProblem: true,
      size: Buffer.byteLength(text),
      status,
      statusText: '',
    };
  }

  /** A compressed request: the service reads the body as it is, so the proxy cannot judge what it will read (D-108). */
  function refuseEncodedRequest(r: Route, req: IncomingMessage, res: ServerResponse, started: number): void {
    req.resume();
    const issue: ExchangeIssue = {
      side: 'request',
      in: 'body',
      pointer: '',
      rule: 'request-encoding',
      message: 'The request has a content-encoding: the service reads plain JSON, so it is not forwarded.',
    };
    const answer = answerProblem(res, 415, {
      type: `${PROBLEM}request-encoding`,
      title: 'Compressed request',
      detail: issue.message,
      operationId: r.op.operationId,
    });
    record(r, req, started, [issue], {}, message({ ...req.headers }, null, null), answer, new Secrets(key));
  }

  /** Counts the exchange in flight until its answer is sent (or its client goes away). */
  function track(r: Route, req: IncomingMessage, res: ServerResponse, started: number): void {
    inFlight.track(req, res, () => cutOff(r, req, res, started));
  }

  /** The upstream calls in flight, by request: how to abandon each one with a verdict. */
  const abandon = new Map<IncomingMessage, (failure: Failure) => void>();

  const SHUTDOWN: Failure = {
    status: 503,
    rule: 'shutdown',
    title: 'The proxy stopped',
    message: `The proxy stopped before this exchange ended (its grace of ${graceMs} ms ran out).`,
  };

  /** An exchange still open when the grace ends: answered 503 and recorded as the problem shutdown. */
  function cutOff(r: Route, req: IncomingMessage, res: ServerResponse, started: number): void {
    const upstreamCall = abandon.get(req);
    if (upstreamCall) {
      upstreamCall(SHUTDOWN);
      return;
    }
    const issue: ExchangeIssue = { side: 'request', in: 'body', pointer: '', rule: SHUTDOWN.rule, message: SHUTDOWN.message };
    const answer = answerProblem(res, 503, { type: `${PROBLEM}shutdown`, title: SHUTDOWN.title, detail: SHUTDOWN.message, operationId: r.op.operationId });
    record(r, req, started, [issue], {}, message({ ...req.headers }, null, null), answer, new Secrets(key));
  }

  /** A path parameter a front could read as another path: answered 400, never forwarded, in both modes (D-112). */
  function refuseUnsafePath(match: UnsafeMatch, req: IncomingMessage, res: ServerResponse, started: number): void {
    req.resume();
    const r: Route = { op: match.operation, upstream: gateway, path: '', params: {} };
    const issue: ExchangeIssue = { side: 'request', in: 'path', pointer: `/${match.parameter}`, rule: 'safePathParameter', message: match.message };
    const answer = answerProblem(res, 400, {
      type: `${PROBLEM}unsafe-path`,
      title: 'A path parameter that could be read as another path',
      detail: issue.message,
      operationId: match.operation.operationId,
    });
    record(r, req, started, [issue], {}, message({ ...req.headers }, null, null), answer, new Secrets(key));
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const started = Date.now();
    const r = route(req.method ?? 'GET', req.url ?? '/');
    if (r === null || r === 'method') {
      req.resume();
      if (r === null)
        sendProblem(res, 404, {
          type: `${PROBLEM}no-operation`,
          title: 'No operation of the contract at this path',
          detail: "The proxy serves the contract's paths of the gateway and the order router, and the webhook path it was given.",
        });
      else sendProblem(res, 405, { type: `${PROBLEM}method`, title: 'Method not allowed', detail: "The contract's operations are POST." });
      return;
    }
    if ('kind' in r) {
      refuseUnsafePath(r, req, res, started);
      return;
    }
    track(r, req, res, started);
    if (codingsOf(req.headers['content-encoding']).length > 0) {
      refuseEncodedRequest(r, req, res, started);
      return;
    }
    readBody(req, maxBodyBytes, (body, problem) => {
      const secrets = new Secrets(key);
      const requestHeaders = { ...req.headers };
      if (body === null) {
        if (problem === 'aborted') return;
        const issue: ExchangeIssue = {
          side: 'request',
          in: 'body',
          pointer: '',
          rule: 'maxBytes',
          message: `The request body is larger than ${maxBodyBytes} bytes.`,
        };
        const answer = answerProblem(res, 413, {
          type: `${PROBLEM}too-large`,
          title: 'Request body too large',
          detail: issue.message,
          operationId: r.op.operationId,
        });
        record(r, req, started, [issue], {}, message(requestHeaders, null, null), answer, secrets);
        return;
      }
      /** The request's checks: its text decoded once, parsed once. */
      const inspect = (): { verdict: RequestVerdict; recordedRequest: RecordedMessage } => {
        const text = decodeUtf8(body);
        const parsed = parseBody(text ?? body);
        return { verdict: checkRequest(r.op, text ?? '', parsed, r.params, key), recordedRequest: message(requestHeaders, body, text, parsed) };
      };
      // With --enforce the request is checked before it may go on. In report mode it goes to the
      // upstream first and is checked while the upstream works: the checks add nothing to the
      // exchange's time (D-92).
      let inspected = options.enforce ? inspect() : undefined;
      if (inspected && inspected.verdict.issues.length > 0) {
        const { verdict, recordedRequest } = inspected;
        const answer = answerProblem(res, 422, {
          type: `${PROBLEM}request-breaks-contract`,
          title: 'The request breaks the contract',
          detail: `${verdict.issues.length} problem(s); the request was not forwarded.`,
          operationId: r.op.operationId,
          ...(verdict.resultCode ? { resultCode: verdict.resultCode } : {}),
          errors: verdict.issues.slice(0, 100).map((i) => ({
            pointer: i.pointer,
            in: i.in,
            rule: i.rule,
            detail: i.message,
            ...(i.resultCode ? { resultCode: i.resultCode } : {}),
          })),
        });
        record(
          r,
          req,
          started,
          verdict.issues,
          { resultCode: verdict.resultCode, fired: verdict.firedChecks, note: 'refused' },
          recordedRequest,
          answer,
          secrets,
        );
        return;
      }
      forward(r, req, res, body, (outcome) => {
        inspected ??= inspect();
        const { verdict, recordedRequest } = inspected;
        if ('failure' in outcome) {
          const issue: ExchangeIssue = { side: 'answer', in: 'body', pointer: '', rule: outcome.failure.rule, message: outcome.failure.message };
          const answer = answerProblem(res, outcome.failure.status, {
            type: `${PROBLEM}${outcome.failure.rule}`,
            title: outcome.failure.title,
            detail: outcome.failure.message,
            operationId: r.op.operationId,
            ...(outcome.upstreamStatus === undefined ? {} : { upstreamStatus: outcome.upstreamStatus }),
          });
          record(r, req, started, [...verdict.issues, issue], { resultCode: verdict.resultCode, fired: verdict.firedChecks }, recordedRequest, answer, secrets);
          return;
        }
        // The exact bytes and headers of the upstream's answer, forwarded before the answer is
        // checked: answers are never replaced, only reported (D-89), so their checks wait (D-92).
        // No verdict travels in a header.
        if (!res.headersSent) {
          res.writeHead(outcome.status, outcome.statusText, { ...outcome.headers, 'content-length': outcome.body.byteLength });
          res.end(outcome.body);
        }
        const answerParsed = outcome.parsed;
        const answerVerdict = checkAnswer(r.op, outcome.text ?? '', answerParsed, key);
        record(
          r,
          req,
          started,
          [...verdict.issues, ...checkStatus(outcome.status), ...answerVerdict.issues],
          { resultCode: verdict.resultCode, met: answerVerdict.code, fired: verdict.firedChecks },
          recordedRequest,
          { ...message(outcome.headers, outcome.body, outcome.text, answerParsed), status: outcome.status, statusText: outcome.statusText },
          secrets,
        );
      });
      inspected ??= inspect();
    });
  }

  type Failure = { status: 502 | 503 | 504; rule: string; title: string; message: string };
  type Outcome =
    | { status: number; statusText: string; headers: Record<string, string | string[] | undefined>; body: Buffer; text: string | null; parsed: Parsed }
    | { failure: Failure; upstreamStatus?: number };

  function forward(r: Route, req: IncomingMessage, res: ServerResponse, body: Buffer, done: (o: Outcome) => void): void {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    headers['content-length'] = String(body.byteLength);
    const q = (req.url ?? '').indexOf('?');
    const https = r.upstream.protocol === 'https:';
    const target: RequestOptions = {
      method: 'POST',
      protocol: r.upstream.protocol,
      hostname: r.upstream.hostname.replace(/^\[|\]$/g, ''),
      port: r.upstream.port || (https ? 443 : 80),
      path: `${r.path}${q < 0 ? '' : (req.url ?? '').slice(q)}`,
      headers: { ...headers, host: r.upstream.host },
      agent: https ? agents.https : agents.http,
    };
    let settled = false;
    const settle = (o: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      abandon.delete(req);
      done(o);
    };
    const fail = (status: 502 | 503 | 504, rule: string, title: string, text: string, upstreamStatus?: number) =>
      settle({ failure: { status, rule, title, message: text }, ...(upstreamStatus === undefined ? {} : { upstreamStatus }) });
    const upstream = (https ? httpsRequest : httpRequest)(target, (answer) => {
      const chunks: Buffer[] = [];
      let size = 0;
      answer.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxAnswerBytes) {
          // The verdict first: destroying the answer emits its own failure.
          fail(502, 'upstream-too-large', 'Answer too large', `The upstream's answer is larger than ${maxAnswerBytes} bytes.`, answer.statusCode);
          answer.destroy();
          return;
        }
        chunks.push(chunk);
      });
      answer.on('error', () => fail(502, 'upstream-reset', 'Upstream reset', 'The upstream closed the connection before its answer ended.'));
      answer.on('aborted', () => fail(502, 'upstream-reset', 'Upstream reset', 'The upstream closed the connection before its answer ended.'));
      answer.on('end', () => {
        const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        const status = answer.statusCode ?? 502;
        // A compressed answer is decoded for the checks; the client gets `bytes` as they came (D-108).
        decodeAnswer(bytes, answer.headers['content-encoding'], maxAnswerBytes, (decoded) => {
          if (!decoded.ok) {
            fail(502, decoded.rule, decoded.rule === 'upstream-too-large' ? 'Answer too large' : 'Upstream answer not decoded', decoded.message, status);
            return;
          }
          const text = decodeUtf8(decoded.bytes);
          const parsed = parseBody(text ?? decoded.bytes);
          if (!parsed.ok && !parsed.tooDeep) {
            fail(502, 'upstream-not-json', 'Upstream answer not JSON', `The upstream answered HTTP ${status} with a body that is not JSON.`, status);
            return;
          }
          const out: Record<string, string | string[] | undefined> = {};
          for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
          settle({ status, statusText: answer.statusMessage ?? '', headers: out, body: bytes, text, parsed });
        });
      });
    });
    const timer = setTimeout(() => {
      upstream.destroy();
      fail(504, 'upstream-timeout', 'Upstream timeout', `The upstream did not answer within ${upstreamTimeoutMs} ms.`);
    }, upstreamTimeoutMs);
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') fail(502, 'upstream-refused', 'Upstream refused', 'The upstream refused the connection.');
      else if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN')
        fail(502, 'upstream-unknown', 'Upstream not found', "The upstream's host name is not known.");
      else fail(502, 'upstream-reset', 'Upstream reset', 'The upstream closed the connection without an answer.');
    });
    // The client went away: stop waiting for the upstream.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    abandon.set(req, (failure) => {
      settle({ failure });
      upstream.destroy();
    });
    upstream.end(body);
  }

  const server = createServer({ noDelay: true, connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(requestTimeoutMs / 3))) }, handle);
  server.requestTimeout = requestTimeoutMs;
  server.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PROXY_PORT, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  function report(): Report {
    const cov: OperationCoverage[] = [];
    for (const [operationId, c] of coverage) {
      const table = resultCodes[operationId as keyof typeof resultCodes].codes.map((e) => e.code);
      const op = operations.find((o) => o.operationId === operationId);
      cov.push({
        operationId,
        exchanges: c.exchanges,
        codesMet: table.filter((code) => c.met.has(code)),
        codesNotMet: table.filter((code) => !c.met.has(code)),
        namedChecks: (op?.namedChecks ?? []).map((name) => ({ name, fired: c.fired.get(name) ?? 0 })),
      });
    }
    return {
      title: 'gateway-contract proxy',
      noun: 'exchange',
      cases: [...cases],
      skipped: [],
      counts: { cases: exchanges, valid: exchanges - invalid, invalid, skipped: 0 },
      truncated: exchanges > cases.length,
      coverage: cov,
    };
  }

  /** Stops listening; lets the exchanges in flight end within the grace, cuts off the rest; ends the recording. */
  async function shutDown(): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await inFlight.settledOrAfter(graceMs);
    inFlight.cutAll();
    server.closeAllConnections();
    await closed;
    agents.http.destroy();
    agents.https.destroy();
    har?.close();
  }

  let stopping: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    finished,
    report,
    inFlight: () => inFlight.size,
    endGrace: () => inFlight.endGrace(),
    stop() {
      stopping ??= shutDown();
      return stopping;
    },
  };
}
