// The mock gateway: Prism serving the bundled contract (all six operations at the description's
// paths, both hosts' paths on one port), and a small server for the reference docs.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const generated = fileURLToPath(new URL('../../generated/', import.meta.url));

/** Where Prism's command line lives in node_modules. */
function prismBin() {
  const pkgPath = require.resolve('@stoplight/prism-cli/package.json');
  const pkg = require(pkgPath);
  return join(dirname(pkgPath), typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.prism);
}

/**
 * Starts Prism on the bundled contract and resolves once it listens.
 * @param {{ host?: string, port?: number, log?: 'silent' | 'error' | 'warn' | 'info', document?: string, onLog?: (line: string) => void }} [options]
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export function startPrism({ host = '127.0.0.1', port = 4010, log = 'warn', document = join(generated, 'openapi.yaml'), onLog } = {}) {
  const child = spawn(process.execPath, [prismBin(), 'mock', document, '--host', host, '--port', String(port), '--errors', 'false', '-v', log === 'silent' ? 'error' : log], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`Prism did not start within 60 s on ${host}:${port}`)), 60_000);
    const fail = (/** @type {Error} */ error) => {
      clearTimeout(timer);
      child.kill('SIGTERM');
      reject(error);
    };
    const onData = (/** @type {Buffer} */ chunk) => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-4000);
      if (onLog) for (const line of text.split('\n')) if (line.trim()) onLog(line);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => fail(new Error(`Prism exited (${code}) before listening: ${output.split('\n').filter(Boolean).slice(-3).join(' | ')}`)));
    // Prism prints its "listening" line only at info level, so readiness is asked of the port.
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    const poll = async () => {
      while (child.exitCode === null) {
        if (await canConnect(host, port)) {
          clearTimeout(timer);
          resolve({ url, stop: () => stopChild(child) });
          return;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    poll();
  });
}

/** Whether something accepts TCP connections at host:port (no HTTP request, so nothing is logged). */
function canConnect(/** @type {string} */ host, /** @type {number} */ port) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(1_000);
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => { socket.destroy(); resolve(false); });
  });
}

/** @param {import('node:child_process').ChildProcess} child */
function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => { clearTimeout(force); resolve(undefined); });
    child.kill('SIGTERM');
  });
}

const DOC_FILES = /** @type {Record<string, [string, string]>} */ ({
  '/': ['docs/index.html', 'text/html; charset=utf-8'],
  '/index.html': ['docs/index.html', 'text/html; charset=utf-8'],
  '/openapi.yaml': ['openapi.yaml', 'application/yaml; charset=utf-8'],
  '/openapi.json': ['openapi.json', 'application/json; charset=utf-8'],
  '/result-codes.md': ['result-codes.md', 'text/markdown; charset=utf-8'],
});

/**
 * Serves the reference docs page and the bundled contract.
 * @param {{ host?: string, port?: number }} [options]
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startDocs({ host = '127.0.0.1', port = 4011 } = {}) {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const entry = DOC_FILES[path];
    if (!entry || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(entry ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8' }).end(entry ? 'Method not allowed\n' : 'Not found\n');
      return;
    }
    try {
      const body = await readFile(join(generated, entry[0]));
      res.writeHead(200, { 'content-type': entry[1], 'content-length': body.length, 'cache-control': 'no-cache' });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The docs are missing: run `npm run generate`.\n');
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://${host}:${address.port}`,
    stop: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve(undefined)); }),
  };
}

/**
 * Starts the mock and the docs together; `stop()` stops both.
 * @param {{ host?: string, port?: number, docsPort?: number, log?: 'silent' | 'error' | 'warn' | 'info', onLog?: (line: string) => void }} [options]
 */
export async function startMockGateway({ host = '127.0.0.1', port = 4010, docsPort, log = 'warn', onLog } = {}) {
  const docs = await startDocs({ host, port: docsPort ?? port + 1 });
  try {
    const mock = await startPrism({ host, port, log, onLog });
    return { mockUrl: mock.url, docsUrl: docs.url, stop: async () => { await Promise.all([mock.stop(), docs.stop()]); } };
  } catch (error) {
    await docs.stop();
    throw error;
  }
}
