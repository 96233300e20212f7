// A faulty implementation of the contract, made from the sandbox: a node:http server on 127.0.0.1
// (a free port) in front of an in-process sandbox. It forwards the contract's operations, the
// sandbox's control API (`/sandbox/...`) and the sandbox's token notifications, and applies ONE
// fault (faults.ts): a rewritten request (a lenient service), a rewritten answer (re-signed unless
// the fault is about the signature), state of its own (an earlier answer replayed), or a rewritten,
// added or dropped notification. `POST /sandbox/webhook-url` is the front's own: the sandbox always
// notifies the front, and the front passes each notification on to the URL given there. Every read
// is bounded in bytes and time; stop() stops the front and the sandbox.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type OperationId, operations } from '../../../generated/operations.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../../src/sandbox/index.js';
import { readBounded } from '../../../src/transport/send.js';
import type { CheckKind } from '../../../src/verify/types.js';
import { type Envelope, envelopeOf, isObject } from './envelopes.js';

/** The operations a service serves (the webhook is the merchant's). */
export type ServedOperation = Exclude<OperationId, 'notifyTokenStatus'>;

/** An answer as the front sends it. */
export interface FrontAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** A request of an operation, as the front received it. */
export interface FrontRequest {
  operationId: ServedOperation;
  /** The path and query as received (the front's origin). */
  url: URL;
  text: string;
  envelope: Envelope | undefined;
}

/** A request and the sandbox's answer to it (or to the request a fault rewrote). */
export interface FrontExchange extends FrontRequest {
  answer: FrontAnswer;
  answerEnvelope: Envelope | undefined;
}

/** A token status notification the sandbox sent. */
export interface FrontNotification {
  text: string;
  envelope: Envelope | undefined;
}

/** What a fault remembers across requests (its own, per front). */
export interface FaultMemory {
  answers: Map<string, FrontAnswer>;
  values: Map<string, string>;
  counts: Map<string, number>;
  marks: Set<string>;
}

/** How a fault changes a request: another text or query forwarded, or an answer given without forwarding. */
export interface RequestEdit {
  text?: string | undefined;
  search?: string | undefined;
  answer?: FrontAnswer | undefined;
}

/** One bug a service team could ship; `expectedRule` is the rule verify names when it finds it. */
export interface Fault {
  name: string;
  kind: CheckKind;
  expectedRule: string;
  /** What the service gets wrong, in words. */
  what: string;
  /** The phases of verify that can find it (the test runs only those). */
  phases: readonly string[];
  request?(request: FrontRequest, memory: FaultMemory): RequestEdit | undefined;
  answer?(exchange: FrontExchange, memory: FaultMemory): FrontAnswer | undefined;
  /** The texts sent instead of the notification (none: it is dropped), or undefined to pass it on. */
  notification?(notification: FrontNotification, memory: FaultMemory): string[] | undefined;
}

export interface Front {
  /** `http://127.0.0.1:<port>`: the gateway, the router and the control API. */
  url: string;
  sandbox: Sandbox;
  /** Where notifications are passed on (set by `POST /sandbox/webhook-url`). */
  readonly notifyTarget: string | null;
  stop(): Promise<void>;
}

/** The path where the sandbox notifies the front. */
const NOTIFY_PATH = '/front/notifications';
const MAX_BYTES = 1024 * 1024;
const UPSTREAM_TIMEOUT_MS = 15_000;
const NOTIFY_TIMEOUT_MS = 5_000;

/** The served operations, each with the pattern of its path. */
const ROUTES = operations.flatMap((op) =>
  op.operationId === 'notifyTokenStatus' || op.path === null
    ? []
    : [
        {
          operationId: op.operationId as ServedOperation,
          pattern: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        },
      ],
);

const operationAt = (path: string): ServedOperation | undefined =>
  ROUTES.find((r) => r.pattern.test(path))?.operationId;

/** The body of a request to the front, within MAX_BYTES (undefined past it). */
async function readRequest(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Posts (or gets) a text and reads the answer within the bounds. */
async function exchange(
  url: string,
  method: string,
  text: string | undefined,
  contentType: string | undefined,
  timeoutMs: number,
): Promise<FrontAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  const response = await fetch(url, {
    method,
    ...(text === undefined ? {} : { body: text }),
    headers: { accept: 'application/json', ...(contentType ? { 'content-type': contentType } : {}) },
    redirect: 'manual',
    signal,
  });
  const answer = await readBounded(response.body, MAX_BYTES, signal);
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: answer ?? '' };
}

const send = (res: ServerResponse, answer: FrontAnswer): void => {
  res.writeHead(answer.status, {
    'content-type': answer.contentType,
    'content-length': Buffer.byteLength(answer.text),
  });
  res.end(answer.text);
};

const json = (status: number, value: unknown): FrontAnswer => ({
  status,
  contentType: 'application/json',
  text: JSON.stringify(value),
});

/** The merchant's reply that accepts a notification (what the front answers when nobody else does). */
export const acceptedReply = (): FrontAnswer =>
  json(200, {
    head: { version: 'v1', responseTimestamp: String(Date.now()) },
    body: { resultInfo: { resultCode: '00', resultStatus: 'SUCCESS', resultMsg: 'SUCCESS' } },
  });

