// The command line: `gateway-contract <command> ...`. Each command has --help. Exit codes:
// 0 success or valid, 1 invalid or unreadable payload (or a failed check), 2 usage error.
import { PACKAGE_VERSION } from '../packageInfo.js';
import { wrapHelp } from './helpText.js';
import type { Command, Io } from './options.js';
import { UsageError } from './options.js';
import { optionFlags, optionsHelp } from './optionTable.js';
import { didYouMean } from './suggest.js';

export type { Io };

/**
 * The commands, each loaded only when it runs: `validate` in CI does not load the sandbox or the
 * mock. A run of many payloads is held to at most 3x a bare `node -e 0` (bench/batch.mjs); loading
 * the sandbox alone costs more than Node's own start (bench/startup.mjs).
 */
const commands: Record<string, { summary: string; load: () => Promise<Command> }> = {
  validate: {
    summary: 'Validate payloads against the contract: files, directories, globs, NDJSON or recorded traffic (HAR).',
    load: async () => (await import('./commands/validate.js')).validateCommand,
  },
  operations: {
    summary: 'List the operations and the webhook with method, host and path.',
    load: async () => (await import('./commands/operations.js')).operationsCommand,
  },
  mock: {
    summary: 'Serve the mock gateway (Prism) and the reference docs on 127.0.0.1.',
    load: async () => (await import('./commands/mock.js')).mockCommand,
  },
  sandbox: {
    summary: 'Serve the stateful sandbox of the service on 127.0.0.1.',
    load: async () => (await import('./commands/sandbox.js')).sandboxCommand,
  },
  proxy: {
    summary: 'Check and record every exchange between an app and the service (a validating proxy).',
    load: async () => (await import('./commands/proxy.js')).proxyCommand,
  },
  verify: {
    summary:
      'Prove that a running service (or the sandbox) keeps the contract: answers, refusals, state and notifications.',
    load: async () => (await import('./commands/verify.js')).verifyCommand,
  },
  'send-webhook': {
    summary:
      "Send a signed token status notification to a merchant's webhook and check the reply (--suite: every conformance case).",
    load: async () => (await import('./commands/sendWebhook.js')).sendWebhookCommand,
  },
};

function overview(): string {
  const names = Object.keys(commands);
  const width = Math.max(...names.map((n) => n.length));
  const text = [
    'gateway-contract: the contract of the merchant payments gateway, as a tool.',
    '',
    'Usage: gateway-contract <command> [options]',
    '',
    'Commands:',
    ...Object.entries(commands).map(([n, c]) => `  ${n.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  -h, --help     Print this overview.',
    '  -v, --version  Print the version of the package.',
    '',
    'Run "gateway-contract <command> --help" for a command\'s options.',
  ].join('\n');
  return wrapHelp(text);
}

/** A command's help: its usage lines, what it does, and its options from its table, within 100 columns. */
function commandHelp(command: Command): string {
  return wrapHelp(`Usage: ${command.usage}\n\n${command.about}\n\n${optionsHelp(command.options)}`);
}

/**
 * An unknown option in one line, with the nearest option of the command. Only the option's name is
 * shown (`--kye=...` is named `--kye`), never a value given with it.
 */
function unknownOption(message: string, name: string, command: Command): string {
  const option = /^Unknown option '(-{1,2}[A-Za-z0-9_-]{1,64})'/.exec(message)?.[1];
  const named =
    option === undefined
      ? 'an unknown option'
      : `unknown option "${option}"${didYouMean(option, optionFlags(command.options))}`;
  return `${named}; run "gateway-contract ${name} --help"`;
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
  for (const stream of [io.stdout, io.stderr])
    if (!stream.listeners('error').includes(ignoreClosedPipe)) stream.on('error', ignoreClosedPipe);
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${overview()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${PACKAGE_VERSION}\n`);
    return 0;
  }
  const entry = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!entry) {
    const shown = name.slice(0, 64);
    io.stderr.write(
      `gateway-contract: unknown command "${shown}"${didYouMean(shown, Object.keys(commands))}; run "gateway-contract --help"\n`,
    );
    return 2;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`${commandHelp(command)}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      io.stderr.write(`gateway-contract ${name}: ${unknownOption((error as Error).message, name, command)}\n`);
      return 2;
    }
    const known = error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'));
    const message = known
      ? (error as Error).message
      : `failed: ${typeof code === 'string' ? code : error instanceof Error ? error.message : 'unexpected failure'}`;
    io.stderr.write(`gateway-contract ${name}: ${(message.split('\n')[0] ?? '').slice(0, 300)}\n`);
    return 2;
  }
}
