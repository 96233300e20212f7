// Forwarding upstream: a request's exact bytes to the service's host (or the merchant's webhook) on
// kept-alive connections, and the upstream's answer read within a size and a time, decoded for the
// checks (decode.ts) and parsed once; its bytes go back to the client as they came. Each way an
// upstream fails is a failure with its own rule (docs/decisions.md, D-89, D-108).
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { decodeUtf8 } from '../json/parse.js';
import { type Parsed, parseBody } from './check.js';
import { decodeAnswer } from './decode.js';

/** Where a request goes: the upstream and its path for this request, before the query. */
export interface Destination {
  upstream: URL;
  path: string;
}

/** Why the proxy answers itself instead of the upstream: a 502, 503 or 504 problem with its rule. */
export interface Failure {
  status: 502 | 503 | 504;
  rule: string;
  title: string;
  message: string;
}

/** The upstream's answer as it came, with its text (null when not UTF-8) and its JSON, parsed once. */
export interface Answer {
  status: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string | null;
  parsed: Parsed;
}

/** How an upstream call ended: an answer, or a failure (with the upstream's status when it had sent one). */
export type Outcome = Answer | { failure: Failure; upstreamStatus?: number };

export interface UpstreamLimits {
  /** Answers larger than this (as sent, or once decoded) are a failure. */
  maxAnswerBytes: number;
  /** How long the upstream may take to answer. */
  timeoutMs: number;
}

/** The client's response, as far as a call watches it: the client going away before its answer ends the call. */
export interface ClientResponse {
  readonly writableFinished: boolean;
  on(event: 'close', listener: () => void): unknown;
}

/** Headers of one hop only: never forwarded either way (the proxy sets its own host and length). */
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
export function upstreamUrl(value: string, what: string): URL {
  if (!/^https?:\/\/[^\s]+$/i.test(value) || !URL.canParse(value))
    throw new TypeError(`${what} must be an http(s) address.`);
  const url = new URL(value);
  if (url.search || url.hash) throw new TypeError(`${what} must have no query or fragment.`);
  return url;
}

