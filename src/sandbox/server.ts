// The sandbox's HTTP server: the six operations at the description's paths (the gateway's and the
// router's on one port) and the control API under /sandbox/. Nothing a caller sends can crash it:
// every request gets an answer.
import { createServer, type Server } from 'node:http';
import type { ControlHandler } from './control/handle.js';
import { problem, sendJson } from './http.js';
import type { OperationHandler } from './operations/handle.js';
import { notPost } from './operations/respond.js';
import { routeOf } from './operations/routes.js';

/** Connections the kernel queues before the server accepts them (1 000 clients connecting at once). */
export const LISTEN_BACKLOG = 2048;

/** How long a client may take to send its headers (at most the time for the whole request). */
const HEADERS_TIMEOUT_MS = 10_000;

export function createSandboxServer({
  operations,
  control,
  requestTimeoutMs,
}: {
  operations: OperationHandler;
  control: ControlHandler;
  requestTimeoutMs: number;
}): Server {
  // Node checks request timeouts every connectionsCheckingInterval (30 s by default): often enough here.
  const server = createServer(
    { noDelay: true, connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(requestTimeoutMs / 3))) },
    (req, res) => {
      try {
        const url = req.url ?? '/';
        const q = url.indexOf('?');
        const pathname = q < 0 ? url : url.slice(0, q);
        const search = q < 0 ? '' : url.slice(q + 1);
        if (pathname === '/sandbox' || pathname.startsWith('/sandbox/')) {
          control(req, res, pathname, search);
          return;
        }
        const route = routeOf(pathname);
        if (!route) {
          req.resume();
          sendJson(
            res,
            404,
            problem('not-found', 'No operation at this path. The operations are listed by GET /sandbox.'),
          );
          return;
        }
        if ('refused' in route) {
          req.resume();
          sendJson(res, 400, problem('unsafe-path', route.refused));
          return;
        }
        if (req.method !== 'POST') {
          req.resume();
          notPost(res, req.method ?? '');
          return;
        }
        operations(req, res, route, search);
      } catch {
        if (!res.headersSent)
          sendJson(res, 500, problem('internal', 'The sandbox failed unexpectedly; this is a bug of the sandbox.'));
      }
    },
  );
  // A client that sends a broken HTTP request gets an error status and its socket closed, never a
  // crash: 431 when its headers are too large, 408 when it is too slow, 400 otherwise.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    else socket.destroy();
  });
  // Bounded waits: the headers within 10 s, the whole request within requestTimeoutMs (30 s by
  // default; Node's own is 300 s).
  server.requestTimeout = requestTimeoutMs;
  server.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs);
  return server;
}
