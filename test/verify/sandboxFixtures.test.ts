// The sandbox's fixtures read the control API within their bounds: an answer that never ends is
// refused once it passes 1 MiB, not kept whole, nor waited for until the time limit.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxFixtures } from '../../src/verify/sandboxFixtures.js';

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (res.write(chunk)) if (res.destroyed) return;
      res.once('drain', pump);
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("the sandbox's fixtures", () => {
  it('refuse a control answer past 1 MiB as it comes', async () => {
    await expect(sandboxFixtures(url)).rejects.toThrow(/answered more than 1048576 bytes/);
  });
});
