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
import { type OptionTable, parserOptions } from '../optionTable.js';
import { reportFormat, writeReport } from '../output.js';
import { importUserModule } from '../userModule.js';

const URL_FORM = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;

function urlOption(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (!URL_FORM.test(value) || !URL.canParse(value))
    throw usageError(`${flag} takes an http(s) URL, e.g. http://127.0.0.1:4020`);
  return value.replace(/\/+$/, '');
}

/** A fixtures module's default export, called with the target, checked. */
async function loadFixtures(file: string, context: FixturesContext): Promise<VerifyFixtures> {
  let loaded: { default?: unknown };
  try {
    loaded = await importUserModule(file);
  } catch (error) {
    throw usageError(
      `cannot load the fixtures module "${file.slice(0, 200)}": ${(error as Error | null)?.message?.split('\n')[0]?.slice(0, 200) ?? 'error'}`,
    );
  }
  const made = typeof loaded.default === 'function' ? await loaded.default(context) : loaded.default;
  const problem = fixturesProblem(made);
  if (problem !== undefined) throw usageError(problem);
  return made as VerifyFixtures;
}

const OPTIONS = [
  {
    heading: 'Target',
    name: 'sandbox',
    type: 'string',
    value: '<url>',
    help: "the package's sandbox: its control API provides the fixtures, and it is both hosts",
  },
  { name: 'gateway-url', type: 'string', value: '<url>', help: '{base_url}: tokenize, pre-auth, list subscriptions' },
  { name: 'router-url', type: 'string', value: '<url>', help: '{router_url}: pay, modify order, create subscription' },
  {
    name: 'mid',
    type: 'string',
    value: '<mid>',
    help: 'the merchant id',
    default: "with --sandbox, the sandbox's first",
  },
  {
    name: 'client-id',
    type: 'string',
    value: '<id>',
    help: 'the clientId of the key',
    default: "with --sandbox, the sandbox's; else C11",
  },
  {
    name: 'fixtures',
    type: 'string',
    value: '<module>',
    help: 'what the contract does not describe (orders, the card key, test instruments, notifications): a module whose default export is the fixtures (docs/verify.md)',
  },
  {
    name: 'key',
    type: 'string',
    value: '<key>',
    help: 'the merchant key\nPrefer the environment variable: a command-line argument is visible to other users (ps).',
    env: 'MERCHANT_KEY',
  },
  {
    heading: 'Run',
    name: 'seed',
    type: 'string',
    value: '<n>',
    help: 'makes a run reproducible',
    default: 'random, and reported',
  },
  { name: 'runs', type: 'string', value: '<n>', help: 'trials per check', default: VERIFY_DEFAULTS.runs },
  {
    name: 'max-requests',
    type: 'string',
    value: '<n>',
    help: 'requests of the contract sent at most',
    default: VERIFY_DEFAULTS.maxRequests,
  },
  {
    name: 'time-limit',
    type: 'string',
    value: '<s>',
    help: 'nothing is sent after this many seconds',
    default: VERIFY_DEFAULTS.timeLimitMs / 1000,
  },
  {
    name: 'timeout-ms',
    type: 'string',
    value: '<n>',
    help: 'the longest wait for one answer',
    default: VERIFY_DEFAULTS.timeoutMs,
  },
  {
    name: 'phase',
    type: 'string',
    multiple: true,
    value: '<name>',
    help: `only this phase, repeatable: ${PHASES.map((p) => p.name).join(', ') || '(none)'}`,
  },
  {
    name: 'replay',
    type: 'string',
    value: '<value>',
    help: 'rerun exactly the trial of a finding (with its --seed), as the report prints it',
  },
  {
    heading: 'Report',
    name: 'format',
    type: 'string',
    value: '<format>',
    help: `${REPORT_FORMATS.join(', ')}\none case per check, with coverage of operations, result codes and state changes`,
    default: 'text on a terminal, else json',
  },
  {
    name: 'output',
    type: 'string',
    value: '<file>',
    help: 'write the report to <file>; standard output gets the summary',
  },
  {
    name: 'har',
    type: 'string',
    value: '<file>',
    help: "write the findings' exchanges as HAR 1.2 (masked; `validate --har` replays it)",
  },
] as const satisfies OptionTable;

