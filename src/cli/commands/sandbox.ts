// `gateway-contract sandbox`: the job of `npm run sandbox`.

import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_MERCHANT_KEY,
  DEFAULT_MID,
  DEFAULT_PORT,
  DEFAULT_RETENTION,
  DEFAULT_TOKEN_ACTIVATION_DELAY_MS,
  DEFAULT_WEBHOOK_CONCURRENCY,
  DEFAULT_WEBHOOK_RETRY,
  MAX_WEBHOOK_CONCURRENCY,
} from '../../sandbox/config.js';
import { startSandbox } from '../../sandbox/startSandbox.js';
import { guidePath } from '../guides.js';
import { listenAddress } from '../listen.js';
import { type Command, UsageError, usageError as usage, wholeNumber } from '../options.js';
import { type OptionTable, parserOptions } from '../optionTable.js';
import { untilStopped } from '../signals.js';

/** The default key, said in full (a published test key, never a secret) with the guide that documents it. */
const DEFAULT_KEY_TEXT = `the test key ${DEFAULT_MERCHANT_KEY} (documented in ${guidePath('sandbox.md')})`;

const OPTIONS = [
  {
    name: 'host',
    type: 'string',
    value: '<address>',
    help: 'address to bind',
    env: 'SANDBOX_HOST',
    default: '127.0.0.1',
  },
  {
    name: 'port',
    type: 'string',
    value: '<n>',
    help: 'port; 0 picks a free one',
    env: 'SANDBOX_PORT',
    default: DEFAULT_PORT,
  },
  {
    name: 'mid',
    type: 'string',
    multiple: true,
    value: '<mid>',
    help: 'a merchant id the sandbox serves; repeatable',
    env: 'SANDBOX_MID, comma-separated',
    default: DEFAULT_MID,
  },
  {
    name: 'merchant-key',
    type: 'string',
    value: '<key>',
    help: 'the merchant key, 16 bytes',
    env: 'SANDBOX_MERCHANT_KEY',
    default: DEFAULT_KEY_TEXT,
  },
  {
    name: 'client-id',
    type: 'string',
    value: '<id>',
    help: 'the clientId that selects the key',
    env: 'SANDBOX_CLIENT_ID',
    default: DEFAULT_CLIENT_ID,
  },
  {
    name: 'webhook-url',
    type: 'string',
    value: '<url>',
    help: "the merchant's {merchant_response_url} for token notifications",
    env: 'SANDBOX_WEBHOOK_URL',
  },
  {
    name: 'token-delay',
    type: 'string',
    value: '<ms>',
    help: 'how long INIT tokens wait before ACTIVE or FAILED, sandbox time',
    default: DEFAULT_TOKEN_ACTIVATION_DELAY_MS,
  },
  {
    name: 'webhook-retries',
    type: 'string',
    value: '<n>',
    help: 'attempts after the first for a notification not answered 00, 0 to 10; waits of 1, 2, 4... minutes of sandbox time',
    default: DEFAULT_WEBHOOK_RETRY.retries,
  },
  {
    name: 'webhook-concurrency',
    type: 'string',
    value: '<n>',
    help: `notifications sent at once, 1 to ${MAX_WEBHOOK_CONCURRENCY}; the others wait their turn`,
    default: DEFAULT_WEBHOOK_CONCURRENCY,
  },
  {
    name: 'retention',
    type: 'string',
    value: '<n>',
    help: 'records kept of each kind; past it the oldest are forgotten, those in use (payments in process, INIT tokens) up to as many more',
    default: DEFAULT_RETENTION,
  },
  {
    name: 'instruments',
    type: 'string',
    value: '<file>',
    help: 'a seed of test instruments replacing the built-in one (JSON of the form of src/sandbox/instrumentSeed.ts)',
  },
  {
    name: 'card-key',
    type: 'string',
    value: '<file>',
    help: 'the RSA private key (PEM) for encryptedCardData',
    default: 'generated at start',
  },
  {
    name: 'check-answers',
    type: 'boolean',
    help: 'validate every answer against the contract before sending it (debug)',
  },
  { name: 'quiet', type: 'boolean', help: 'do not log requests' },
] as const satisfies OptionTable;

