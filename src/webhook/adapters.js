// The receiver on node:http and on the Fetch API: read the raw body (bounded), hand it to the
// receiver, run the merchant's handler for an accepted notification, send the reply envelope.
// A notification's verdict is always HTTP 200 with its code (DECISIONS.md, D-09); a request that
// is not a notification at all (not POST, not JSON, too large) gets an HTTP error status too.

import { readBody } from '../http/readBody.js';

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** @typedef {{ deliver: (raw: Uint8Array, onEvent: (event: any) => unknown) => Promise<object>, maxBytes: number, reject: (code: string, issues: any[]) => any, report: (verdict: any) => void }} Core */

/** @param {string} rule @param {string} message */
const protocolIssue = (rule, message) => ({ in: 'body', pointer: '', rule, message, resultCode: '400' });

/**
 * Whether the request can be a notification at all, judged from its method and headers.
 * @param {Core} core @param {string | undefined} method @param {string | null | undefined} contentType @param {string | null | undefined} contentLength
 */
function refusal(core, method, contentType, contentLength) {
  if (method !== 'POST') {
    return { status: 405, headers: { allow: 'POST' }, verdict: core.reject('400', [protocolIssue('method', `The notification is sent with POST; this request used ${String(method).slice(0, 16)}.`)]) };
  }
  if (contentType && !JSON_TYPE.test(contentType)) {
    return { status: 415, headers: {}, verdict: core.reject('400', [protocolIssue('contentType', 'The notification is JSON: send it with Content-Type: application/json.')]) };
  }
  if (contentLength && Number(contentLength) > core.maxBytes) return tooLarge(core);
  return null;
}

/** @param {Core} core */
function tooLarge(core) {
  return { status: 413, headers: {}, verdict: core.reject('400', [protocolIssue('maxBytes', `The notification is larger than ${core.maxBytes} bytes.`)]) };
}

/** @param {(event: any) => unknown} onEvent */
function checkHandler(onEvent) {
  if (typeof onEvent !== 'function') throw new TypeError('Pass the function to call with each accepted notification (onEvent).');
}

/**
 * @param {Core} core @param {(event: any) => unknown} onEvent
 * @returns {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void}
 */
export function nodeHandler(core, onEvent) {
  checkHandler(onEvent);
  return (req, res) => {
    serveNode(core, onEvent, req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) sendNode(res, 500, core.reject('500', []).reply);
    });
  };
}

/**
 * @param {import('node:http').ServerResponse} res @param {number} status @param {unknown} reply
 * @param {Record<string, string>} [headers] @param {boolean} [close] close the connection after the reply
 */
function sendNode(res, status, reply, headers = {}, close = false) {
  const text = JSON.stringify(reply);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...(close ? { connection: 'close' } : {}) });
  res.end(text);
}

/**
 * @param {Core} core @param {(event: any) => unknown} onEvent
 * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res
 */
async function serveNode(core, onEvent, req, res) {
  const refused = refusal(core, req.method, req.headers['content-type'], req.headers['content-length']);
  if (refused) return refuseNode(core, req, res, refused);
  const parsedBody = /** @type {any} */ (req).body;
  if (req.readableEnded && parsedBody !== undefined) {
    // Middleware read the stream first. Raw bytes (express.raw()) are what the receiver needs;
    // a parsed object (express.json()) has lost the exact bytes the signature covers.
    if (typeof parsedBody === 'string' || parsedBody instanceof Uint8Array) return sendNode(res, 200, await core.deliver(typeof parsedBody === 'string' ? Buffer.from(parsedBody) : parsedBody, onEvent));
    const verdict = core.reject('400', [protocolIssue('rawBody', 'The request body was already parsed by a body parser (req.body is an object): mount this handler before it, or give it the raw bytes (for example express.raw({ type: "application/json" })).')]);
    core.report(verdict);
    return sendNode(res, 200, verdict.reply);
  }
  const raw = await readNode(req, core.maxBytes);
  if (!raw) return refuseNode(core, req, res, tooLarge(core));
  sendNode(res, 200, await core.deliver(raw, onEvent));
}

/**
 * The body's bytes, or null as soon as it passes `maxBytes` (the rest is then discarded unread).
 * @param {import('node:http').IncomingMessage} req @param {number} maxBytes
 * @returns {Promise<Buffer | null>}
 */
function readNode(req, maxBytes) {
  return new Promise((resolve, reject) => {
    readBody(req, maxBytes, (body, problem) => (problem === 'aborted' ? reject(new Error('the request was aborted')) : resolve(body)));
  });
}

/**
 * Answers without reading (more of) the body, and closes the connection after the answer.
 * @param {Core} core @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res
 * @param {{ status: number, headers: Record<string, string>, verdict: any }} refused
 */
function refuseNode(core, req, res, refused) {
  core.report(refused.verdict);
  sendNode(res, refused.status, refused.verdict.reply, refused.headers, true);
  req.resume();
}

/**
 * @param {Core} core @param {(event: any) => unknown} onEvent
 * @returns {(request: Request) => Promise<Response>}
 */
export function fetchHandler(core, onEvent) {
  checkHandler(onEvent);
  return async (request) => {
    try {
      const refused = refusal(core, request.method, request.headers.get('content-type'), request.headers.get('content-length'));
      if (refused) {
        core.report(refused.verdict);
        await request.body?.cancel().catch(() => undefined);
        return jsonResponse(refused.status, refused.verdict.reply, refused.headers);
      }
      const raw = await readBounded(request, core.maxBytes);
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

/** The body's bytes, or null when it is larger than `maxBytes` (reading stops there). */
async function readBounded(/** @type {Request} */ request, /** @type {number} */ maxBytes) {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  /** @type {Uint8Array[]} */
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** @param {number} status @param {unknown} reply @param {Record<string, string>} [headers] */
function jsonResponse(status, reply, headers = {}) {
  return new Response(JSON.stringify(reply), { status, headers: { ...headers, 'content-type': 'application/json' } });
}
