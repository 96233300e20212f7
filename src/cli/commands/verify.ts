// `gateway-contract verify`: proves that a running service keeps the contract. It reads the command
// line, loads the fixtures (a module, or the sandbox's control API), runs verify() and reports; the
// work is src/verify/'s.
import { parseArgs } from 'node:util';
import { REPORT_FORMATS } from '../../report/format.js';
import { type FixturesContext, fixturesProblem, type VerifyFixtures } from '../../verify/fixtures.js';
import { PHASES } from '../../verify/phases/index.js';
import { verifyReport, writeFindingsHar } from '../../verify/report.js';
import { VERIFY_DEFAULTS, verify } from '../../verify/run.js';
import { sandboxFixtures, sandboxMerchant } from '../../verify/sandboxFixtures.js';
import { type Command, usageError, wholeNumber } from '../options.js';
import { reportFormat, writeReport } from '../output.js';
import { importUserModule } from '../userModule.js';

const URL_FORM = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;

function urlOption(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (!URL_FORM.test(value) || !URL.canParse(value)) throw usageError(`${flag} takes an http(s) URL, e.g. http://127.0.0.1:4020`);
  return value.replace(/\/+$/, '');
}

/** A fixtures module's default export, called with the target, checked. */
async function loadFixtures(file: string, context: FixturesContext): Promise<VerifyFixtures> {
  let loaded: { default?: unknown };
  try {
    loaded = await importUserModule(file);
  } catch (error) {
    throw usageError(`cannot load the fixtures module "${file.slice(0, 200)}": ${(error as Error | null)?.message?.split('\n')[0]?.slice(0, 200) ?? 'error'}`);
  }
  const made = typeof loaded.default === 'function' ? await loaded.default(context) : loaded.default;
  const problem = fixturesProblem(made);
  if (problem !== undefined) throw usageError(problem);
  return made as VerifyFixtures;
}

