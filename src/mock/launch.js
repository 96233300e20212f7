// The mock gateway: Prism serving the bundled contract (all six operations at the description's
// paths, both hosts' paths on one port), and a small server for the reference docs.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { connect, createServer as createTcpServer } from 'node:net';
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

/** `http://host:port`, with an IPv6 address in brackets. @param {string} host @param {number} port */
function urlOf(host, port) {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Starts Prism on the bundled contract and resolves once it listens. `exited` settles when Prism
 * exits for any reason (after `stop()`, or on its own).
 * @param {{ host?: string, port?: number, log?: 'silent' | 'error' | 'warn' | 'info', document?: string, onLog?: (line: string) => void }} [options]
 * @returns {Promise<{ url: string, stop: () => Promise<void>, exited: Promise<{ code: number | null, signal: string | null }> }>}
 */
export async function startPrism({ host = '127.0.0.1', port = 4010, log = 'silent', document = join(generated, 'openapi.yaml'), onLog } = {}) {
  // Readiness is a successful connection, so another server already on the port would pass for
  // Prism: make sure the port is free first.
  if (!(await isFree(host, port))) throw Object.assign(new Error(`port ${port} on ${host} is already in use: choose another with PORT or --port`), { usage: true });
  const child = spawn(process.execPath, [prismBin(), 'mock', document, '--host', host, '--port', String(port), '--errors', 'false', '-v', log], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let output = '';
  /** @type {Promise<{ code: number | null, signal: string | null }>} */
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
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
    child.once('error', (error) => fail(new Error(`Prism could not be started: ${/** @type {any} */ (error).code ?? error.message}`)));
    child.once('exit', (code) => {
      const inUse = /EADDRINUSE/.test(output);
      fail(Object.assign(new Error(inUse
        ? `port ${port} on ${host} is already in use: choose another with PORT or --port`
        : `Prism exited (${code}) before listening: ${output.split('\n').filter(Boolean).slice(-3).join(' | ')}`), { usage: inUse }));
    });
    // Prism prints its "listening" line only at info level, so readiness is asked of the port.
    const url = urlOf(host, port);
    const poll = async () => {
      while (child.exitCode === null) {
        if (await canConnect(host, port)) {
          clearTimeout(timer);
          resolve({ url, stop: () => stopChild(child), exited });
          return;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    poll();
  });
}

/** Whether a TCP server could listen on host:port now. @param {string} host @param {number} port */
function isFree(host, port) {
  return new Promise((resolve) => {
    const probe = createTcpServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
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
    server.once('error', (/** @type {any} */ error) => reject(error.code === 'EADDRINUSE'
      ? Object.assign(new Error(`port ${port} on ${host} is already in use: choose another for the docs with DOCS_PORT or --docs-port`), { usage: true })
      : error));
    server.listen(port, host, () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: urlOf(host, address.port),
    stop: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve(undefined)); }),
  };
}

/**
 * Starts the mock and the docs together; `stop()` stops both. `unexpectedExit` settles only if
 * Prism exits on its own (not through `stop()`), with its exit code.
 * @param {{ host?: string, port?: number, docsPort?: number, log?: 'silent' | 'error' | 'warn' | 'info', onLog?: (line: string) => void }} [options]
 */
export async function startMockGateway({ host = '127.0.0.1', port = 4010, docsPort, log = 'silent', onLog } = {}) {
  // Prism needs a fixed port (readiness is asked of it); the docs may take any free one (0).
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw Object.assign(new Error(`the mock port must be 1 to 65535, got ${port}`), { usage: true });
  const docs = await startDocs({ host, port: docsPort ?? (port < 65535 ? port + 1 : 0) });
  try {
    const mock = await startPrism({ host, port, log, onLog });
    let stopping = false;
    return {
      mockUrl: mock.url,
      docsUrl: docs.url,
      /** @type {Promise<{ code: number | null, signal: string | null }>} */
      unexpectedExit: mock.exited.then((how) => (stopping ? new Promise(() => {}) : how)),
      stop: async () => { stopping = true; await Promise.all([mock.stop(), docs.stop()]); },
    };
  } catch (error) {
    await docs.stop();
    throw error;
  }
}
