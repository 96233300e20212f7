// Local HTTP servers for tests: bound to 127.0.0.1 on a free port, always closed.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  text: string;
}

export interface TestServer {
  url: string;
  requests: Recorded[];
  close: () => Promise<void>;
}

/** Starts a server whose answers come from `answer`; every request is recorded with its raw body. */
export async function startServer(
  answer: (request: Recorded, res: ServerResponse) => void | Promise<void>,
): Promise<TestServer> {
  const requests: Recorded[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      text: Buffer.concat(chunks).toString('utf8'),
    };
    requests.push(recorded);
    await answer(recorded, res);
  });
  return { ...(await listening(server)), requests };
}

/** A server whose requests `handler` answers as they come (a webhook receiver's node handler), at `path`. */
export async function listenWith(
  handler: Parameters<typeof createServer>[1],
  path = '/webhooks/token',
): Promise<Omit<TestServer, 'requests'>> {
  const { url, close } = await listening(createServer(handler));
  return { url: `${url}${path}`, close };
}

/** Listens on 127.0.0.1 on a free port: the server's address and how to close it, connections and all. */
async function listening(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Sends a JSON answer. */
export function json(res: ServerResponse, value: unknown, status = 200) {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