export const verifyCommand: Command = {
  usage: [
    'gateway-contract verify --sandbox <url> [options]',
    '       gateway-contract verify --gateway-url <url> --router-url <url> --mid <mid> --fixtures <module> [options]',
  ].join('\n'),
  help: [
    'Proves that a running implementation of the contract keeps it: every answer (HTTP status, schema with its',
    'conditional rules, result code and status, head signature, txnInfo.checksumHash, what it echoes), requests',
    "generated from the contract's rules (each broken rule refused with a code of the table, valid requests and",
    'boundary values never refused), state across calls (an order paid once, not modified once payment started,',
    'duplicate blocks refused, amounts conserved, subscriptions listed exactly) and token notifications (signed,',
    'well formed, only the moves of the state table). A finding is shrunk to the shortest sequence that shows it.',
    '',
    'The merchant key comes from MERCHANT_KEY (or --key); it is never printed.',
    '',
    'Target:',
    "  --sandbox <url>        the package's sandbox: its control API provides the fixtures, and it is both hosts",
    '  --gateway-url <url>    {base_url}: tokenize, pre-auth, list subscriptions',
    '  --router-url <url>     {router_url}: pay, modify order, create subscription',
    "  --mid <mid>            the merchant id (with --sandbox: the sandbox's first)",
    "  --client-id <id>       the clientId of the key (with --sandbox: the sandbox's; else C11)",
    '  --fixtures <module>    what the contract does not describe (orders, the card key, test instruments,',
    '                         notifications): a module whose default export is the fixtures (docs/verify.md)',
    '  --key <key>            the merchant key, when MERCHANT_KEY is not set (visible to other users in ps)',
    '',
    'Run:',
    '  --seed <n>             makes a run reproducible (default: random, and reported)',
    '  --runs <n>             trials per check (default 20)',
    `  --max-requests <n>     requests of the contract sent at most (default ${VERIFY_DEFAULTS.maxRequests})`,
    `  --time-limit <s>       nothing is sent after this many seconds (default ${VERIFY_DEFAULTS.timeLimitMs / 1000})`,
    `  --timeout-ms <n>       the longest wait for one answer (default ${VERIFY_DEFAULTS.timeoutMs})`,
    `  --phase <name>         only this phase, repeatable: ${PHASES.map((p) => p.name).join(', ') || '(none)'}`,
    '  --replay <value>       rerun exactly the trial of a finding (with its --seed), as the report prints it',
    '',
    'Report:',
    `  --format <format>      ${REPORT_FORMATS.join(', ')} (default: text on a terminal, else json); one case per check,`,
    '                         with coverage of operations, result codes and state changes',
    '  --output <file>        write the report to <file>; standard output gets the summary',
    "  --har <file>           write the findings' exchanges as HAR 1.2 (masked; `validate --har` replays it)",
    '',
    'Exit status: 0 nothing found; 1 a rule of the contract broken (or no answer); 2 usage error.',
    '  -h, --help             show this help',
  ].join('\n'),
  async run(args, io) {
    const { values } = parseArgs({
      args,
      strict: true,
      options: {
        sandbox: { type: 'string' },
        'gateway-url': { type: 'string' },
        'router-url': { type: 'string' },
        mid: { type: 'string' },
        'client-id': { type: 'string' },
        fixtures: { type: 'string' },
        key: { type: 'string' },
        seed: { type: 'string' },
        runs: { type: 'string' },
        'max-requests': { type: 'string' },
        'time-limit': { type: 'string' },
        'timeout-ms': { type: 'string' },
        phase: { type: 'string', multiple: true },
        replay: { type: 'string' },
        format: { type: 'string' },
        output: { type: 'string' },
        har: { type: 'string' },
      },
    });
    const sandbox = urlOption(values.sandbox, '--sandbox');
    const gatewayUrl = urlOption(values['gateway-url'], '--gateway-url') ?? sandbox;
    const routerUrl = urlOption(values['router-url'], '--router-url') ?? sandbox;
    if (gatewayUrl === undefined || routerUrl === undefined) throw usageError('give --gateway-url and --router-url, or --sandbox <url>');
    if (sandbox === undefined && values.fixtures === undefined)
      throw usageError('give --fixtures <module> (orders, the card key, test instruments: docs/verify.md), or --sandbox <url>');
    if (sandbox !== undefined && values.fixtures !== undefined) throw usageError('--sandbox provides the fixtures: give --sandbox or --fixtures, not both');
    const key = values.key ?? process.env.MERCHANT_KEY;
    if (!key) throw usageError('the merchant key is needed: set MERCHANT_KEY (or give --key)');
    const seed = wholeNumber(values.seed, '--seed', { max: 2 ** 31 - 1 });
    const runs = wholeNumber(values.runs, '--runs', { min: 1, max: 10_000 });
    const maxRequests = wholeNumber(values['max-requests'], '--max-requests', { min: 1, max: 10_000_000 });
    const timeLimit = wholeNumber(values['time-limit'], '--time-limit', { min: 1, max: 86_400 });
    const timeoutMs = wholeNumber(values['timeout-ms'], '--timeout-ms', { min: 1, max: 600_000 });
    const known = PHASES.map((p) => p.name);
    for (const phase of values.phase ?? []) if (!known.includes(phase)) throw usageError(`--phase takes one of ${known.join(', ')}`);
    if (values.replay !== undefined && !/^[a-z][A-Za-z0-9.-]{0,63}:[0-9]+(:[0-9]+)*$/.test(values.replay))
      throw usageError('--replay takes the value a finding printed: <check>:<path>');
    if (values.replay !== undefined && seed === undefined) throw usageError('--replay goes with the --seed of the run that printed it');
    const format = reportFormat(values.format, io, values.output);

    let mid = values.mid;
    let clientId = values['client-id'];
    let fixtures: VerifyFixtures;
    if (sandbox !== undefined) {
      try {
        const merchant = await sandboxMerchant(sandbox);
        mid ??= merchant.mids[0];
        clientId ??= merchant.clientId;
        fixtures = await sandboxFixtures(sandbox);
      } catch {
        throw usageError(`no sandbox answers at ${sandbox}/sandbox (start one with: npx gateway-contract sandbox)`);
      }
    } else {
      if (mid === undefined) throw usageError('give --mid, the merchant id');
      fixtures = await loadFixtures(values.fixtures as string, { gatewayUrl, routerUrl, mid });
    }
    if (mid === undefined) throw usageError('give --mid, the merchant id');

    const result = await verify({
      gatewayUrl,
      routerUrl,
      key,
      mid,
      clientId,
      fixtures,
      seed,
      runs,
      maxRequests,
      timeLimitMs: timeLimit === undefined ? undefined : timeLimit * 1000,
      timeoutMs,
      replay: values.replay,
      phases: values.phase,
    });
    // The command a person reruns: the target's options as given, never the key.
    const base =
      sandbox !== undefined
        ? [`--sandbox ${sandbox}`]
        : [`--gateway-url ${gatewayUrl}`, `--router-url ${routerUrl}`, `--mid ${mid}`, `--fixtures ${values.fixtures}`];
    if (values.har !== undefined) {
      try {
        writeFindingsHar(values.har, result, key);
      } catch (error) {
        throw usageError(`cannot write "${values.har.slice(0, 200)}": ${(error as NodeJS.ErrnoException | null)?.code ?? 'write error'}`);
      }
    }
    const report = verifyReport(result, base);
    await writeReport(report, format, values.output, io);
    return result.findings.length > 0 ? 1 : 0;
  },
};
