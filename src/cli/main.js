// The command line: `gateway-contract <command> ...`. Each command has --help. Exit codes:
// 0 success or valid, 1 invalid payload, 2 usage error, unreadable input or malformed JSON.
import { readFile, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { validate } from '../validation/validate.js';
import { operations } from '../../generated/operations.js';
import { parseJson, readStream } from './json.js';
import { mockCommand } from '../mock/command.js';
import { sandboxCommand } from '../sandbox/command.js';
import { sendWebhookCommand } from '../webhook/sendCommand.js';

/** @typedef {{ stdin: NodeJS.ReadableStream, stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream }} Io */
/** @typedef {{ summary: string, usage: string, help: string, run: (args: string[], io: Io) => Promise<number> }} Command */

class UsageError extends Error {}

const OPERATION_IDS = operations.map((o) => o.operationId);
/** Payloads larger than this are refused unless --max-bytes says otherwise (16 MiB). */
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

/** @type {Record<string, Command>} */
const commands = {
  validate: {
    summary: 'Validate a request or response payload against the contract.',
    usage: 'gateway-contract validate <operationId> <request|response> <file|-> [--query name=value]... [--path name=value]...',
    help: [
      'Validates the JSON envelope {head, body} in <file> (or standard input with -) as the request or the',
      'response of <operationId>, with the schema and the named checks that compare query or path with body.',
      '',
      'Exit status: 0 valid; 1 invalid, with one JSON object per problem on standard output',
      '({"in","pointer","rule","message","resultCode"?}); 2 usage error, unknown operationId, unreadable',
      'file or malformed JSON, with a one-line message on standard error.',
      '',
      `operationIds: ${OPERATION_IDS.join(', ')} (the webhook is notifyTokenStatus).`,
      '',
      'Options:',
      '  --query name=value   a query parameter of the request (repeatable), e.g. --query mid=M1 --query orderId=O1',
      '  --path name=value    a path parameter of the request (repeatable), e.g. --path mid=M1',
      '  --max-bytes <n>      refuse larger input (default 16777216, 16 MiB)',
      '',
      'Input must be UTF-8 JSON with no key repeated within an object.',
      '  -h, --help           show this help',
    ].join('\n'),
    async run(args, io) {
      const { values, positionals } = parseArgs({ args, allowPositionals: true, strict: true, options: { query: { type: 'string', multiple: true }, path: { type: 'string', multiple: true }, 'max-bytes': { type: 'string' } } });
      if (positionals.length !== 3) throw new UsageError(`expected <operationId> <request|response> <file|->, got ${positionals.length} argument(s)`);
      const [operationId, direction, source] = positionals;
      if (!OPERATION_IDS.includes(operationId)) throw new UsageError(`unknown operationId "${operationId.slice(0, 64)}"; known: ${OPERATION_IDS.join(', ')}`);
      if (direction !== 'request' && direction !== 'response') throw new UsageError('the direction must be "request" or "response"');
      const query = pairs(values.query ?? [], '--query');
      const path = pairs(values.path ?? [], '--path');
      const maxBytes = values['max-bytes'] === undefined ? DEFAULT_MAX_BYTES : Number(values['max-bytes']);
      if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw new UsageError('--max-bytes takes a positive whole number');
      let bytes;
      try {
        if (source === '-') bytes = await readStream(io.stdin, maxBytes);
        else {
          const info = await stat(source);
          if (!info.isFile()) throw Object.assign(new Error(), { code: 'not a file' });
          if (info.size > maxBytes) throw new UsageError(`"${source}" is larger than ${maxBytes} bytes (see --max-bytes)`);
          bytes = await readFile(source);
        }
      } catch (error) {
        if (error instanceof UsageError || /** @type {any} */ (error)?.usage) throw new UsageError(/** @type {Error} */ (error).message);
        throw new UsageError(`cannot read ${source === '-' ? 'standard input' : `"${source}"`}: ${/** @type {any} */ (error)?.code ?? 'read error'}`);
      }
      const parsed = parseJson(bytes);
      if (!parsed.ok) throw new UsageError(`${source === '-' ? 'standard input' : `"${source}"`}: ${parsed.message}`);
      const result = validate(operationId, direction, parsed.value, {
        ...(values.query ? { query } : {}),
        ...(values.path ? { path } : {}),
      });
      if (result.valid) {
        io.stderr.write(`valid: ${operationId} ${direction}\n`);
        return 0;
      }
      for (const error of result.errors) io.stdout.write(`${JSON.stringify(error)}\n`);
      return 1;
    },
  },
  operations: {
    summary: 'List the operations and the webhook with method, host and path.',
    usage: 'gateway-contract operations [--json]',
    help: 'Lists every operationId with its method, host (gateway, router, or the merchant for the webhook) and path.\n\nOptions:\n  --json       print the operation index as JSON\n  -h, --help   show this help',
    async run(args, io) {
      const { values } = parseArgs({ args, strict: true, options: { json: { type: 'boolean' } } });
      if (values.json) {
        io.stdout.write(`${JSON.stringify(operations, null, 2)}\n`);
        return 0;
      }
      const rows = operations.map((o) => [o.operationId, o.method, o.host, o.path ?? `{merchant_response_url} (webhook ${o.webhook})`]);
      const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
      for (const r of rows) io.stdout.write(`${r.map((c, i) => (i < 3 ? c.padEnd(widths[i]) : c)).join('  ')}\n`);
      return 0;
    },
  },
  mock: mockCommand,
  sandbox: sandboxCommand,
  'send-webhook': sendWebhookCommand,
};

/** Registers more commands (the mock, the webhook sender, the sandbox) without this file knowing them. */
export function registerCommand(/** @type {string} */ name, /** @type {Command} */ command) {
  commands[name] = command;
}

/** @param {string[]} list @param {string} flag */
function pairs(list, flag) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const item of list) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag} takes name=value, got "${item.slice(0, 64)}"`);
    out[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}

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
