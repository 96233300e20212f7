// One exchange through the proxy, from the request's arrival to its entry in the ledger: routed
// (routes.ts), counted in flight (inFlight.ts), its body read within the bound, checked, forwarded
// (upstream.ts) and its answer passed on and checked; or answered by the proxy itself with a problem
// (problems.ts): a compressed request (415), an unsafe path parameter (400), a body too large (413),
// a request that breaks the contract under enforce (422), an upstream that fails (502, 504), a stop
// whose grace ran out (503). Every exchange that is routed ends in the ledger once.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationInfo } from '../../generated/operations.js';
import { readBody } from '../http/readBody.js';
import type { UnsafeMatch } from '../http/route.js';
import { decodeUtf8 } from '../json/parse.js';
import { checkAnswer, checkRequest, checkStatus, type ExchangeIssue, parseBody, type RequestVerdict } from './check.js';
import { codingsOf } from './decode.js';
import type { RecordedMessage } from './harWriter.js';
import type { InFlight } from './inFlight.js';
import type { Exchange, ExchangeLedger } from './ledger.js';
import type { ProxySettings } from './options.js';
import { answerMethodNotAllowed, answerNoOperation, answerProblem, PROBLEM } from './problems.js';
import { Secrets } from './redact.js';
import { type Route, routeRequest } from './routes.js';
import type { Answer, Failure, Outcome, Upstream } from './upstream.js';

/** What an exchange goes through: the settings, the ledger, the upstream calls and the count in flight. */
export interface ProxyParts {
  readonly settings: ProxySettings;
  readonly ledger: ExchangeLedger;
  readonly upstream: Upstream;
  readonly inFlight: InFlight<IncomingMessage>;
}

/** An exchange under way: its operation, its client's request and response, and when it came. */
interface Open {
  readonly op: OperationInfo;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly started: number;
}

/** An exchange on its way upstream. */
interface Routed extends Open {
  readonly route: Route;
}

/** A request checked: its verdict, and the request as the ledger records it. */
interface Inspected {
  readonly verdict: RequestVerdict;
  readonly request: RecordedMessage;
}

/** The proxy's own problem for an exchange: its status, its type under PROBLEM, and members after `operationId`. */
interface Refusal {
  status: number;
  type: string;
  title: string;
  detail: string;
  more?: Record<string, unknown> | undefined;
}

/** An upstream call that ended without an answer. */
type Failed = Extract<Outcome, { failure: Failure }>;

/** What the ledger needs of an exchange beyond its operation, request, start and answer. */
type Ending = Omit<Exchange, 'op' | 'req' | 'started' | 'response'>;

/** Serves one request: routes it, and takes it through the exchange or answers it 404 or 405. */
export function handleRequest(parts: ProxyParts, req: IncomingMessage, res: ServerResponse): void {
  const started = Date.now();
  const route = routeRequest(parts.settings.upstreams, req.method ?? 'GET', req.url ?? '/');
  if (route === null || route === 'method') {
    req.resume();
    if (route === null) answerNoOperation(res);
    else answerMethodNotAllowed(res);
    return;
  }
  if ('kind' in route) {
    refuseUnsafePath(parts, route, req, res, started);
    return;
  }
  const x: Routed = { op: route.op, route, req, res, started };
  parts.inFlight.track(req, res, () => cutOff(parts, x));
  if (codingsOf(req.headers['content-encoding']).length > 0) {
    refuseEncodedRequest(parts, x);
    return;
  }
  readBody(req, parts.settings.maxBodyBytes, (body, problem) => {
    if (body !== null) exchange(parts, x, body);
    else if (problem !== 'aborted') refuseTooLarge(parts, x);
  });
}

