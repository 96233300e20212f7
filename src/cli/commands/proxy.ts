// `gateway-contract proxy`: the validating proxy in front of the service's two hosts (and the
// merchant's webhook), reporting every exchange when it stops. The proxy is loaded only when the
// command runs.
import { parseArgs } from 'node:util';
import { DEFAULT_MAX_BODY_BYTES } from '../../http/limits.js';
import { REPORT_FORMATS } from '../../report/format.js';
import { type Command, usageError as usage, wholeNumber } from '../options.js';
import { reportFormat, writeReport } from '../output.js';
import { untilStopped } from '../signals.js';

export const proxyCommand: Command = {
  usage:
    'gateway-contract proxy --gateway-upstream <url> --router-upstream <url> [--host 127.0.0.1] [--port 4030] [--enforce] [--har <file>] [--output <file>] [--format <format>] [...]',
  help: [
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
    '',
    'Options (environment variables in brackets):',
    '  --gateway-upstream <url>  the gateway, {base_url}',
    '  --router-upstream <url>   the order router, {router_url}',
    "  --webhook-upstream <url>  the merchant's webhook address ({merchant_response_url}) notifications go on to",
    '  --webhook-path <path>     where the proxy receives notifications (default: the path of --webhook-upstream)',
    '  --host <address>          address to bind (default 127.0.0.1)',
    '  --port <n>                port; 0 picks a free one (default 4030)',
    '  --key <key>               the 16-character merchant key [MERCHANT_KEY]; prefer the environment variable.',
    '                            Never printed.',
    '  --enforce                 answer a request that breaks the contract with 422 instead of forwarding it',
    '  --har <file>              record every exchange as HAR 1.2, every sensitive value replaced by a marker',
    `  --format <format>         ${REPORT_FORMATS.join(', ')} (default: text on a terminal, json otherwise)`,
    '  --output <file>           write the report to <file>; standard output gets the summary',
    '  --max-exchanges <n>       stop after n exchanges',
    `  --max-body-bytes <n>      the largest request body (default ${DEFAULT_MAX_BODY_BYTES})`,
    '  --upstream-timeout-ms <n> how long the upstream may take to answer (default 30000)',
    '  --grace-ms <n>            on stopping, how long exchanges in flight may take to end (default 5000)',
    '  --quiet                   no line per exchange on standard error',
    '  -h, --help                show this help',
  ].join('\n'),
  async run(args, io) {
    const { values } = parseArgs({
      args,
      strict: true,
      options: {
        'gateway-upstream': { type: 'string' },
        'router-upstream': { type: 'string' },
        'webhook-upstream': { type: 'string' },
        'webhook-path': { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        key: { type: 'string' },
        enforce: { type: 'boolean' },
        har: { type: 'string' },
        format: { type: 'string' },
        output: { type: 'string' },
        'max-exchanges': { type: 'string' },
        'max-body-bytes': { type: 'string' },
        'upstream-timeout-ms': { type: 'string' },
        'grace-ms': { type: 'string' },
        quiet: { type: 'boolean' },
      },
    });
    if (!values['gateway-upstream'] || !values['router-upstream']) throw usage('--gateway-upstream and --router-upstream are required');
    if (values['webhook-path'] !== undefined && values['webhook-upstream'] === undefined) throw usage('--webhook-path goes with --webhook-upstream');
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
        upstreamTimeoutMs: wholeNumber(values['upstream-timeout-ms'], '--upstream-timeout-ms', { min: 1, max: 600_000 }),
        graceMs: wholeNumber(values['grace-ms'], '--grace-ms', { min: 0, max: 600_000 }),
        onLog: values.quiet ? undefined : (line) => void io.stderr.write(scrub(`proxy: ${line}\n`)),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      if (error instanceof TypeError) throw usage(error.message);
      if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EISDIR' || code === 'ENOENT') throw usage(`cannot start: ${code}`);
      throw error;
    }
    io.stdout.write(
      [
        `Proxy: ${proxy.url}`,
        `Gateway: ${values['gateway-upstream']}`,
        `Router: ${values['router-upstream']}`,
        ...(values['webhook-upstream']
          ? [`Webhook: ${values['webhook-path'] ?? new URL(values['webhook-upstream']).pathname} -> ${values['webhook-upstream']}`]
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
    if (inFlight > 0) io.stderr.write(`proxy: stopping; waiting for ${inFlight} exchange(s) in flight (Ctrl-C again to cut them off)\n`);
    await stopped;
    const report = scrubReport(proxy.report(), secrets);
    await writeReport(report, format, values.output, io);
    return report.counts.invalid > 0 ? 1 : 0;
  },
};
