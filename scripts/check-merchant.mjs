#!/usr/bin/env node
// The guides as a merchant meets them: the package packed, installed from its tarball into an
// empty app in a temporary folder (no repository file beside it), and every shell block of the
// README and of the shipped guides (docs/*.md) run there as printed, with bash, page by page.
// (Their TypeScript examples are compiled against the installed package by check:consumer.)
//
// A block that cannot run as printed is marked just before it, in the page, by an HTML comment the
// reader sees in the source and this check reads:
//   <!-- merchant-check: skip (why) -->            not run; the reason is printed
//   <!-- merchant-check: server (what) -->         started in the background, ready once it prints
//                                                  "Press Ctrl-C"; the page's later blocks call it; stopped
//                                                  (Ctrl-C) at the end of the page
//   <!-- merchant-check: webhook-receiver (what) --> run while a webhook receiver of the installed
//                                                  package (the sandbox's test key) listens on 127.0.0.1:8080
// A block with the line "# then, in another terminal:" is a server (the lines before) and the
// commands run beside it (the lines after). Every other block must exit 0; an unmarked block that
// fails fails the check. The guides use fixed ports (4010, 4011, 4020, 4030, 8080): the check
// refuses to start when one is taken.
//
// Usage: node scripts/check-merchant.mjs [--keep]   (--keep leaves the app folder, and says where)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');
/** The ports the guides print. */
const GUIDE_PORTS = [4010, 4011, 4020, 4030, 8080];
/** How long a block may run, and a server may take to be ready (the mock's install of Prism included). */
const BLOCK_MS = 240_000;
const READY_MS = 300_000;
const SHELLS = new Set(['sh', 'bash', 'shell']);
const MARKER = /<!-- merchant-check: ([a-z-]+)(?: \(([^)]*)\))? -->/g;
const SPLIT = '# then, in another terminal:';

/** @typedef {{ page: string, line: number, lang: string, code: string, mark?: string, reason?: string }} Block */

/** The fenced blocks of a page, each with the marker written between it and the block before. @param {string} page @returns {Block[]} */
export function blocksOf(page) {
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  /** @type {Block[]} */
  const blocks = [];
  let between = '';
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i] ?? '');
    if (!open) {
      between += `${lines[i]}\n`;
      continue;
    }
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    const marks = [...between.matchAll(MARKER)];
    const last = marks.at(-1);
    blocks.push({
      page,
      line: i + 1,
      lang: open[1] ?? '',
      code: lines.slice(i + 1, end).join('\n'),
      ...(last ? { mark: last[1], reason: last[2] } : {}),
    });
    between = '';
    i = end;
  }
  return blocks;
}

