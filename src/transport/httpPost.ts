// The typed client's own way of posting a request when the caller gives no `fetch`: node:http or
// node:https on their default keep-alive agents, the whole exchange within a time limit and the
// answer read within a size limit. Node's fetch costs about four times as much per call on
// loopback as node:http (bench/client.mjs), a tenth of it for the abort signal a time limit needs
// (DECISIONS.md, D-65). Failures carry the system error's code and syscall, as fetch's do in their
// cause, so that the same rules say whether a request may have been sent (D-54).
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, RequestOptions } from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Where requests go: parsed once per address. */
export interface Origin {
  readonly https: boolean;
  readonly hostname: string;
  readonly port: string;
  /** The path before the operation's own (`/gateway` of `https://host/gateway`), without a trailing slash. */
  readonly basePath: string;
}

export function originOf(base: string): Origin {
  const url = new URL(base);
  return {
    https: url.protocol === 'https:',
    // An IPv6 literal is written in brackets in a URL, and without them for node:http.
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port,
    basePath: url.pathname.replace(/\/+$/, ''),
  };
}

/** The headers of an answer, read as fetch's Headers are: by lower-case name, repeated values joined by `, `. */
export class AnswerHeaders implements Iterable<[string, string]> {
  constructor(private readonly raw: IncomingHttpHeaders) {}
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
  *[Symbol.iterator](): Iterator<[string, string]> {
    for (const [name, value] of Object.entries(this.raw)) if (value !== undefined) yield [name, Array.isArray(value) ? value.join(', ') : value];
  }
}

/** A failure of the exchange, with the code and syscall that say where it happened. */
export class PostError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly syscall: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** What came back: status, headers, and the body's text, or null when it passed `maxBytes`. */
export interface Posted {
  status: number;
  headers: AnswerHeaders;
  text: string | null;
}

/** How long a connection may take to open (as fetch's own limit): past it, nothing was sent. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Posts `body` to `path` at `origin` and reads the answer within `maxBytes`. Settles once: with the
 * answer, or with the error of the first failure (`signal` aborted: its reason).
 */
export function httpPost(
  origin: Origin,
  path: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  { signal, maxBytes }: { signal: AbortSignal; maxBytes: number },
): Promise<Posted> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const options: RequestOptions = {
      method: 'POST',
      hostname: origin.hostname,
      port: origin.port,
      path: `${origin.basePath}${path}`,
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
    };
    const request: ClientRequest = (
      origin.https ? (require('node:https') as typeof import('node:https')) : (require('node:http') as typeof import('node:http'))
    ).request(options);
    let settled = false;
    let connectTimer: NodeJS.Timeout | undefined;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      signal.removeEventListener('abort', onAbort);
      request.destroy();
      reject(error);
    };
    const onAbort = () => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error: NodeJS.ErrnoException) => fail(new PostError(error.message, error.code, error.syscall, { cause: error })));
    request.on('socket', (socket) => {
      if (!socket.connecting) return;
      connectTimer = setTimeout(() => fail(new PostError('the connection did not open in time', 'ETIMEDOUT', 'connect')), CONNECT_TIMEOUT_MS);
      socket.once('connect', () => clearTimeout(connectTimer));
    });
    request.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let tooLarge = false;
      response.on('data', (chunk: Buffer) => {
        if (tooLarge) return;
        size += chunk.length;
        if (size > maxBytes) {
          // Reading stops here: the rest is not read, and the connection is not reused.
          tooLarge = true;
          chunks.length = 0;
          finish();
          return;
        }
        chunks.push(chunk);
      });
      const finish = () => {
        if (settled) return;
        settled = true;
        clearTimeout(connectTimer);
        signal.removeEventListener('abort', onAbort);
        if (tooLarge) request.destroy();
        // Lossy: an answer that is not UTF-8 is judged by what it says, not refused for its bytes.
        const text = tooLarge ? null : (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8');
        resolve({ status: response.statusCode ?? 0, headers: new AnswerHeaders(response.headers), text });
      };
      response.on('end', finish);
      response.on('error', (error: NodeJS.ErrnoException) => fail(new PostError(error.message, error.code, error.syscall, { cause: error })));
      response.on('close', () => {
        if (!response.complete) fail(new PostError('the answer was cut short', 'ECONNRESET', 'read'));
      });
    });
    request.end(body);
  });
}
