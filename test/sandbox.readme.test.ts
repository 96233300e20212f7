// The README's sandbox commands, run as printed: every curl command of a shell block that calls the
// sandbox is run with the machine's curl against a sandbox this test starts on 127.0.0.1, with the
// README's port 4020 replaced by the sandbox's free port and nothing else changed.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/sandbox/index.js';
import { sandboxFor } from './sandbox.support.js';

/** Each curl command of the README's shell blocks that calls the sandbox, in order (a line ending in \ goes on). */
function sandboxCurlCommands(): string[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const commands: string[] = [];
  for (const [, block] of readme.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
    const lines = (block ?? '').replace(/\\\n/g, ' ').split('\n');
    for (const line of lines) if (/^curl\s/.test(line) && line.includes(':4020/sandbox')) commands.push(line);
  }
  return commands;
}

/** Runs a command with sh, as a reader pastes it. */
function run(command: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], { timeout: 20_000 }, (error, stdout) =>
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout }),
    );
  });
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor();
});
afterAll(async () => {
  await sandbox.stop();
});

describe("README: the sandbox's curl commands", () => {
  const commands = sandboxCurlCommands();

  it('prints some, each with the JSON content type', () => {
    expect(commands.length).toBeGreaterThanOrEqual(4);
    for (const command of commands) expect(command).toContain("-H 'content-type: application/json'");
  });

  it('runs each as printed, and each succeeds', async () => {
    for (const command of commands) {
      const ran = await run(command.replaceAll(':4020/', `:${sandbox.port}/`));
      // curl's progress meter goes to standard error: only the exit status and the answer count.
      expect({ command, code: ran.code }).toEqual({ command, code: 0 });
      const answer = JSON.parse(ran.stdout);
      expect({ command, error: answer.error }).toEqual({ command, error: undefined });
    }
  });
});
