// `gateway-contract mock`: the main job of `npm start`.
import { parseArgs } from 'node:util';
import { startMockGateway } from './launch.js';
import { operations } from '../../generated/operations.js';

/** @param {string | undefined} text @param {string} what */
function portOf(text, what) {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw Object.assign(new Error(`${what} must be a port number (0 to 65535), got "${text.slice(0, 16)}"`), { usage: true });
  return n;
}

export const mockCommand = {
  summary: 'Serve the mock gateway (Prism) and the reference docs on 127.0.0.1.',
  usage: 'gateway-contract mock [--host 127.0.0.1] [--port 4010] [--docs-port 4011] [--log warn]',
  help: [
    'Starts Prism on the bundled contract, serving the six operations at the description\'s paths',
    '(gateway and router paths on one port), and a server for the reference docs page.',
    'Pick a named example with the header "Prefer: example=<name>" (see the README for the names).',
    'Ctrl-C stops both.',
    '',
    'Options (environment variables in brackets):',
    '  --host <address>     address to bind [HOST] (default 127.0.0.1)',
    '  --port <n>           port of the mock [PORT] (default 4010)',
    '  --docs-port <n>      port of the docs [DOCS_PORT] (default: the mock port + 1)',
    '  --log <level>        Prism log level: error, warn or info (default warn)',
    '  -h, --help           show this help',
  ].join('\n'),
  /** @param {string[]} args @param {import('../cli/main.js').Io} io */
  async run(args, io) {
    const { values } = parseArgs({ args, strict: true, options: { host: { type: 'string' }, port: { type: 'string' }, 'docs-port': { type: 'string' }, log: { type: 'string' } } });
    const host = values.host ?? process.env.HOST ?? '127.0.0.1';
    const port = portOf(values.port ?? process.env.PORT, 'port') ?? 4010;
    const docsPort = portOf(values['docs-port'] ?? process.env.DOCS_PORT, 'docs port');
    const log = /** @type {any} */ (values.log ?? 'warn');
    if (!['error', 'warn', 'info'].includes(log)) throw Object.assign(new Error('--log must be error, warn or info'), { usage: true });
    const gateway = await startMockGateway({ host, port, docsPort, log, onLog: (line) => io.stderr.write(`prism: ${line}\n`) });
    io.stdout.write([
      `Mock gateway: ${gateway.mockUrl}`,
      `Reference docs: ${gateway.docsUrl}`,
      '',
      ...operations.filter((o) => o.kind === 'operation').map((o) => `  POST ${gateway.mockUrl}${o.path}  (${o.operationId})`),
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'));
    await new Promise((resolve) => {
      const stop = () => { process.off('SIGINT', stop); process.off('SIGTERM', stop); resolve(undefined); };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await gateway.stop();
    io.stdout.write('Stopped.\n');
    return 0;
  },
};
