// Runs the command line as a user does, `node dist/cli/bin.js ...`, or any Node program, in a child process.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <args>` to its end, with its standard input, output and error as text. */
export function runNode(
  args: string[],
  options: {
    input?: string | Buffer | undefined;
    env?: NodeJS.ProcessEnv;
    cwd?: string | undefined;
    timeoutMs?: number | undefined;
  } = {},
): Promise<CliResult> {
  const { input, env = {}, cwd, timeoutMs } = options;
  return new Promise((resolve, reject) => {
    // With timeoutMs, a child still running then is killed (its status is null).
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(cwd ? { cwd } : {}),
      ...(timeoutMs ? { timeout: timeoutMs, killSignal: 'SIGKILL' as const } : {}),
    });
    collectOutput(child).then(resolve, reject);
    child.stdin.end(input ?? '');
  });
}

/** A child process's exit status and its standard output and error as text, once it has ended. */
export function collectOutput(child: ChildProcess): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr?.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

export function runCli(
  args: string[],
  input?: string | Buffer,
  env: NodeJS.ProcessEnv = {},
  cwd?: string,
): Promise<CliResult> {
  return runNode([BIN, ...args], { input, env, cwd });
}

/**
 * Node's options for a child whose garbage collector runs every few milliseconds: what a busy
 * process does to objects only weakly held (Node 20's fetch lost a Request's abort signal that way).
 */
export const FORCED_GC = ['--expose-gc', '--import', 'data:text/javascript,setInterval(()=>globalThis.gc(),5).unref()'];
