// The command line: `gateway-contract <command> ...`. Each command has --help. Exit codes:
// 0 success or valid, 1 invalid payload, 2 usage error, unreadable input or malformed JSON.
import { mockCommand } from './commands/mock.js';
import { operationsCommand } from './commands/operations.js';
import { sandboxCommand } from './commands/sandbox.js';
import { sendWebhookCommand } from './commands/sendWebhook.js';
import { validateCommand } from './commands/validate.js';
import { type Command, type Io, UsageError } from './options.js';

export type { Io };

const commands: Record<string, Command> = {
  validate: validateCommand,
  operations: operationsCommand,
  mock: mockCommand,
  sandbox: sandboxCommand,
  'send-webhook': sendWebhookCommand,
};

function overview(): string {
  const names = Object.keys(commands);
  const width = Math.max(...names.map((n) => n.length));
  return [
    'gateway-contract: the contract of the merchant payments gateway, as a tool.',
    '',
    'Usage: gateway-contract <command> [options]',
    '',
    'Commands:',
    ...Object.entries(commands).map(([n, c]) => `  ${n.padEnd(width)}  ${c.summary}`),
    '',
    'Run "gateway-contract <command> --help" for a command\'s options.',
  ].join('\n');
}

/**
 * A reader that stops early (`gateway-contract validate ... | head -1`) closes the pipe: the rest
 * of the output is dropped, instead of an unhandled EPIPE and a stack trace.
 */
function ignoreClosedPipe(error: NodeJS.ErrnoException): void {
  if (error?.code !== 'EPIPE' && error?.code !== 'ERR_STREAM_DESTROYED') throw error;
}

/** Runs one command with the arguments after the program name; resolves with the exit status. */
export async function main(argv: string[], io: Io): Promise<number> {
  for (const stream of [io.stdout, io.stderr]) if (!stream.listeners('error').includes(ignoreClosedPipe)) stream.on('error', ignoreClosedPipe);
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${overview()}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    io.stderr.write(`gateway-contract: unknown command "${name.slice(0, 64)}"; run "gateway-contract --help"\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`Usage: ${command.usage}\n\n${command.help}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const known = error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'));
    const message = known
      ? (error as Error).message
      : `failed: ${typeof code === 'string' ? code : error instanceof Error ? error.message : 'unexpected failure'}`;
    io.stderr.write(`gateway-contract ${name}: ${(message.split('\n')[0] ?? '').slice(0, 300)}\n`);
    return 2;
  }
}