export const sandboxCommand: Command = {
  usage: `gateway-contract sandbox [--port ${DEFAULT_PORT}] [--mid ${DEFAULT_MID}]... [--webhook-url <url>] [options]`,
  about: [
    "Starts the sandbox: the six operations at the description's paths (gateway and router paths on one",
    "port), with state across calls, the service's own envelopes and result codes, signed answers and",
    'token status webhooks to --webhook-url. Control calls live under /sandbox/ (GET /sandbox lists them).',
    'Ctrl-C stops it.',
  ].join('\n'),
  options: OPTIONS,
  async run(args, io) {
    const { values } = parseArgs({ args, strict: true, options: parserOptions(OPTIONS) });
    const env = process.env;
    const mids =
      values.mid ??
      (env.SANDBOX_MID
        ? env.SANDBOX_MID.split(',')
            .map((m) => m.trim())
            .filter(Boolean)
        : undefined);
    const read = async (path: string, what: string) => {
      try {
        return await readFile(path, 'utf8');
      } catch (error) {
        throw usage(
          `cannot read ${what} "${path.slice(0, 200)}": ${(error as NodeJS.ErrnoException | null)?.code ?? 'read error'}`,
        );
      }
    };
    let instruments: object | undefined;
    if (values.instruments) {
      try {
        instruments = JSON.parse(await read(values.instruments, 'the instruments file')) as object;
      } catch (error) {
        throw error instanceof UsageError ? error : usage('the instruments file is not JSON');
      }
    }
    const cardPrivateKeyPem = values['card-key'] ? await read(values['card-key'], 'the card key') : undefined;
    let sandbox: Awaited<ReturnType<typeof startSandbox>>;
    try {
      sandbox = await startSandbox({
        ...listenAddress(values, env, { prefix: 'SANDBOX', defaultPort: DEFAULT_PORT }),
        mids,
        merchantKey: values['merchant-key'] ?? env.SANDBOX_MERCHANT_KEY,
        clientId: values['client-id'] ?? env.SANDBOX_CLIENT_ID,
        webhookUrl: values['webhook-url'] ?? env.SANDBOX_WEBHOOK_URL,
        tokenActivationDelayMs: wholeNumber(values['token-delay'], 'token delay', { max: 2 ** 31 - 1 }),
        retention: wholeNumber(values.retention, 'retention', { min: 1 }),
        webhookRetry: { retries: wholeNumber(values['webhook-retries'], 'webhook retries', { max: 10 }) },
        webhookConcurrency: wholeNumber(values['webhook-concurrency'], 'webhook concurrency', {
          min: 1,
          max: MAX_WEBHOOK_CONCURRENCY,
        }),
        instruments,
        cardPrivateKeyPem,
        checkAnswers: values['check-answers'] === true,
        onLog: values.quiet ? undefined : (line) => void io.stderr.write(`sandbox: ${line}\n`),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      if (error instanceof TypeError || code === 'EADDRINUSE' || code === 'EACCES')
        throw usage(code ? `cannot listen: ${code}` : (error as Error).message);
      throw error;
    }
    const key = values['merchant-key'] ?? env.SANDBOX_MERCHANT_KEY;
    io.stdout.write(
      [
        `Sandbox: ${sandbox.url}`,
        `Merchant: ${sandbox.mids.join(', ')} (clientId ${sandbox.clientId}; merchant key: ${key ? 'as configured' : DEFAULT_KEY_TEXT})`,
        `Webhook URL: ${values['webhook-url'] ?? env.SANDBOX_WEBHOOK_URL ?? 'none (token notifications are recorded as skipped)'}`,
        `Control API: ${sandbox.url}/sandbox`,
        '',
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
    await untilStopped();
    await sandbox.stop();
    io.stdout.write('Stopped.\n');
    return 0;
  },
};
