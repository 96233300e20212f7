// `gateway-contract proxy`: the validating proxy in front of the service's two hosts (and the
// merchant's webhook), reporting every exchange when it stops. The proxy is loaded only when the
// command runs.
import { parseArgs } from 'node:util';
import { DEFAULT_MAX_BODY_BYTES } from '../../http/limits.js';
import { REPORT_FORMATS } from '../../report/format.js';
import { type Command, usageError as usage, wholeNumber } from '../options.js';
import { type OptionTable, parserOptions } from '../optionTable.js';
import { reportFormat, writeReport } from '../output.js';
import { untilStopped } from '../signals.js';

const OPTIONS = [
  { name: 'gateway-upstream', type: 'string', value: '<url>', help: 'the gateway, {base_url}' },
  { name: 'router-upstream', type: 'string', value: '<url>', help: 'the order router, {router_url}' },
  {
    name: 'webhook-upstream',
    type: 'string',
    value: '<url>',
    help: "the merchant's webhook address ({merchant_response_url}) notifications go on to",
  },
  {
    name: 'webhook-path',
    type: 'string',
    value: '<path>',
    help: 'where the proxy receives notifications',
    default: 'the path of --webhook-upstream',
  },
  { name: 'host', type: 'string', value: '<address>', help: 'address to bind', default: '127.0.0.1' },
  { name: 'port', type: 'string', value: '<n>', help: 'port; 0 picks a free one', default: 4030 },
  {
    name: 'key',
    type: 'string',
    value: '<key>',
    help: 'the 16-character merchant key\nPrefer the environment variable: a command-line argument is visible to other users. Never printed.',
    env: 'MERCHANT_KEY',
  },
  {
    name: 'enforce',
    type: 'boolean',
    help: 'answer a request that breaks the contract with 422 instead of forwarding it',
  },
  {
    name: 'har',
    type: 'string',
    value: '<file>',
    help: 'record every exchange as HAR 1.2, every sensitive value replaced by a marker',
  },
  {
    name: 'format',
    type: 'string',
    value: '<format>',
    help: REPORT_FORMATS.join(', '),
    default: 'text on a terminal, json otherwise',
  },
  {
    name: 'output',
    type: 'string',
    value: '<file>',
    help: 'write the report to <file>; standard output gets the summary',
  },
  { name: 'max-exchanges', type: 'string', value: '<n>', help: 'stop after n exchanges' },
  {
    name: 'max-body-bytes',
    type: 'string',
    value: '<n>',
    help: 'the largest request body',
    default: DEFAULT_MAX_BODY_BYTES,
  },
  {
    name: 'upstream-timeout-ms',
    type: 'string',
    value: '<n>',
    help: 'how long the upstream may take to answer',
    default: 30_000,
  },
  {
    name: 'grace-ms',
    type: 'string',
    value: '<n>',
    help: 'on stopping, how long exchanges in flight may take to end',
    default: 5_000,
  },
  { name: 'quiet', type: 'boolean', help: 'no line per exchange on standard error' },
] as const satisfies OptionTable;

