// The command line: `gateway-contract <command> ...`. Each command has --help. Exit codes:
// 0 success or valid, 1 invalid payload, 2 usage error, unreadable input or malformed JSON.
import { UsageError } from './options.js';
import { validateCommand } from './commands/validate.js';
import { operationsCommand } from './commands/operations.js';
import { mockCommand } from './commands/mock.js';
import { sandboxCommand } from './commands/sandbox.js';
import { sendWebhookCommand } from './commands/sendWebhook.js';

/** @typedef {import('./options.js').Io} Io */

/** @type {Record<string, import('./options.js').Command>} */
const commands = {
  validate: validateCommand,
  operations: operationsCommand,
  mock: mockCommand,
  sandbox: sandboxCommand,
  'send-webhook': sendWebhookCommand,
};

function overview() {
  const names = Object.keys(commands);
  const width = Math.max(...names.map((n) => n.length));
  return [
    'gateway-contract: the contract of the merchant payments gateway, as a tool.',
    '',
    'Usage: gateway-contract <command> [options]',
    '',
    'Commands:',
    ...names.map((n) => `  ${n.padEnd(width)}  ${commands[n].summary}`),
    '',
    'Run "gateway-contract <command> --help" for a command\'s options.',
  ].join('\n');
}

/**
 * A reader that stops early (`gateway-contract validate ... | head -1`) closes the pipe: the rest
 * of the output is dropped, instead of an unhandled EPIPE and a stack trace.
 * @param {any} error
 */
function ignoreClosedPipe(error) {
  if (error?.code !== 'EPIPE' && error?.code !== 'ERR_STREAM_DESTROYED') throw error;
}

/**
 * @param {string[]} argv the arguments after the program name
 * @param {Io} io
 * @returns {Promise<number>} the exit status
 */
export async function main(argv, io) {
  for (const stream of [io.stdout, io.stderr]) if (!stream.listeners('error').includes(ignoreClosedPipe)) stream.on('error', ignoreClosedPipe);
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${overview()}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
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
    const known = error instanceof UsageError || /** @type {any} */ (error)?.usage === true || /** @type {any} */ (error)?.code?.startsWith?.('ERR_PARSE_ARGS');
    const message = known ? /** @type {Error} */ (error).message : `failed: ${/** @type {any} */ (error)?.code ?? (error instanceof Error ? error.message : 'unexpected failure')}`;
    io.stderr.write(`gateway-contract ${name}: ${message.split('\n')[0]}\n`);
    return 2;
  }
}
