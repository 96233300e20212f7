// The receiver on node:http and on the Fetch API: read the raw body (bounded), hand it to the
// receiver, run the merchant's handler for an accepted notification, send the reply envelope.
// A notification's verdict is always HTTP 200 with its code (DECISIONS.md, D-09); a request that
// is not a notification at all (not POST, not JSON, too large) gets an HTTP error status too.
// The Fetch adapter uses Web APIs alone; the node:http one runs only under Node (Buffer is its global).
import { utf8Bytes } from '../encoding/bytes.js';
import type { NodeRequest, NodeResponse } from '../http/nodeTypes.js';
import { readBody, readWebBody } from '../http/readBody.js';
import type { RequestOf, ResponseOf } from '../types.js';
import type { ValidationIssue } from '../validation/validate.js';
import type { ReplyCode } from './reply.js';

/**
 * Called with each accepted notification. `signal` aborts when the handler outruns the receiver's
 * `handlerTimeoutMs`: stop there, since the notification's claim lapses soon after (D-105).
 */
export type TokenStatusHandler = (
  event: RequestOf<'notifyTokenStatus'>,
  context: { signal: AbortSignal },
) => void | Promise<void>;

export interface WebhookRejected {
  accepted: false;
  /** The code of section 7.1 the reply carries. */
  code: ReplyCode;
  reply: ResponseOf<'notifyTokenStatus'>;
  /** What is wrong, with JSON Pointers; never a signature or another value of the payload. */
  issues: ValidationIssue[];
}

/** What the adapters need of a receiver. */
export interface ReceiverCore {
  deliver(raw: Uint8Array, onEvent: TokenStatusHandler): Promise<ResponseOf<'notifyTokenStatus'>>;
  maxBytes: number;
  reject(code: ReplyCode, issues: ValidationIssue[]): WebhookRejected;
  report(verdict: WebhookRejected): void;
}

interface Refusal {
  status: number;
  headers: Record<string, string>;
  verdict: WebhookRejected;
}

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

const protocolIssue = (rule: string, message: string): ValidationIssue => ({
  in: 'body',
  pointer: '',
  rule,
  message,
  resultCode: '400',
});

/** Whether the request can be a notification at all, judged from its method and headers. */
function refusal(
  core: ReceiverCore,
  method: string | undefined,
  contentType: string | null | undefined,
  contentLength: string | null | undefined,
): Refusal | null {
  if (method !== 'POST') {
    return {
      status: 405,
      headers: { allow: 'POST' },
      verdict: core.reject('400', [
        protocolIssue(
          'method',
          `The notification is sent with POST; this request used ${String(method).slice(0, 16)}.`,
        ),
      ]),
    };
  }
  if (contentType && !JSON_TYPE.test(contentType)) {
    return {
      status: 415,
      headers: {},
      verdict: core.reject('400', [
        protocolIssue('contentType', 'The notification is JSON: send it with Content-Type: application/json.'),
      ]),
    };
  }
  if (contentLength && Number(contentLength) > core.maxBytes) return tooLarge(core);
  return null;
}

function tooLarge(core: ReceiverCore): Refusal {
  return {
    status: 413,
    headers: {},
    verdict: core.reject('400', [protocolIssue('maxBytes', `The notification is larger than ${core.maxBytes} bytes.`)]),
  };
}

function checkHandler(onEvent: unknown): void {
  if (typeof onEvent !== 'function')
    throw new TypeError('Pass the function to call with each accepted notification (onEvent).');
}

/** A node:http request listener over the receiver. */
export function nodeHandler(
  core: ReceiverCore,
  onEvent: TokenStatusHandler,
): (req: NodeRequest, res: NodeResponse) => void {
  checkHandler(onEvent);
  return (req, res) => {
    serveNode(core, onEvent, req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) sendNode(res, 500, core.reject('500', []).reply);
    });
  };
}

/** Sends the reply; `close` closes the connection after it. */
function sendNode(
  res: NodeResponse,
  status: number,
  reply: unknown,
  headers: Record<string, string> = {},
  close = false,
): void {
  const text = JSON.stringify(reply);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(text);
}

async function serveNode(
  core: ReceiverCore,
  onEvent: TokenStatusHandler,
  req: NodeRequest,
  res: NodeResponse,
): Promise<void> {
  const refused = refusal(core, req.method, req.headers['content-type'], req.headers['content-length']);
  if (refused) return refuseNode(core, req, res, refused);
  const parsedBody = (req as NodeRequest & { body?: unknown }).body;
  if (req.readableEnded && parsedBody !== undefined) {
    // Middleware read the stream first. Raw bytes (express.raw()) are what the receiver needs;
    // a parsed object (express.json()) has lost the exact bytes the signature covers.
    if (typeof parsedBody === 'string' || parsedBody instanceof Uint8Array)
      return sendNode(
        res,
        200,
        await core.deliver(typeof parsedBody === 'string' ? utf8Bytes(parsedBody) : parsedBody, onEvent),
      );
    const verdict = core.reject('400', [
      protocolIssue(
        'rawBody',
        'The request body was already parsed by a body parser (req.body is an object): mount this handler before it, or give it the raw bytes (for example express.raw({ type: "application/json" })).',
      ),
    ]);
    core.report(verdict);
    return sendNode(res, 200, verdict.reply);
  }
  const raw = await readNode(req, core.maxBytes);
  if (!raw) return refuseNode(core, req, res, tooLarge(core));
  sendNode(res, 200, await core.deliver(raw, onEvent));
}

/** The body's bytes, or null as soon as it passes `maxBytes` (the rest is then discarded unread). */
function readNode(req: NodeRequest, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    readBody(req, maxBytes, (body, problem) =>
      problem === 'aborted' ? reject(new Error('the request was aborted')) : resolve(body),
    );
  });
}

/** Answers without reading (more of) the body, and closes the connection after the answer. */
function refuseNode(core: ReceiverCore, req: NodeRequest, res: NodeResponse, refused: Refusal): void {
  core.report(refused.verdict);
  sendNode(res, refused.status, refused.verdict.reply, refused.headers, true);
  req.resume();
}

/** A Fetch API handler (Request in, Response out) over the receiver. */
export function fetchHandler(core: ReceiverCore, onEvent: TokenStatusHandler): (request: Request) => Promise<Response> {
  checkHandler(onEvent);
  return async (request) => {
    try {
      const refused = refusal(
        core,
        request.method,
        request.headers.get('content-type'),
        request.headers.get('content-length'),
      );
      if (refused) {
        core.report(refused.verdict);
        await request.body?.cancel().catch(() => undefined);
        return jsonResponse(refused.status, refused.verdict.reply, refused.headers);
      }
      const raw = await readWebBody(request.body, core.maxBytes);
      if (!raw) {
        const verdict = tooLarge(core);
        core.report(verdict.verdict);
        return jsonResponse(413, verdict.verdict.reply);
      }
      return jsonResponse(200, await core.deliver(raw, onEvent));
    } catch {
      return jsonResponse(500, core.reject('500', []).reply);
    }
  };
}

function jsonResponse(status: number, reply: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(reply), { status, headers: { ...headers, 'content-type': 'application/json' } });
}
