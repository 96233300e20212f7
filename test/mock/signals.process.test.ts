// The mock command stopped by its process id (not its group) at any moment of its start, and a
// program whose process ends while its mock runs: Prism, in a process group of its own, never
// outlives them, and its port is free afterwards.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, collectOutput } from '../helpers/cli.js';
import { freePort } from '../helpers/servers.js';

const LAUNCHER = new URL('../../dist/mock/launch.js', import.meta.url).href;
const HAS_PROC = existsSync('/proc/self/cmdline');

/** The processes of Prism serving `port`, by their command line (Linux's /proc). */
function prismProcesses(port: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    const at = args.indexOf('--port');
    if (args.some((a) => a.includes('prism-cli')) && at !== -1 && args[at + 1] === String(port))
      found.push(Number(entry));
  }
  return found;
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Waits, at most `ms`, until nothing serves the port and no Prism of it remains: what remains then. */
async function leftOver(port: number, ms: number): Promise<{ listening: boolean; prism: number[] }> {
  const deadline = Date.now() + ms;
  for (;;) {
    const now = { listening: await listening(port), prism: prismProcesses(port) };
    if ((!now.listening && now.prism.length === 0) || Date.now() > deadline) return now;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Ports whose Prism a failed test may have left: stopped after each test (they are this test's children). */
const ports: number[] = [];
afterEach(() => {
  for (const port of ports.splice(0)) for (const pid of prismProcesses(port)) process.kill(pid, 'SIGKILL');
});

/** Starts `node <args>` with its output collected. */
function start(args: string[]): { child: ChildProcess; ended: ReturnType<typeof collectOutput> } {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return { child, ended: collectOutput(child) };
}

describe.skipIf(!HAS_PROC)('the mock never leaves Prism running', () => {
  const stops: [NodeJS.Signals, number][] = [
    ['SIGINT', 200],
    ['SIGINT', 600],
    ['SIGINT', 1200],
    ['SIGTERM', 600],
    ['SIGHUP', 900],
  ];
  for (const [signal, after] of stops) {
    it(`${signal} to the command's process ${after} ms into its start: it exits, and Prism with it`, async () => {
      const port = await freePort();
      ports.push(port);
      const { child, ended } = start([BIN, 'mock', '--port', String(port), '--docs-port', '0']);
      await new Promise((r) => setTimeout(r, after));
      child.kill(signal);
      const end = await ended;
      // Stopped by its handler ("Stopped.", status 0), or by the signal itself before Node had
      // loaded the command (nothing spawned yet).
      if (end.status === null) expect(child.signalCode).toBe(signal);
      else {
        expect({ status: end.status, stdout: end.stdout.slice(-9) }).toEqual({ status: 0, stdout: 'Stopped.\n' });
        // Prism's own log lines, which the command passes on as they come ("prism: ... Starting
        // Prism"), and nothing else: no error, no stack trace.
        expect(end.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('prism: '))).toEqual([]);
      }
      // At once: the command has waited for Prism to exit (Prism, left alone, dies only when it
      // next writes to the closed pipe, seconds later, if ever).
      expect(await leftOver(port, 0)).toEqual({ listening: false, prism: [] });
    }, 60_000);
  }

  it('SIGKILL to the command once the mock runs: Prism, left alone, exits by itself', async () => {
    const port = await freePort();
    ports.push(port);
    const { child, ended } = start([BIN, 'mock', '--port', String(port), '--docs-port', '0']);
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (d) => {
        out += d;
        if (out.includes('Press Ctrl-C to stop.')) resolve();
      });
      child.once('exit', () => reject(new Error('the mock exited early')));
    });
    expect(await listening(port)).toBe(true);
    child.kill('SIGKILL');
    await ended;
    // No handler runs on SIGKILL: Prism sees its standard input end, and exits.
    expect(await leftOver(port, 10_000)).toEqual({ listening: false, prism: [] });
  }, 60_000);

  it('a program that exits with its mock running, by process.exit or an uncaught error, leaves no Prism behind', async () => {
    for (const ending of ['process.exit(3)', 'setImmediate(() => { throw new Error("planted") })']) {
      const port = await freePort();
      ports.push(port);
      const program = `import { startMockGateway } from ${JSON.stringify(LAUNCHER)};
        await startMockGateway({ port: ${port}, docsPort: 0 });
        console.log('ready');
        ${ending};`;
      const { ended } = start(['--input-type=module', '-e', program]);
      const end = await ended;
      expect(end.stdout, end.stderr).toBe('ready\n');
      expect(end.status).not.toBe(0);
      // The group is killed as the program exits; the kernel ends it a moment later.
      expect(await leftOver(port, 10_000), ending).toEqual({ listening: false, prism: [] });
    }
  }, 60_000);
});