export const proxyCommand: Command = {
  usage:
    'gateway-contract proxy --gateway-upstream <url> --router-upstream <url> [--host 127.0.0.1] [--port 4030] [--enforce] [--har <file>] [--output <file>] [--format <format>] [...]',
  about: [
    "Serves the contract's paths of both hosts on one address and forwards each request, byte for byte, to",
    'the gateway (--gateway-upstream) or the order router (--router-upstream) as its path says; any other path',
    'is answered 404 with a problem. Each exchange is checked: the request (envelope, query and path',
    "parameters, named checks) and the answer (schema, the result code in the operation's own table with its",
    'status); with the merchant key, the head signatures and txnInfo.checksumHash too. With --webhook-upstream',
    "the token notification posted to --webhook-path is forwarded to the merchant's address and checked with",
    "the merchant's reply. Problems are reported, never sent in headers.",
    '',
    'By default every request is forwarded unchanged. With --enforce, a request that breaks the contract is',
    'answered by the proxy, HTTP 422 application/problem+json (RFC 9457: each problem with its JSON Pointer,',
    "rule and the operation's own result code), and never reaches the service. The upstream refusing, resetting,",
    'not answering within --upstream-timeout-ms or answering with a body that is not JSON is answered 502 or 504',
    'with a problem, and recorded. A gzip, deflate or br answer is decoded for the checks and forwarded as it came;',
    'an answer that is not HTTP 200 is reported. In both modes, a compressed request (415), and a path parameter',
    'a front could read as another path (400: a dot segment, an encoded slash), are refused and never forwarded.',
    '',
    'The run ends on Ctrl-C, SIGTERM or after --max-exchanges. The proxy then stops accepting connections and',
    'waits up to --grace-ms for the exchanges in flight, answering and recording each; one still open after it',
    'is answered 503 with a problem and counted invalid (the problem shutdown); a second Ctrl-C or SIGTERM ends',
    'the wait at once. Then the report is written (one case per exchange, and per operation the result codes',
    'of its table met and not met and the named checks that fired). Exit status: 0 every exchange valid;',
    '1 any invalid; 2 usage error.',
  ].join('\n'),
  options: OPTIONS,
  async run(args, io) {
    const { values } = parseArgs({ args, strict: true, options: parserOptions(OPTIONS) });
    if (!values['gateway-upstream'] || !values['router-upstream'])
      throw usage('--gateway-upstream and --router-upstream are required');
    if (values['webhook-path'] !== undefined && values['webhook-upstream'] === undefined)
      throw usage('--webhook-path goes with --webhook-upstream');
    const format = reportFormat(values.format, io, values.output);
    const key = values.key ?? process.env.MERCHANT_KEY ?? undefined;
    const { startProxy } = await import('../../proxy/server.js');
    const { scrubReport, scrubText } = await import('../../proxy/redact.js');
    // The last scrub of the log lines and the report: the key in any spelling (D-104).
    const secrets = key ? [key] : [];
    const scrub = (text: string) => scrubText(text, secrets);
    let proxy: Awaited<ReturnType<typeof startProxy>>;
    try {
      proxy = await startProxy({
        gatewayUpstream: values['gateway-upstream'],
        routerUpstream: values['router-upstream'],
        webhookUpstream: values['webhook-upstream'],
        webhookPath: values['webhook-path'],
        host: values.host ?? '127.0.0.1',
        port: wholeNumber(values.port, '--port', { max: 65535 }),
        merchantKey: key === '' ? undefined : key,
        enforce: values.enforce === true,
        harFile: values.har,
        maxExchanges: wholeNumber(values['max-exchanges'], '--max-exchanges', { min: 1 }),
        maxBodyBytes: wholeNumber(values['max-body-bytes'], '--max-body-bytes', { min: 1, max: 64 * 1024 * 1024 }),
        upstreamTimeoutMs: wholeNumber(values['upstream-timeout-ms'], '--upstream-timeout-ms', {
          min: 1,
          max: 600_000,
        }),
        graceMs: wholeNumber(values['grace-ms'], '--grace-ms', { min: 0, max: 600_000 }),
        onLog: values.quiet ? undefined : (line) => void io.stderr.write(scrub(`proxy: ${line}\n`)),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      if (error instanceof TypeError) throw usage(error.message);
      if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EISDIR' || code === 'ENOENT')
        throw usage(`cannot start: ${code}`);
      throw error;
    }
    io.stdout.write(
      [
        `Proxy: ${proxy.url}`,
        `Gateway: ${values['gateway-upstream']}`,
        `Router: ${values['router-upstream']}`,
        ...(values['webhook-upstream']
          ? [
              `Webhook: ${values['webhook-path'] ?? new URL(values['webhook-upstream']).pathname} -> ${values['webhook-upstream']}`,
            ]
          : []),
        `Mode: ${values.enforce ? 'enforce (requests that break the contract are answered 422)' : 'report'}; signatures: ${key ? 'checked with the merchant key' : 'not checked (no key)'}`,
        '',
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
    await untilStopped(proxy.finished);
    const inFlight = proxy.inFlight();
    const stopped = proxy.stop();
    // A second Ctrl-C or SIGTERM ends the grace at once; the report is still written.
    void untilStopped(stopped).then(() => proxy.endGrace());
    if (inFlight > 0)
      io.stderr.write(
        `proxy: stopping; waiting for ${inFlight} exchange(s) in flight (Ctrl-C again to cut them off)\n`,
      );
    await stopped;
    const report = scrubReport(proxy.report(), secrets);
    await writeReport(report, format, values.output, io);
    return report.counts.invalid > 0 ? 1 : 0;
  },
};