/** The headers that go on to the next hop: every one but those of one hop. */
export function endToEndHeaders<V>(headers: Record<string, V | undefined>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

/** The upstream request of a client's request: its path under the upstream's, its query as sent, its end-to-end headers. */
export function upstreamRequest(
  to: Destination,
  req: Pick<IncomingMessage, 'headers' | 'url'>,
  bodyBytes: number,
): RequestOptions {
  const headers: Record<string, string | string[]> = {
    ...endToEndHeaders(req.headers),
    'content-length': String(bodyBytes),
  };
  const q = (req.url ?? '').indexOf('?');
  const https = to.upstream.protocol === 'https:';
  return {
    method: 'POST',
    protocol: to.upstream.protocol,
    hostname: to.upstream.hostname.replace(/^\[|\]$/g, ''),
    port: to.upstream.port || (https ? 443 : 80),
    path: `${to.path}${q < 0 ? '' : (req.url ?? '').slice(q)}`,
    headers: { ...headers, host: to.upstream.host },
  };
}

/** The failure of a connection that brought no answer, by its error's code. */
export function connectionFailure(code: string | undefined): Failure {
  if (code === 'ECONNREFUSED')
    return {
      status: 502,
      rule: 'upstream-refused',
      title: 'Upstream refused',
      message: 'The upstream refused the connection.',
    };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return {
      status: 502,
      rule: 'upstream-unknown',
      title: 'Upstream not found',
      message: "The upstream's host name is not known.",
    };
  return {
    status: 502,
    rule: 'upstream-reset',
    title: 'Upstream reset',
    message: 'The upstream closed the connection without an answer.',
  };
}

const RESET: Failure = {
  status: 502,
  rule: 'upstream-reset',
  title: 'Upstream reset',
  message: 'The upstream closed the connection before its answer ended.',
};

/** The calls of a proxy to its upstreams, on its own kept-alive connections. */
export class Upstream {
  readonly #limits: UpstreamLimits;
  readonly #agents = {
    http: new HttpAgent({ keepAlive: true, maxSockets: 256 }),
    https: new HttpsAgent({ keepAlive: true, maxSockets: 256 }),
  };
  /** The calls in flight, by client request: how to abandon each one with a failure. */
  readonly #calls = new Map<object, (failure: Failure) => void>();

  constructor(limits: UpstreamLimits) {
    this.#limits = limits;
  }

  /**
   * Sends `body` to the destination and calls `done` once: with the answer read whole, or a failure
   * (refused, reset, too large, not JSON, too slow, or abandoned). A client that goes away ends the call.
   */
  forward(
    to: Destination,
    req: Pick<IncomingMessage, 'headers' | 'url'>,
    res: ClientResponse,
    body: Buffer,
    done: (outcome: Outcome) => void,
  ): void {
    const https = to.upstream.protocol === 'https:';
    const target: RequestOptions = {
      ...upstreamRequest(to, req, body.byteLength),
      agent: https ? this.#agents.https : this.#agents.http,
    };
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      this.#calls.delete(req);
      done(outcome);
    };
    const fail = (failure: Failure, upstreamStatus?: number) =>
      settle({ failure, ...(upstreamStatus === undefined ? {} : { upstreamStatus }) });
    const upstream = (https ? httpsRequest : httpRequest)(target, (answer) => this.#read(answer, settle, fail));
    const timer = setTimeout(() => {
      upstream.destroy();
      const { timeoutMs } = this.#limits;
      fail({
        status: 504,
        rule: 'upstream-timeout',
        title: 'Upstream timeout',
        message: `The upstream did not answer within ${timeoutMs} ms.`,
      });
    }, this.#limits.timeoutMs);
    upstream.on('error', (error: NodeJS.ErrnoException) => fail(connectionFailure(error.code)));
    // The client went away: stop waiting for the upstream.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    this.#calls.set(req, (failure) => {
      settle({ failure });
      upstream.destroy();
    });
    upstream.end(body);
  }

  /** Ends the upstream call of the client's request `req` with `failure`; false when none is in flight. */
  abandon(req: object, failure: Failure): boolean {
    const call = this.#calls.get(req);
    if (!call) return false;
    call(failure);
    return true;
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.#agents.http.destroy();
    this.#agents.https.destroy();
  }

  /** Reads an answer whole within the size bound, decodes it for the checks and parses it. */
  #read(
    answer: IncomingMessage,
    settle: (outcome: Outcome) => void,
    fail: (failure: Failure, upstreamStatus?: number) => void,
  ): void {
    const { maxAnswerBytes } = this.#limits;
    const chunks: Buffer[] = [];
    let size = 0;
    answer.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxAnswerBytes) {
        // The verdict first: destroying the answer emits its own failure.
        const message = `The upstream's answer is larger than ${maxAnswerBytes} bytes.`;
        fail({ status: 502, rule: 'upstream-too-large', title: 'Answer too large', message }, answer.statusCode);
        answer.destroy();
        return;
      }
      chunks.push(chunk);
    });
    answer.on('error', () => fail(RESET));
    answer.on('aborted', () => fail(RESET));
    answer.on('end', () => {
      const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      const status = answer.statusCode ?? 502;
      // A compressed answer is decoded for the checks; the client gets `bytes` as they came (D-108).
      decodeAnswer(bytes, answer.headers['content-encoding'], maxAnswerBytes, (decoded) => {
        if (!decoded.ok) {
          const title = decoded.rule === 'upstream-too-large' ? 'Answer too large' : 'Upstream answer not decoded';
          fail({ status: 502, rule: decoded.rule, title, message: decoded.message }, status);
          return;
        }
        const text = decodeUtf8(decoded.bytes);
        const parsed = parseBody(text ?? decoded.bytes);
        if (!parsed.ok && !parsed.tooDeep) {
          const message = `The upstream answered HTTP ${status} with a body that is not JSON.`;
          fail({ status: 502, rule: 'upstream-not-json', title: 'Upstream answer not JSON', message }, status);
          return;
        }
        settle({
          status,
          statusText: answer.statusMessage ?? '',
          headers: endToEndHeaders(answer.headers),
          body: bytes,
          text,
          parsed,
        });
      });
    });
  }
}