/** The front's state: the sandbox, the fault, its memory and where notifications go. */
interface FrontState {
  /** The sandbox's URL ('' until it listens). */
  upstream: string;
  /** The front's own URL. */
  self: string;
  fault: Fault | undefined;
  memory: FaultMemory;
  notifyTarget: string | null;
}

/** `POST /sandbox/webhook-url {"url": "http://..." | null}`: where notifications are passed on. */
function setNotifyTarget(state: FrontState, text: string): FrontAnswer {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return json(400, { error: { code: 'invalid-json', message: 'The body is not JSON.' } });
  }
  const url = isObject(value) ? value.url : undefined;
  if (url !== null && (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)))
    return json(400, { error: { code: 'invalid-url', message: 'url is an http(s) URL or null.' } });
  // The front's own address is where the sandbox notifies it (the sandbox's fixtures put back the URL
  // the sandbox had when verify is done): notifications then go nowhere, not round in a loop.
  state.notifyTarget = url !== null && new URL(url).origin === state.self ? null : url;
  return json(200, { url });
}

/** A notification of the sandbox: the fault's texts (or it as it came) passed on; the last reply relayed. */
async function notify(state: FrontState, text: string): Promise<FrontAnswer> {
  const texts = state.fault?.notification?.({ text, envelope: envelopeOf(text) }, state.memory) ?? [text];
  const target = state.notifyTarget;
  if (target === null) return acceptedReply();
  let reply = acceptedReply();
  for (const sent of texts) {
    try {
      reply = await exchange(target, 'POST', sent, 'application/json', NOTIFY_TIMEOUT_MS);
    } catch {
      reply = json(502, { error: { code: 'unreachable', message: 'The notification target did not answer.' } });
    }
  }
  return reply;
}

/** An operation: the fault's request edit, the sandbox's answer, the fault's answer edit. */
async function operation(
  state: FrontState,
  operationId: ServedOperation,
  url: URL,
  text: string,
): Promise<FrontAnswer> {
  const request: FrontRequest = { operationId, url, text, envelope: envelopeOf(text) };
  const edit = state.fault?.request?.(request, state.memory);
  if (edit?.answer) return edit.answer;
  const search = edit?.search ?? url.search;
  const answer = await exchange(
    `${state.upstream}${url.pathname}${search}`,
    'POST',
    edit?.text ?? text,
    'application/json',
    UPSTREAM_TIMEOUT_MS,
  );
  const changed = state.fault?.answer?.({ ...request, answer, answerEnvelope: envelopeOf(answer.text) }, state.memory);
  return changed ?? answer;
}

async function handle(state: FrontState, req: IncomingMessage): Promise<FrontAnswer> {
  const url = new URL(req.url ?? '/', 'http://front.invalid');
  const method = req.method ?? 'GET';
  const text = await readRequest(req);
  if (text === undefined)
    return json(413, { error: { code: 'too-large', message: `A request is at most ${MAX_BYTES} bytes.` } });
  if (!state.upstream) return json(503, { error: { code: 'starting', message: 'The front is starting.' } });
  if (method === 'POST' && url.pathname === NOTIFY_PATH) return notify(state, text);
  if (method === 'POST' && url.pathname === '/sandbox/webhook-url') return setNotifyTarget(state, text);
  const operationId = operationAt(url.pathname);
  if (method === 'POST' && operationId) return operation(state, operationId, url, text);
  const body = method === 'GET' || method === 'HEAD' ? undefined : text;
  return exchange(
    `${state.upstream}${url.pathname}${url.search}`,
    method,
    body,
    req.headers['content-type'],
    UPSTREAM_TIMEOUT_MS,
  );
}

const listen = (server: Server): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1' }, () => {
      server.off('error', reject);
      // Listening on a host and port, the address is an AddressInfo.
      resolve((server.address() as AddressInfo).port);
    });
  });

/** Starts a sandbox and the front before it, with one fault (none: a faithful front). */
export async function startFront(fault?: Fault, options: SandboxOptions = {}): Promise<Front> {
  const state: FrontState = {
    upstream: '',
    self: '',
    fault,
    memory: { answers: new Map(), values: new Map(), counts: new Map(), marks: new Set() },
    notifyTarget: null,
  };
  const server = createServer((req, res) => {
    handle(state, req).then(
      (answer) => send(res, answer),
      () =>
        send(res, json(502, { error: { code: 'front-failed', message: 'The front could not carry the request.' } })),
    );
  });
  server.requestTimeout = UPSTREAM_TIMEOUT_MS * 2;
  const port = await listen(server);
  const url = `http://127.0.0.1:${port}`;
  state.self = url;
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      port: 0,
      webhookUrl: `${url}${NOTIFY_PATH}`,
      webhookTimeoutMs: NOTIFY_TIMEOUT_MS * 2,
      ...options,
    });
  } catch (error) {
    server.close();
    throw error;
  }
  state.upstream = sandbox.url;
  let stopped = false;
  return {
    url,
    sandbox,
    get notifyTarget() {
      return state.notifyTarget;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      server.closeAllConnections();
      await Promise.all([new Promise((resolve) => server.close(() => resolve(undefined))), sandbox.stop()]);
    },
  };
}
