// The mock gateway: Prism serving the bundled contract (all six operations at the description's
// paths, both hosts' paths on one port), and a small server for the reference docs. Prism is not a
// dependency of the package: the mock needs it installed beside it, at the versions this package's
// own mock runs (the peer dependency and its `overrides`: src/packageInfo.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { type AddressInfo, connect, createServer as createTcpServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { PRISM_VERSIONS } from '../packageInfo.js';

const generated = fileURLToPath(new URL('../../generated/', import.meta.url));
/** This module's folder, where Prism is looked up from (as an import of it from here would be). */
const here = fileURLToPath(new URL('.', import.meta.url));

/** Prism log levels the launcher accepts (`silent` logs nothing). */
export type MockLogLevel = 'silent' | 'error' | 'warn' | 'info';

/** Why the mock could not start, for the command to say in one line (`stopped`: its `signal` was aborted). */
export class MockStartError extends Error {
  constructor(
    message: string,
    readonly reason: 'port-in-use' | 'prism-missing' | 'prism-version' | 'bad-port' | 'failed' | 'stopped',
  ) {
    super(message);
    this.name = 'MockStartError';
  }
}

export interface StartedServer {
  /** `http://host:port` */
  url: string;
  stop(): Promise<void>;
}

export interface MockGateway {
  /** Where Prism serves the six operations (gateway and router paths on one port). */
  mockUrl: string;
  /** Where the reference docs are served. */
  docsUrl: string;
  /** Settles only if Prism exits on its own (not through `stop()`). */
  unexpectedExit: Promise<{ code: number | null; signal: string | null }>;
  /** Stops Prism and the docs server. */
  stop(): Promise<void>;
}

/** The Prism packages and versions the mock runs. */
export function prismRequirements(): Record<string, string> {
  return { ...PRISM_VERSIONS };
}

/** The one command that installs every Prism package at the version the mock needs. */
export function prismInstallCommand(): string {
  return `npm install --save-dev ${Object.entries(prismRequirements())
    .map(([name, version]) => `${name}@${version}`)
    .join(' ')}`;
}

/**
 * The folder of package `name` as Node resolves it from `fromDir`: `node_modules/<name>` in that
 * folder or the nearest one above it. Undefined when it is not installed.
 */
function packageDir(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The version of `name` as resolved from `fromDir`, or undefined when it is not installed. */
function installedVersion(name: string, fromDir: string): string | undefined {
  const dir = packageDir(name, fromDir);
  try {
    return dir && (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * Where Prism's command line lives, once the installed Prism parts are the versions the mock
 * needs (newer parts answer differently: malformed JSON hangs the connection).
 */
export function prismBin(): string {
  const prismDir = packageDir('@stoplight/prism-cli', here);
  if (!prismDir)
    throw new MockStartError(`the mock needs Prism, which is not installed: ${prismInstallCommand()}`, 'prism-missing');
  const pkg = JSON.parse(readFileSync(join(prismDir, 'package.json'), 'utf8')) as {
    version?: string;
    bin: string | Record<string, string>;
  };
  // Each part as Prism's command line loads it, from its own folder.
  const wrong = Object.entries(prismRequirements()).filter(
    ([name, version]) => (name === '@stoplight/prism-cli' ? pkg.version : installedVersion(name, prismDir)) !== version,
  );
  if (wrong.length)
    throw new MockStartError(
      `the mock needs Prism at the versions it is tested with (another version of ${wrong.map(([name]) => name).join(', ')} is installed): ${prismInstallCommand()}`,
      'prism-version',
    );
  return join(prismDir, typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin.prism as string));
}

/** `http://host:port`, with an IPv6 address in brackets. */
function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Why a start was given up: its signal was aborted (a Ctrl-C, SIGTERM or SIGHUP while Prism starts). */
const stoppedWhileStarting = () => new MockStartError('the mock was stopped while it started', 'stopped');

/**
 * Starts Prism on the bundled contract and resolves once it listens. Prism runs in a process group
 * of its own (it may fork), stopped as a whole: when the start fails or `signal` is aborted
 * (the promise rejects once Prism has exited and its port is free), on `stop()`, and when this
 * process exits while Prism still runs. `exited` settles when Prism exits for any reason (after
 * `stop()`, or on its own).
 */
export async function startPrism({
  host = '127.0.0.1',
  port = 4010,
  log = 'silent',
  document = join(generated, 'openapi.yaml'),
  onLog,
  signal,
}: {
  host?: string;
  port?: number;
  log?: MockLogLevel;
  document?: string;
  onLog?: ((line: string) => void) | undefined;
  /** Aborted while Prism starts: it is stopped, and the start rejects with a MockStartError `stopped`. */
  signal?: AbortSignal | undefined;
} = {}): Promise<StartedServer & { exited: Promise<{ code: number | null; signal: string | null }> }> {
  const bin = prismBin();
  // Readiness is a successful connection, so another server already on the port would pass for
  // Prism: make sure the port is free first.
  if (!(await isFree(host, port)))
    throw new MockStartError(
      `port ${port} on ${host} is already in use: choose another with PORT or --port`,
      'port-in-use',
    );
  if (signal?.aborted) throw stoppedWhileStarting();
  const child = spawnGroup(process.execPath, [
    bin,
    'mock',
    document,
    '--host',
    host,
    '--port',
    String(port),
    '--errors',
    'false',
    '-v',
    log,
  ]);
  let output = '';
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new MockStartError(`Prism did not start within 60 s on ${host}:${port}`, 'failed')),
      60_000,
    );
    let failed = false;
    const onAbort = () => fail(stoppedWhileStarting());
    /** Gives the start up: Prism's group is stopped, and the start rejects once Prism has exited. */
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void stopGroup(child).then(() => reject(error));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-4000);
      if (onLog) for (const line of text.split('\n')) if (line.trim()) onLog(line);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (error) =>
      fail(
        new MockStartError(
          `Prism could not be started: ${(error as NodeJS.ErrnoException).code ?? error.message}`,
          'failed',
        ),
      ),
    );
    child.once('exit', (code) => {
      const inUse = /EADDRINUSE/.test(output);
      fail(
        inUse
          ? new MockStartError(
              `port ${port} on ${host} is already in use: choose another with PORT or --port`,
              'port-in-use',
            )
          : new MockStartError(
              `Prism exited (${code}) before listening: ${output.split('\n').filter(Boolean).slice(-3).join(' | ')}`,
              'failed',
            ),
      );
    });
    // Prism prints its "listening" line only at info level, so readiness is asked of the port.
    const url = urlOf(host, port);
    const poll = async () => {
      while (!failed && child.exitCode === null) {
        if (await canConnect(host, port)) {
          if (failed) return;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve({ url, stop: () => stopGroup(child), exited });
          return;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    void poll();
  });
}