/** Answers an exchange with the proxy's own problem and ends it in the ledger. */
function refuse(parts: ProxyParts, x: Open, refusal: Refusal, ending: Ending): void {
  const response = answerProblem(x.res, refusal.status, {
    type: `${PROBLEM}${refusal.type}`,
    title: refusal.title,
    detail: refusal.detail,
    operationId: x.op.operationId,
    ...refusal.more,
  });
  parts.ledger.record({ op: x.op, req: x.req, started: x.started, response, ...ending });
}

/** A refusal before the body is read: one problem of the request, the request recorded without its body. */
function refuseUnread(
  parts: ProxyParts,
  x: Open,
  refusal: Refusal,
  at: Pick<ExchangeIssue, 'in' | 'pointer' | 'rule'>,
): void {
  const issue: ExchangeIssue = {
    side: 'request',
    in: at.in,
    pointer: at.pointer,
    rule: at.rule,
    message: refusal.detail,
  };
  const request = parts.ledger.message({ ...x.req.headers }, null, null);
  refuse(parts, x, refusal, { issues: [issue], request, secrets: new Secrets(parts.settings.key) });
}

/** A path parameter a front could read as another path: answered 400, never forwarded, in both modes (D-112). */
function refuseUnsafePath(
  parts: ProxyParts,
  match: UnsafeMatch,
  req: IncomingMessage,
  res: ServerResponse,
  started: number,
): void {
  req.resume();
  const refusal = {
    status: 400,
    type: 'unsafe-path',
    title: 'A path parameter that could be read as another path',
    detail: match.message,
  };
  refuseUnread(parts, { op: match.operation, req, res, started }, refusal, {
    in: 'path',
    pointer: `/${match.parameter}`,
    rule: 'safePathParameter',
  });
}

/** A compressed request: the service reads the body as it is, so the proxy cannot judge what it will read (D-108). */
function refuseEncodedRequest(parts: ProxyParts, x: Open): void {
  x.req.resume();
  const detail = 'The request has a content-encoding: the service reads plain JSON, so it is not forwarded.';
  refuseUnread(
    parts,
    x,
    { status: 415, type: 'request-encoding', title: 'Compressed request', detail },
    { in: 'body', pointer: '', rule: 'request-encoding' },
  );
}

/** A body larger than the bound: answered 413, never forwarded. */
function refuseTooLarge(parts: ProxyParts, x: Open): void {
  const detail = `The request body is larger than ${parts.settings.maxBodyBytes} bytes.`;
  refuseUnread(
    parts,
    x,
    { status: 413, type: 'too-large', title: 'Request body too large', detail },
    { in: 'body', pointer: '', rule: 'maxBytes' },
  );
}

/** Why an exchange still open when a stop's grace ends is cut off. */
function shutdownFailure(graceMs: number): Failure {
  return {
    status: 503,
    rule: 'shutdown',
    title: 'The proxy stopped',
    message: `The proxy stopped before this exchange ended (its grace of ${graceMs} ms ran out).`,
  };
}

/** An exchange still open when the grace ends: answered 503 and recorded as the problem shutdown. */
function cutOff(parts: ProxyParts, x: Open): void {
  const shutdown = shutdownFailure(parts.settings.graceMs);
  if (parts.upstream.abandon(x.req, shutdown)) return;
  refuseUnread(
    parts,
    x,
    { status: 503, type: 'shutdown', title: shutdown.title, detail: shutdown.message },
    { in: 'body', pointer: '', rule: shutdown.rule },
  );
}

/** The request's checks: its text decoded once, parsed once. */
function inspectRequest(parts: ProxyParts, route: Route, body: Buffer, headers: RecordedMessage['headers']): Inspected {
  const text = decodeUtf8(body);
  const parsed = parseBody(text ?? body);
  return {
    verdict: checkRequest(route.op, text ?? '', parsed, route.params, parts.settings.key),
    request: parts.ledger.message(headers, body, text, parsed),
  };
}

