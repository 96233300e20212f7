// The sandbox's HTTP server: the six operations at the description's paths (the gateway's and the
// router's on one port) and the control API under /sandbox/. Nothing a caller sends can crash it:
// every request gets an answer.
import { createServer, type Server } from 'node:http';
import type { ControlHandler } from './control/handle.js';
import { problem, sendJson } from './http.js';
import type { OperationHandler } from './operations/handle.js';
import { notPost } from './operations/respond.js';
import { routeOf } from './operations/routes.js';

export function createSandboxServer({ operations, control }: { operations: OperationHandler; control: ControlHandler }): Server {
  const server = createServer({ noDelay: true }, (req, res) => {
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
        sendJson(res, 404, problem('not-found', 'No operation at this path. The operations are listed by GET /sandbox.'));
        return;
      }
      if (req.method !== 'POST') {
        req.resume();
        notPost(res, req.method ?? '');
        return;
      }
      operations(req, res, route, search);
    } catch {
      if (!res.headersSent) sendJson(res, 500, problem('internal', 'The sandbox failed unexpectedly; this is a bug of the sandbox.'));
    }
  });
  // A client that sends a broken HTTP request gets a 400 and its socket closed, never a crash.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  return server;
}