/** Whether the platform has process groups a parent can signal as a whole (not Windows). */
const GROUPS = process.platform !== 'win32';

/**
 * Loaded first into the child (`node --import`): the child exits when its standard input, a pipe
 * from this process, ends. The pipe ends when this process ends in any way, SIGKILL included,
 * which no handler here can see.
 */
const EXIT_WITH_PARENT =
  'data:text/javascript,process.stdin.on("end",()=>process.exit(0)).on("error",()=>process.exit(0)).resume()';

/**
 * Starts a Node program in a process group of its own, so that it and whatever it forks can be
 * stopped together; kills that group if this process exits while it still runs (an `exit` handler,
 * removed when the child exits); and has the child exit by itself if this process is killed.
 */
function spawnGroup(command: string, args: string[]): ChildProcess {
  const child = spawn(command, ['--import', EXIT_WITH_PARENT, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    detached: GROUPS,
  });
  const killOnExit = () => signalGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => {
    process.off('exit', killOnExit);
    child.stdin?.destroy();
  });
  // Nothing is written: the pipe is only held open.
  child.stdin?.on('error', () => {});
  return child;
}

/** Sends `signal` to the child's process group (or to the child alone where there are no groups); one already gone is left. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (GROUPS && child.pid !== undefined) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // ESRCH: the group has already exited.
  }
}

/** Whether a TCP server could listen on host:port now. */
function isFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createTcpServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/** Whether something accepts TCP connections at host:port (no HTTP request, so nothing is logged). */
function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(1_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Stops the child's process group: SIGTERM, then SIGKILL after 5 s; resolves once the child has exited (at once if it never started). */
function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
      // Its forks, if any, go with it.
      if (child.pid !== undefined) signalGroup(child, 'SIGKILL');
      return resolve();
    }
    const force = setTimeout(() => signalGroup(child, 'SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      // Whatever Prism forked and left behind goes with it.
      signalGroup(child, 'SIGKILL');
      resolve();
    });
    signalGroup(child, 'SIGTERM');
  });
}

/** The docs page and its decisions page as the build compressed them (dist/docs), and the bundled contract (generated/). */
const PAGE = fileURLToPath(new URL('../../dist/docs/index.html.gz', import.meta.url));
const DECISIONS = fileURLToPath(new URL('../../dist/docs/decisions.html.gz', import.meta.url));
/**
 * The page's icon, a bank card in a few lines of SVG: browsers ask for `/favicon.ico` whatever the
 * page says, and get it rather than a 404 (an SVG under that name is read by its content type).
 */