/** A request read whole: checked, and forwarded unless enforce refuses it. */
function exchange(parts: ProxyParts, x: Routed, body: Buffer): void {
  const secrets = new Secrets(parts.settings.key);
  const headers = { ...x.req.headers };
  let inspected: Inspected | undefined;
  const inspection = () => {
    inspected ??= inspectRequest(parts, x.route, body, headers);
    return inspected;
  };
  // With --enforce the request is checked before it may go on. In report mode it goes to the
  // upstream first and is checked while the upstream works: the checks add nothing to the
  // exchange's time (D-92).
  if (parts.settings.enforce) {
    const first = inspection();
    if (first.verdict.issues.length > 0) {
      refuseBreach(parts, x, first, secrets);
      return;
    }
  }
  parts.upstream.forward(x.route, x.req, x.res, body, (outcome) => {
    if ('failure' in outcome) answerFailure(parts, x, inspection(), outcome, secrets);
    else passAnswer(parts, x, inspection(), outcome, secrets);
  });
  inspection();
}

/** Under enforce, a request that breaks the contract: answered 422 with its problems, never forwarded (D-89). */
function refuseBreach(parts: ProxyParts, x: Open, { verdict, request }: Inspected, secrets: Secrets): void {
  const errors = verdict.issues.slice(0, 100).map((i) => ({
    pointer: i.pointer,
    in: i.in,
    rule: i.rule,
    detail: i.message,
    ...(i.resultCode ? { resultCode: i.resultCode } : {}),
  }));
  const refusal: Refusal = {
    status: 422,
    type: 'request-breaks-contract',
    title: 'The request breaks the contract',
    detail: `${verdict.issues.length} problem(s); the request was not forwarded.`,
    more: { ...(verdict.resultCode ? { resultCode: verdict.resultCode } : {}), errors },
  };
  refuse(parts, x, refusal, {
    issues: verdict.issues,
    resultCode: verdict.resultCode,
    fired: verdict.firedChecks,
    note: 'refused',
    request,
    secrets,
  });
}

/** The upstream failed: answered with the failure's problem, recorded with the request's problems and the failure. */
function answerFailure(
  parts: ProxyParts,
  x: Open,
  { verdict, request }: Inspected,
  { failure, upstreamStatus }: Failed,
  secrets: Secrets,
): void {
  const issue: ExchangeIssue = {
    side: 'answer',
    in: 'body',
    pointer: '',
    rule: failure.rule,
    message: failure.message,
  };
  const refusal: Refusal = {
    status: failure.status,
    type: failure.rule,
    title: failure.title,
    detail: failure.message,
    more: upstreamStatus === undefined ? {} : { upstreamStatus },
  };
  refuse(parts, x, refusal, {
    issues: [...verdict.issues, issue],
    resultCode: verdict.resultCode,
    fired: verdict.firedChecks,
    request,
    secrets,
  });
}

/**
 * The exact bytes and headers of the upstream's answer, forwarded before the answer is checked:
 * answers are never replaced, only reported (D-89), so their checks wait (D-92). No verdict
 * travels in a header.
 */
function passAnswer(
  parts: ProxyParts,
  x: Open,
  { verdict, request }: Inspected,
  answer: Answer,
  secrets: Secrets,
): void {
  if (!x.res.headersSent) {
    x.res.writeHead(answer.status, answer.statusText, { ...answer.headers, 'content-length': answer.body.byteLength });
    x.res.end(answer.body);
  }
  const answerVerdict = checkAnswer(x.op, answer.text ?? '', answer.parsed, parts.settings.key);
  parts.ledger.record({
    op: x.op,
    req: x.req,
    started: x.started,
    issues: [...verdict.issues, ...checkStatus(answer.status), ...answerVerdict.issues],
    resultCode: verdict.resultCode,
    met: answerVerdict.code,
    fired: verdict.firedChecks,
    request,
    response: {
      ...parts.ledger.message(answer.headers, answer.body, answer.text, answer.parsed),
      status: answer.status,
      statusText: answer.statusText,
    },
    secrets,
  });
}
