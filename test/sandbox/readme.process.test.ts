// The guides' sandbox commands, run as printed: every curl command of a shell block of the README or
// a page of docs/ that calls the sandbox and prints its answer (not piped into another command) is run with the machine's curl against a sandbox this test
// starts on 127.0.0.1, with the pages' port 4020 replaced by the sandbox's free port and nothing
// else changed.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxFor } from './support.js';

/** The README and the pages of docs/, as their readers open them. */
const pages = [
  'README.md',
  ...readdirSync(new URL('../../docs/', import.meta.url))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Each curl command of the pages' shell blocks that calls the sandbox and prints its answer, in order (a line ending in \ goes on). */
function sandboxCurlCommands(page: string): string[] {
  const text = readFileSync(new URL(`../../${page}`, import.meta.url), 'utf8');
  const commands: string[] = [];
  for (const [, block] of text.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
    const lines = (block ?? '').replace(/\\\n/g, ' ').split('\n');
    for (const line of lines)
      if (/^curl\s/.test(line) && line.includes(':4020/sandbox') && !line.includes(' | ')) commands.push(line);
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

describe("the guides: the sandbox's curl commands", () => {
  const commands = pages.flatMap(sandboxCurlCommands);

  it('prints some, each with the JSON content type', () => {
    expect(sandboxCurlCommands('docs/sandbox.md').length).toBeGreaterThanOrEqual(4);
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