/** The README and the guides the package ships. */
const PAGES = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/** Whether a port on 127.0.0.1 is free. @param {number} port @returns {Promise<boolean>} */
function isFree(port) {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

/** The environment of the app's shell: no key, address or npm setting of the caller's own. */
function appEnv() {
  /** @type {NodeJS.ProcessEnv} */
  const env = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(npm_|INIT_CWD$|MERCHANT_KEY$|GATEWAY_URL$|ROUTER_URL$|SANDBOX_|REDOCLY_CLI_RESPECT_INPUT$)/.test(k))
      env[k] = v;
  return {
    ...env,
    CI: 'true',
    NO_COLOR: '1',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}

/** @typedef {{ child: import('node:child_process').ChildProcess, output: () => string, exited: Promise<number | null> }} Background */

/** Starts a shell script in its own process group. @param {string} script @param {string} cwd @returns {Background} */
function startBackground(script, cwd) {
  const child = spawn('bash', ['-c', script], {
    cwd,
    env: appEnv(),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keepTail = (/** @type {Buffer} */ d) => {
    output = (output + d.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keepTail);
  child.stderr?.on('data', keepTail);
  const exited = new Promise((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, exited: /** @type {Promise<number | null>} */ (exited) };
}

/** Resolves true once the background's output holds `ready`, false when it exits first or the wait ends. @param {Background} bg @param {string} ready */
async function readyOrNot(bg, ready, ms = READY_MS) {
  const deadline = Date.now() + ms;
  let ended = false;
  void bg.exited.then(() => {
    ended = true;
  });
  while (Date.now() < deadline && !ended) {
    if (bg.output().includes(ready)) return true;
    await new Promise((done) => setTimeout(done, 200));
  }
  return bg.output().includes(ready);
}

/** Stops a background's whole process group: Ctrl-C, then SIGKILL after 10 s. @param {Background} bg */
async function stop(bg) {
  if (bg.child.exitCode !== null || bg.child.signalCode !== null || !bg.child.pid) return;
  const group = -bg.child.pid;
  try {
    process.kill(group, 'SIGINT');
  } catch {}
  const timer = setTimeout(() => {
    try {
      process.kill(group, 'SIGKILL');
    } catch {}
  }, 10_000);
  await bg.exited;
  clearTimeout(timer);
  // What the shell started and left behind (npx's children) goes with the group.
  try {
    process.kill(group, 'SIGKILL');
  } catch {}
}

/**
 * Runs a shell script to its end, bounded, in its own process group; whatever it leaves running is
 * stopped after it (a server it started in the background and did not stop is the block's failure).
 * @param {string} script @param {string} cwd @returns {Promise<{ status: number | null, out: string, leftOver: boolean }>}
 */
async function runScript(script, cwd) {
  const bg = startBackground(script, cwd);
  const timer = setTimeout(() => {
    try {
      if (bg.child.pid) process.kill(-bg.child.pid, 'SIGKILL');
    } catch {}
  }, BLOCK_MS);
  const status = await bg.exited;
  clearTimeout(timer);
  let leftOver = false;
  try {
    if (bg.child.pid) process.kill(-bg.child.pid, 0);
    leftOver = true;
    process.kill(-(bg.child.pid ?? 0), 'SIGKILL');
  } catch {}
  return { status, out: bg.output(), leftOver };
}

/** A webhook receiver of the installed package, as a merchant's app runs one, with the sandbox's test key. */
const RECEIVER = [
  "import { createServer } from 'node:http';",
  "import { createWebhookReceiver, createChecksumVerifier, SANDBOX_DEFAULT_MERCHANT_KEY } from 'gateway-contract';",
  'const receiver = createWebhookReceiver({ verifier: createChecksumVerifier(SANDBOX_DEFAULT_MERCHANT_KEY) });',
  "createServer(receiver.nodeHandler(async () => {})).listen(8080, '127.0.0.1', () => console.log('receiver: Press Ctrl-C to stop.'));",
].join('\n');

let failures = 0;
/** @param {string} what @param {boolean} ok @param {string} [detail] */
function report(what, ok, detail = '') {
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${what}\n`);
  if (!ok) {
    failures++;
    if (detail) process.stdout.write(`${detail.trim().split('\n').slice(-40).join('\n')}\n`);
  }
}

/** Runs one page's shell blocks in the app. @param {string} page @param {string} app */
async function runPage(page, app) {
  /** @type {Background[]} */
  const servers = [];
  try {
    for (const block of blocksOf(page).filter((b) => SHELLS.has(b.lang))) {
      const where = `${block.page}:${block.line}`;
      const started = Date.now();
      const took = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
      if (block.mark === 'skip') {
        if (!block.reason) report(`${where}: skipped without a reason`, false);
        else process.stdout.write(`skip ${where} (${block.reason})\n`);
        continue;
      }
      if (block.mark !== undefined && !['server', 'webhook-receiver'].includes(block.mark)) {
        report(`${where}: unknown marker "${block.mark}"`, false);
        continue;
      }
      const [serverPart, besidePart] = block.code.includes(SPLIT)
        ? block.code.split(SPLIT)
        : block.mark === 'server'
          ? [block.code, undefined]
          : [undefined, block.code];
      if (serverPart !== undefined) {
        const server = startBackground(serverPart, app);
        servers.push(server);
        const ready = await readyOrNot(server, 'Press Ctrl-C');
        report(`${where}: the server starts and answers (${took()})`, ready, server.output());
        if (!ready) continue;
      }
      if (besidePart === undefined) continue;
      const besideStarted = Date.now();
      const receiver =
        block.mark === 'webhook-receiver'
          ? startBackground(`node --input-type=module -e "${RECEIVER.replace(/"/g, '\\"')}"`, app)
          : undefined;
      if (receiver && !(await readyOrNot(receiver, 'Press Ctrl-C', 20_000))) {
        report(`${where}: the webhook receiver starts`, false, receiver.output());
        await stop(receiver);
        continue;
      }
      const run = await runScript(besidePart, app);
      if (receiver) await stop(receiver);
      report(
        `${where}: runs as printed, exit status 0 (${((Date.now() - besideStarted) / 1000).toFixed(1)} s)`,
        run.status === 0,
        `exit status ${run.status}\n${run.out}`,
      );
      report(`${where}: leaves nothing running`, !run.leftOver);
    }
  } finally {
    for (const server of servers.reverse()) await stop(server);
  }
}

async function main() {
  const taken = [];
  for (const port of GUIDE_PORTS) if (!(await isFree(port))) taken.push(port);
  if (taken.length) {
    report(`the guides' ports are free (taken: ${taken.join(', ')})`, false);
    return;
  }
  const work = mkdtempSync(join(tmpdir(), 'gateway-contract-merchant-'));
  try {
    const packed = spawnSync('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: root, encoding: 'utf8' });
    const tarball = join(work, (packed.stdout ?? '').trim().split('\n').pop() ?? '');
    report('npm pack', packed.status === 0, packed.stderr);
    if (packed.status !== 0) return;
    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(
      join(app, 'package.json'),
      `${JSON.stringify({ name: 'merchant-app', private: true, type: 'module' }, null, 2)}\n`,
    );
    const started = Date.now();
    const installed = await runScript(`npm install --no-audit --no-fund --silent ${JSON.stringify(tarball)}`, app);
    report(
      `the tarball installs into an empty app (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      installed.status === 0,
      installed.out,
    );
    if (installed.status !== 0) return;
    for (const page of PAGES) await runPage(page, app);
    if (keep) process.stdout.write(`the app is kept in ${app}\n`);
  } finally {
    if (!keep) rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
  process.stdout.write(
    `check:merchant: ${failures === 0 ? "every guide's shell block runs as printed in an app" : `${failures} check(s) failed`}\n`,
  );
  process.exit(failures === 0 ? 0 : 1);
}
