// `gateway-contract mock`: the main job of `npm start`.
import { parseArgs } from 'node:util';
import { operations } from '../../../generated/operations.js';
import { type MockLogLevel, MockStartError, prismInstallCommand, startMockGateway } from '../../mock/launch.js';
import { type Command, usageError, wholeNumber } from '../options.js';

const LOG_LEVELS: readonly MockLogLevel[] = ['silent', 'error', 'warn', 'info'];
const isLogLevel = (level: string): level is MockLogLevel => (LOG_LEVELS as readonly string[]).includes(level);

/** The install command, wrapped for a terminal with shell line continuations (it still pastes as one command). */
function installLines(): string[] {
  const [command, ...rest] = prismInstallCommand().split(' @');
  const parts = rest.map((p) => `@${p}`);
  const half = Math.ceil(parts.length / 2);
  return [`  ${command} ${parts.slice(0, half).join(' ')} \\`, `    ${parts.slice(half).join(' ')}`];
}

export const mockCommand: Command = {
  usage: 'gateway-contract mock [--host 127.0.0.1] [--port 4010] [--docs-port 4011] [--log silent]',
  help: [
    "Starts Prism on the bundled contract, serving the six operations at the description's paths",
    '(gateway and router paths on one port), and a server for the reference docs page.',
    'Pick a named example with the header "Prefer: example=<name>" (the reference docs list the names under each operation).',
    'Ctrl-C stops both.',
    '',
    'Prism is not installed with the package (an optional peer, about 160 packages): in an app, install',
    'it once, at the versions the mock is tested with:',
    ...installLines(),
    'For state across calls and no extra install, use the sandbox: gateway-contract sandbox --help.',
    '',
    'Options (environment variables in brackets):',
    '  --host <address>     address to bind [HOST] (default 127.0.0.1)',
    '  --port <n>           port of the mock [PORT] (default 4010)',
    '  --docs-port <n>      port of the docs [DOCS_PORT] (default: the mock port + 1; 0: any free port)',
    '  --log <level>        Prism log level: silent, error, warn or info (default silent; the 422',
    '                       answer carries the problems). Any other level makes Prism log request',
    '                       bodies, and a body nested about 5 000 levels deep then stops it.',
    '  -h, --help           show this help',
  ].join('\n'),
  async run(args, io) {
    const { values } = parseArgs({
      args,
      strict: true,
      options: { host: { type: 'string' }, port: { type: 'string' }, 'docs-port': { type: 'string' }, log: { type: 'string' } },
    });
    const host = values.host ?? (process.env.HOST || '127.0.0.1');
    const port = wholeNumber(values.port ?? process.env.PORT, 'port', { min: 1, max: 65535 }) ?? 4010;
    const docsPort = wholeNumber(values['docs-port'] ?? process.env.DOCS_PORT, 'docs port', { max: 65535 });
    const log = values.log ?? 'silent';
    if (!isLogLevel(log)) throw usageError('--log must be silent, error, warn or info');
    const gateway = await startMockGateway({ host, port, docsPort, log, onLog: (line) => io.stderr.write(`prism: ${line}\n`) }).catch((error: unknown) => {
      // Why the mock could not start is the user's to fix (a port, Prism to install): one line.
      throw error instanceof MockStartError ? usageError(error.message) : error;
    });
    io.stdout.write(
      [
        `Mock gateway: ${gateway.mockUrl}`,
        `Reference docs: ${gateway.docsUrl}`,
        '',
        ...operations.filter((o) => o.kind === 'operation').map((o) => `  POST ${gateway.mockUrl}${o.path}  (${o.operationId})`),
        '',
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
    // Until Ctrl-C (SIGINT) or SIGTERM, or until Prism stops on its own. The handlers stay while
    // stopping, so a second Ctrl-C does not cut the stop short.
    let onSignal = () => {};
    const signalled = new Promise<'signal'>((resolve) => {
      onSignal = () => resolve('signal');
    });
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const why = await Promise.race([signalled, gateway.unexpectedExit]);
    await gateway.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (why !== 'signal') {
      io.stderr.write(`gateway-contract mock: Prism stopped unexpectedly (exit ${why.code ?? why.signal}); the docs server is stopped too.\n`);
      return 1;
    }
    io.stdout.write('Stopped.\n');
    return 0;
  },
};
