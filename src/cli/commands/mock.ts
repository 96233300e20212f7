// `gateway-contract mock`: the main job of `npm start`.
import { parseArgs } from 'node:util';
import { operations } from '../../../generated/operations.js';
import {
  type MockGateway,
  type MockLogLevel,
  MockStartError,
  prismInstallCommand,
  startMockGateway,
} from '../../mock/launch.js';
import { freePort, fromEnv, listenAddress } from '../listen.js';
import { type Command, type Io, usageError, wholeNumber } from '../options.js';
import { type OptionTable, parserOptions } from '../optionTable.js';

const LOG_LEVELS: readonly MockLogLevel[] = ['silent', 'error', 'warn', 'info'];
const isLogLevel = (level: string): level is MockLogLevel => (LOG_LEVELS as readonly string[]).includes(level);

/** The install command, wrapped for a terminal with shell line continuations (it still pastes as one command). */
function installLines(): string[] {
  const [command, ...rest] = prismInstallCommand().split(' @');
  const parts = rest.map((p) => `@${p}`);
  const half = Math.ceil(parts.length / 2);
  return [`  ${command} ${parts.slice(0, half).join(' ')} \\`, `    ${parts.slice(half).join(' ')}`];
}

/** Where the mock listens unless told (`--port`, MOCK_PORT, PORT): its docs take the next port. */
const DEFAULT_MOCK_PORT = 4010;

const OPTIONS = [
  {
    name: 'host',
    type: 'string',
    value: '<address>',
    help: 'address to bind',
    env: 'MOCK_HOST; HOST also read',
    default: '127.0.0.1',
  },
  {
    name: 'port',
    type: 'string',
    value: '<n>',
    help: 'port of the mock; 0 picks a free one',
    env: 'MOCK_PORT; PORT also read',
    default: DEFAULT_MOCK_PORT,
  },
  {
    name: 'docs-port',
    type: 'string',
    value: '<n>',
    help: 'port of the docs; 0 picks a free one',
    env: 'MOCK_DOCS_PORT; DOCS_PORT also read',
    default: 'the mock port + 1; any free port when the mock port is 0',
  },
  {
    name: 'log',
    type: 'string',
    value: '<level>',
    help: 'Prism log level: silent, error, warn or info\nAny other level makes Prism log request bodies, and a body nested about 5 000 levels deep then stops it.',
    default: 'silent; the 422 answer carries the problems',
  },
] as const satisfies OptionTable;

export const mockCommand: Command = {
  usage: `gateway-contract mock [--host 127.0.0.1] [--port ${DEFAULT_MOCK_PORT}] [--docs-port ${DEFAULT_MOCK_PORT + 1}] [--log silent]`,
  about: [
    "Starts Prism on the bundled contract, serving the six operations at the description's paths",
    '(gateway and router paths on one port), and a server for the reference docs page.',
    'Pick a named example with the header "Prefer: example=<name>" (the reference docs list the names under each operation).',
    'Ctrl-C, SIGTERM or SIGHUP stops both, also while they start (Prism runs in a process group of its own, stopped whole).',
    '',
    'Prism is not installed with the package (an optional peer, about 160 packages): in an app, install',
    'it once, at the versions the mock is tested with:',
    ...installLines(),
    'For state across calls and no extra install, use the sandbox: gateway-contract sandbox --help.',
  ].join('\n'),
  options: OPTIONS,
  async run(args, io) {
    const { values } = parseArgs({ args, strict: true, options: parserOptions(OPTIONS) });
    const { host, port: asked } = listenAddress(values, process.env, {
      prefix: 'MOCK',
      aliases: { host: 'HOST', port: 'PORT' },
      defaultPort: DEFAULT_MOCK_PORT,
    });
    // Prism is told its port: 0 becomes a free one now, and the docs then take any free port too.
    const port = asked === 0 ? await freePort(host) : asked;
    const docsText = values['docs-port'] ?? fromEnv(process.env, 'MOCK_DOCS_PORT', 'DOCS_PORT');
    const docsPort = wholeNumber(docsText, 'docs port', { max: 65535 }) ?? (asked === 0 ? 0 : undefined);
    const log = values.log ?? 'silent';
    if (!isLogLevel(log)) throw usageError('--log must be silent, error, warn or info');
    // Ctrl-C (SIGINT), SIGTERM or SIGHUP, from here on: while the mock starts, the start is given
    // up (Prism, already spawned or not, is stopped with its port); once it runs, both servers
    // stop. The handlers stay while stopping, so a second Ctrl-C does not cut the stop short.
    const stopping = new AbortController();
    const onSignal = () => stopping.abort();
    for (const name of STOP_SIGNALS) process.on(name, onSignal);
    try {
      return await serve(io, { host, port, docsPort, log, signal: stopping.signal });
    } finally {
      for (const name of STOP_SIGNALS) process.off(name, onSignal);
    }
  },
};

/** The signals that stop the mock, whenever they come. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Starts the mock and serves until `signal` is aborted or Prism stops on its own: the exit status. */
async function serve(
  io: Io,
  options: { host: string; port: number; docsPort: number | undefined; log: MockLogLevel; signal: AbortSignal },
): Promise<number> {
  const { signal } = options;
  let gateway: MockGateway;
  try {
    gateway = await startMockGateway({ ...options, onLog: (line) => io.stderr.write(`prism: ${line}\n`) });
  } catch (error) {
    if (error instanceof MockStartError && error.reason === 'stopped') {
      io.stdout.write('Stopped.\n');
      return 0;
    }
    // Why the mock could not start is the user's to fix (a port, Prism to install): one line.
    throw error instanceof MockStartError ? usageError(error.message) : error;
  }
  io.stdout.write(
    [
      `Mock gateway: ${gateway.mockUrl}`,
      `Reference docs: ${gateway.docsUrl}`,
      '',
      ...operations
        .filter((o) => o.kind === 'operation')
        .map((o) => `  POST ${gateway.mockUrl}${o.path}  (${o.operationId})`),
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  const signalled = new Promise<'signal'>((resolve) => {
    if (signal.aborted) resolve('signal');
    else signal.addEventListener('abort', () => resolve('signal'), { once: true });
  });
  const why = await Promise.race([signalled, gateway.unexpectedExit]);
  await gateway.stop();
  if (why !== 'signal') {
    io.stderr.write(
      `gateway-contract mock: Prism stopped unexpectedly (exit ${why.code ?? why.signal}); the docs server is stopped too.\n`,
    );
    return 1;
  }
  io.stdout.write('Stopped.\n');
  return 0;
}