export const verifyCommand: Command = {
  usage: [
    'gateway-contract verify --sandbox <url> [options]',
    '       gateway-contract verify --gateway-url <url> --router-url <url> --mid <mid> --fixtures <module> [options]',
  ].join('\n'),
  about: [
    'Proves that a running implementation of the contract keeps it: every answer (HTTP status, schema with its',
    'conditional rules, result code and status, head signature, txnInfo.checksumHash, what it echoes), requests',
    "generated from the contract's rules (each broken rule refused with a code of the table, valid requests and",
    'boundary values never refused), state across calls (an order paid once, not modified once payment started,',
    'duplicate blocks refused, amounts conserved, subscriptions listed exactly) and token notifications (signed,',
    'well formed, only the moves of the state table). A finding is shrunk to the shortest sequence that shows it.',
    '',
    'The merchant key comes from MERCHANT_KEY (or --key); it is never printed.',
    '',
    'Exit status: 0 nothing found; 1 a rule of the contract broken (or no answer); 2 usage error.',
  ].join('\n'),
  options: OPTIONS,
  async run(args, io) {
    const { values } = parseArgs({ args, strict: true, options: parserOptions(OPTIONS) });
    const sandbox = urlOption(values.sandbox, '--sandbox');
    const gatewayUrl = urlOption(values['gateway-url'], '--gateway-url') ?? sandbox;
    const routerUrl = urlOption(values['router-url'], '--router-url') ?? sandbox;
    if (gatewayUrl === undefined || routerUrl === undefined)
      throw usageError('give --gateway-url and --router-url, or --sandbox <url>');
    if (sandbox === undefined && values.fixtures === undefined)
      throw usageError(
        'give --fixtures <module> (orders, the card key, test instruments: docs/verify.md), or --sandbox <url>',
      );
    if (sandbox !== undefined && values.fixtures !== undefined)
      throw usageError('--sandbox provides the fixtures: give --sandbox or --fixtures, not both');
    const key = values.key ?? process.env.MERCHANT_KEY;
    if (!key) throw usageError('the merchant key is needed: set MERCHANT_KEY (or give --key)');
    const seed = wholeNumber(values.seed, '--seed', { max: 2 ** 31 - 1 });
    const runs = wholeNumber(values.runs, '--runs', { min: 1, max: 10_000 });
    const maxRequests = wholeNumber(values['max-requests'], '--max-requests', { min: 1, max: 10_000_000 });
    const timeLimit = wholeNumber(values['time-limit'], '--time-limit', { min: 1, max: 86_400 });
    const timeoutMs = wholeNumber(values['timeout-ms'], '--timeout-ms', { min: 1, max: 600_000 });
    const known = PHASES.map((p) => p.name);
    for (const phase of values.phase ?? [])
      if (!known.includes(phase)) throw usageError(`--phase takes one of ${known.join(', ')}`);
    if (values.replay !== undefined && !/^[a-z][A-Za-z0-9.-]{0,63}:[0-9]+(:[0-9]+)*$/.test(values.replay))
      throw usageError('--replay takes the value a finding printed: <check>:<path>');
    if (values.replay !== undefined && seed === undefined)
      throw usageError('--replay goes with the --seed of the run that printed it');
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
        throw usageError(
          `cannot write "${values.har.slice(0, 200)}": ${(error as NodeJS.ErrnoException | null)?.code ?? 'write error'}`,
        );
      }
    }
    const report = verifyReport(result, base);
    await writeReport(report, format, values.output, io);
    return result.findings.length > 0 ? 1 : 0;
  },
};