const FAVICON = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="1" y="3" width="14" height="10" rx="2" fill="#32329f"/><rect x="1" y="5.5" width="14" height="2" fill="#fff"/></svg>',
);
type DocFile = { file: string; type: string; gzipped?: true } | { body: Buffer; type: string; gzipped?: undefined };
const DOC_FILES: Record<string, DocFile> = {
  '/favicon.ico': { body: FAVICON, type: 'image/svg+xml' },
  '/': { file: PAGE, type: 'text/html; charset=utf-8', gzipped: true },
  '/index.html': { file: PAGE, type: 'text/html; charset=utf-8', gzipped: true },
  '/decisions.html': { file: DECISIONS, type: 'text/html; charset=utf-8', gzipped: true },
  '/openapi.yaml': { file: join(generated, 'openapi.yaml'), type: 'application/yaml; charset=utf-8' },
  '/openapi.json': { file: join(generated, 'openapi.json'), type: 'application/json; charset=utf-8' },
  '/result-codes.md': { file: join(generated, 'result-codes.md'), type: 'text/markdown; charset=utf-8' },
};

/**
 * What a path serves: one of the files above by its path, or by its name under any folder (the
 * page links `decisions.html` relatively, also from a route such as `/section/envelopes`); the
 * page itself for a route of the page, a path whose last part has no dot (`/payments` opened in a
 * new tab); nothing else.
 */
function docEntry(path: string): DocFile | undefined {
  if (Object.hasOwn(DOC_FILES, path)) return DOC_FILES[path];
  const name = path.slice(path.lastIndexOf('/'));
  if (name.includes('.')) return Object.hasOwn(DOC_FILES, name) ? DOC_FILES[name] : undefined;
  return DOC_FILES['/'];
}

/** Whether the request's Accept-Encoding takes gzip. */
const acceptsGzip = (header: string | undefined) =>
  typeof header === 'string' && /\bgzip\b/i.test(header) && !/\bgzip\s*;\s*q=0(?:\.0+)?(?![.0-9])/i.test(header);

/**
 * Serves the reference docs page (`/`, and every route of the page: `/payments`) and its icon, the
 * decisions it cites (`/decisions.html`), the bundled contract (`/openapi.yaml`, `/openapi.json`)
 * and `/result-codes.md`.
 */
export async function startDocs({
  host = '127.0.0.1',
  port = 4011,
}: {
  host?: string;
  port?: number;
} = {}): Promise<StartedServer> {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const entry = docEntry(path);
    if (!entry || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res
        .writeHead(entry ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8' })
        .end(entry ? 'Method not allowed\n' : 'Not found\n');
      return;
    }
    try {
      const stored = 'body' in entry ? entry.body : await readFile(entry.file);
      // The compressed page goes out as it is to a client that takes gzip, inflated to any other.
      const asIs = !entry.gzipped || acceptsGzip(req.headers['accept-encoding']);
      const body = asIs ? stored : gunzipSync(stored);
      res.writeHead(200, {
        'content-type': entry.type,
        'content-length': body.length,
        'cache-control': 'no-cache',
        ...(entry.gzipped ? { vary: 'accept-encoding', ...(asIs ? { 'content-encoding': 'gzip' } : {}) } : {}),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res
        .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
        .end('The docs are missing: run `npm run build`.\n');
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new MockStartError(
              `port ${port} on ${host} is already in use: choose another for the docs with DOCS_PORT or --docs-port`,
              'port-in-use',
            )
          : error,
      ),
    );
    server.listen(port, host, () => resolve(undefined));
  });
  const address = server.address() as AddressInfo;
  return {
    url: urlOf(host, address.port),
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Starts the mock (Prism, on `port`, 1 to 65535) and the docs (on `docsPort`, default `port + 1`;
 * 0 picks a free port), both on `host` (default 127.0.0.1). `unexpectedExit` settles only if Prism
 * exits on its own (not through `stop()`), with its exit code. Aborting `signal` while it starts
 * stops what has started, and the start rejects with a MockStartError `stopped` once Prism has
 * exited.
 */
export async function startMockGateway({
  host = '127.0.0.1',
  port = 4010,
  docsPort,
  log = 'silent',
  onLog,
  signal,
}: {
  host?: string;
  port?: number;
  docsPort?: number | undefined;
  log?: MockLogLevel;
  onLog?: ((line: string) => void) | undefined;
  signal?: AbortSignal | undefined;
} = {}): Promise<MockGateway> {
  // Prism needs a fixed port (readiness is asked of it); the docs may take any free one (0).
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new MockStartError(`the mock port must be 1 to 65535, got ${port}`, 'bad-port');
  // Before anything listens: a missing Prism is said at once.
  prismBin();
  const docs = await startDocs({ host, port: docsPort ?? (port < 65535 ? port + 1 : 0) });
  try {
    const mock = await startPrism({ host, port, log, onLog, signal });
    let stopping = false;
    return {
      mockUrl: mock.url,
      docsUrl: docs.url,
      unexpectedExit: mock.exited.then((how) => (stopping ? new Promise(() => {}) : how)),
      stop: async () => {
        stopping = true;
        await Promise.all([mock.stop(), docs.stop()]);
      },
    };
  } catch (error) {
    await docs.stop();
    throw error;
  }
}
