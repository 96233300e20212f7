// The command line as people expect it, run as they run it: every help within 100 columns; "did you
// mean ...?" for a mistyped command, option or operationId; on a terminal (a pseudo-terminal made
// by util-linux's `script`), progress of a long run on standard error and coloured verdicts, and
// neither under CI, with NO_COLOR or on a pipe; one convention for where the mock and the sandbox
// listen (port 0 included). The modules themselves: terminal.test.ts.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, collectOutput, runCli } from '../helpers/cli.js';

const work = mkdtempSync(join(tmpdir(), 'gc-terminal-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The environment of a person at a terminal: no CI, no colour settings. */
function terminalEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm', ...extra };
  for (const name of ['CI', 'NO_COLOR', 'FORCE_COLOR', 'GITHUB_ACTIONS']) if (!(name in extra)) delete env[name];
  return env;
}

/**
 * Runs a shell command line on a pseudo-terminal (its standard output and error are the terminal)
 * and returns what the terminal showed.
 */
async function onTerminal(
  commandLine: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; shown: string }> {
  const child = spawn('script', ['-q', '-e', '-c', commandLine, '/dev/null'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  const result = await collectOutput(child);
  return { status: result.status, shown: result.stdout + result.stderr };
}

const RECORD = JSON.stringify({ operationId: 'initiatePayment', direction: 'request', payload: {} });
/**
 * A writer that sends 50 invalid records, then 50 more after 1.2 s and 50 more 0.3 s later: a run
 * that lasts longer than the progress delay (1 s) whatever the machine's speed.
 */
const WRITER = join(work, 'writer.mjs');
writeFileSync(
  WRITER,
  `const write = (n) => process.stdout.write(${JSON.stringify(`${RECORD}\n`)}.repeat(n));
write(50);
setTimeout(() => { write(50); setTimeout(() => write(50), 300); }, 1200);
`,
);
const longRun = `'${process.execPath}' '${WRITER}' | '${process.execPath}' '${BIN}' validate --ndjson -`;
const ESC = '\u001b[';

describe.skipIf(!hasScript())('on a terminal', () => {
  it('a long run shows its progress on standard error, cleared at the end, and coloured verdicts', async () => {
    const { status, shown } = await onTerminal(longRun, terminalEnv());
    expect(status).toBe(1);
    expect(shown).toMatch(/\rvalidating: \d+ payloads done, \d+ invalid so far, [\d,]+\/s/);
    // Cleared: the report starts after a carriage return that follows spaces only.
    expect(shown).toMatch(new RegExp(`\r {20,}\r${ESC.replace('[', '\\[')}31minvalid`));
    expect(shown).toContain(`150 payloads: 0 valid, ${ESC}31m150 invalid${ESC}39m`);
  });

  it('shows no progress under CI, and no colour with NO_COLOR', async () => {
    const ci = await onTerminal(longRun, terminalEnv({ CI: 'true' }));
    expect(ci.status).toBe(1);
    expect(ci.shown).not.toContain('validating:');
    expect(ci.shown).toContain('150 payloads: 0 valid,');
    const plain = await onTerminal(longRun, terminalEnv({ NO_COLOR: '1' }));
    expect(plain.shown).toContain('validating:');
    expect(plain.shown).not.toContain(ESC);
    expect(plain.shown).toContain('150 payloads: 0 valid, 150 invalid');
  });

  it('a short run shows no progress', async () => {
    const { shown } = await onTerminal(
      `printf '%s\\n' '${RECORD}' | '${process.execPath}' '${BIN}' validate --ndjson - --format text`,
      terminalEnv(),
    );
    expect(shown).not.toContain('validating:');
    expect(shown).toContain(`1 payload: 0 valid, ${ESC}31m1 invalid${ESC}39m`);
  });
});

function hasScript(): boolean {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('on a pipe', () => {
  it('neither progress nor colour, even for a long run, with the text format asked for', async () => {
    const child = spawn('sh', ['-c', `${longRun} --format text`], {
      env: terminalEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { status, stdout, stderr } = await collectOutput(child);
    expect(status).toBe(1);
    expect(stdout).toContain('150 payloads: 0 valid, 150 invalid');
    expect(stdout + stderr).not.toContain(ESC);
    expect(stdout + stderr).not.toContain('validating:');
    expect(stdout + stderr).not.toContain('\r');
  });

  it('FORCE_COLOR colours the text report on a pipe, and NO_COLOR wins over it', async () => {
    const input = `${RECORD}\n`;
    const forced = await runCli(['validate', '--ndjson', '-', '--format', 'text'], input, {
      FORCE_COLOR: '1',
      NO_COLOR: '',
    });
    expect(forced.stdout).toContain(`${ESC}31minvalid${ESC}39m`);
    const both = await runCli(['validate', '--ndjson', '-', '--format', 'text'], input, {
      FORCE_COLOR: '1',
      NO_COLOR: '1',
    });
    expect(both.stdout).not.toContain(ESC);
    // The machine formats are never coloured.
    const json = await runCli(['validate', '--ndjson', '-', '--format', 'json'], input, {
      FORCE_COLOR: '1',
      NO_COLOR: '',
    });
    expect(json.stdout + json.stderr).not.toContain(ESC);
  });
});

describe('help', () => {
  it('every help text fits 100 columns', async () => {
    const overview = await runCli(['--help']);
    const names = [...overview.stdout.matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((m) => m[1] as string);
    expect(names).toEqual(['validate', 'operations', 'mock', 'sandbox', 'proxy', 'verify', 'send-webhook']);
    const helps = [overview, ...(await Promise.all(names.map((name) => runCli([name, '--help']))))];
    for (const help of helps) {
      expect(help.status).toBe(0);
      const long = help.stdout.split('\n').filter((line) => line.length > 100);
      expect(long).toEqual([]);
    }
  });
});

describe('did you mean', () => {
  it.concurrent.for([
    [
      ['valdate'],
      'gateway-contract: unknown command "valdate"; did you mean "validate"?; run "gateway-contract --help"',
    ],
    [
      ['sandbx', '--port', '0'],
      'gateway-contract: unknown command "sandbx"; did you mean "sandbox"?; run "gateway-contract --help"',
    ],
    [
      ['validate', '--ndjson', '-', '--formt', 'text'],
      'gateway-contract validate: unknown option "--formt"; did you mean "--format"?; run "gateway-contract validate --help"',
    ],
    [
      ['sandbox', '--prot', '0'],
      'gateway-contract sandbox: unknown option "--prot"; did you mean "--port"?; run "gateway-contract sandbox --help"',
    ],
    [
      ['operations', '--jsno'],
      'gateway-contract operations: unknown option "--jsno"; did you mean "--json"?; run "gateway-contract operations --help"',
    ],
    [
      ['validate', 'initiatPayment', 'request', '-'],
      /^gateway-contract validate: unknown operationId "initiatPayment"; did you mean "initiatePayment"\?; known: /,
    ],
    [
      ['validate', 'initiatePayment', 'reqest', '-'],
      'gateway-contract validate: the direction must be "request" or "response"; did you mean "request"?',
    ],
    [
      ['validate', '--ndjson', '-', '--format', 'sarf'],
      'gateway-contract validate: --format must be one of text, json, junit, sarif, github; did you mean "sarif"?',
    ],
    [
      ['validate', '--ndjson', '-', '--frobnicate'],
      'gateway-contract validate: unknown option "--frobnicate"; run "gateway-contract validate --help"',
    ],
  ] as [string[], string | RegExp][])('%j', async ([args, message], { expect }) => {
    const result = await runCli(args, '');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    const line = result.stderr.trimEnd();
    expect(line.split('\n')).toHaveLength(1);
    if (typeof message === 'string') expect(line).toBe(message);
    else expect(line).toMatch(message);
  });

  it('names a mistyped option, never the value given with it', async () => {
    const secret = 'Zq9SecretKey0001';
    const result = await runCli(['send-webhook', '--url', 'http://127.0.0.1:1/x', `--kye=${secret}`], '');
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe(
      'gateway-contract send-webhook: unknown option "--kye"; did you mean "--key"?; run "gateway-contract send-webhook --help"',
    );
    expect(result.stdout + result.stderr).not.toContain(secret);
  });
});

/** A server command started as a terminal starts it, until its banner is printed. */
async function startCommand(args: string[], env: NodeJS.ProcessEnv) {
  const child: ChildProcess = spawn(process.execPath, [BIN, ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const output = collectOutput(child);
  let stdout = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('Press Ctrl-C to stop.')) resolve();
    });
    child.once('exit', () => output.then((r) => reject(new Error(`${args[0]} stopped early: ${r.stderr}`))));
  });
  return {
    stdout,
    async stop() {
      process.kill(-(child.pid as number), 'SIGTERM');
      return output;
    },
  };
}

describe('where the mock and the sandbox listen', () => {
  it('the sandbox takes port 0 from SANDBOX_PORT and listens on a free port', async () => {
    const sandbox = await startCommand(['sandbox', '--quiet'], { ...process.env, SANDBOX_PORT: '0', PORT: '1' });
    try {
      const url = /^Sandbox: (http:\/\/127\.0\.0\.1:(\d+))$/m.exec(sandbox.stdout);
      expect(Number(url?.[2])).toBeGreaterThan(0);
      expect((await fetch(`${url?.[1]}/sandbox`)).status).toBe(200);
    } finally {
      expect((await sandbox.stop()).status).toBe(0);
    }
  });

  it('the mock takes port 0 (a free port for the mock and one for the docs), MOCK_PORT over PORT, and serves a deep link of the docs', async () => {
    const mock = await startCommand(['mock'], {
      ...process.env,
      MOCK_PORT: '0',
      PORT: '1',
      HOST: '',
      MOCK_HOST: '127.0.0.1',
    });
    try {
      const mockUrl = /^Mock gateway: http:\/\/127\.0\.0\.1:(\d+)$/m.exec(mock.stdout)?.[1];
      const docsUrl = /^Reference docs: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(mock.stdout)?.[1];
      expect(Number(mockUrl)).toBeGreaterThan(1);
      const page = await fetch(`${docsUrl}/payments`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>Merchant payments gateway: reference</title>');
    } finally {
      expect((await mock.stop()).status).toBe(0);
    }
  });

  it('the mock refuses a port out of range, naming it', async () => {
    const result = await runCli(['mock', '--port', '70000']);
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe(
      'gateway-contract mock: port must be a whole number from 0 to 65535, got "70000"',
    );
  });
});
