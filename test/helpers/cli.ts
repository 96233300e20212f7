// Runs the command line as a user does, `node dist/cli/bin.js ...`, or any Node program, in a child process.
import { spawn } from 'node:child_process';
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
  options: { input?: string | Buffer | undefined; env?: NodeJS.ProcessEnv; cwd?: string | undefined } = {},
): Promise<CliResult> {
  const { input, env = {}, cwd } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

export function runCli(args: string[], input?: string | Buffer, env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<CliResult> {
  return runNode([BIN, ...args], { input, env, cwd });
}
