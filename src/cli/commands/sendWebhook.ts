// `gateway-contract send-webhook`: posts one signed token status notification, built from the
// contract's own named example for the status, to a merchant's address and judges the reply.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createChecksumSigner, type Signer } from '../../signing/checksum.js';
import { GatewayError, GatewayNonJsonError, RequestValidationError } from '../../transport/errors.js';
import type { Schemas } from '../../types.js';
import { type SendTokenNotificationResult, sendTokenNotification } from '../../webhook/send.js';
import { type Command, usageError as usage } from '../options.js';

const STATUSES = ['INIT', 'SUSPENDED', 'ACTIVE', 'DEAD', 'FAILED'];

/** The body of the contract's example notification for a status (TokenStatusActive, ...). */
function exampleBody(status: string): Schemas['TokenStatusNotificationBody'] {
  const doc = JSON.parse(readFileSync(new URL('../../../generated/openapi.json', import.meta.url), 'utf8')) as {
    components: { examples: Record<string, { value: { body: Schemas['TokenStatusNotificationBody'] } }> };
  };
  const name = `TokenStatus${status[0]}${status.slice(1).toLowerCase()}`;
  const example = doc.components.examples[name];
  if (!example) throw new Error(`the contract has no example ${name}`);
  return structuredClone(example.value.body);
}

/** Text from the merchant's reply, made safe for one terminal line. */
const shown = (value: unknown) => JSON.stringify(String(value ?? '').slice(0, 200));

export const sendWebhookCommand: Command = {
  usage:
    'gateway-contract send-webhook --url <merchant url> --status <INIT|SUSPENDED|ACTIVE|DEAD|FAILED> [--key <merchant key>] [--mid <mid>] [--token-index <tokenIndexNumber>] [...]',
  help: [
    "Builds the token status notification of section 4.1 from the contract's example for the status,",
    "signs its body with the merchant key (CHECKSUM) and posts it to the merchant's address, as the",
    "service does. Then checks the merchant's reply against the contract (head, body.resultInfo with",
    'a code of section 7.1) and prints the verdict.',
    '',
    'Exit status: 0 the reply is valid and accepts the notification (00); 1 the reply is invalid (one',
    'JSON object per problem on standard output) or carries another code; 2 usage error, or the address',
    'could not be reached or did not answer in time.',
    '',
    'Options (environment variables in brackets):',
    "  --url <url>               the merchant's webhook address ({merchant_response_url})",
    `  --status <status>         tokenStatus to notify: ${STATUSES.join(', ')}`,
    '  --key <key>               the 16-character merchant key [MERCHANT_KEY]; prefer the environment',
    '                            variable: a command-line argument is visible to other users. Never printed.',
    "  --mid <mid>               body.mid (default: the example's MERCHANT0001)",
    "  --token-index <id>        body.tokenInfo.tokenIndexNumber (default: the example's)",
    '  --request-id <id>         head.requestId (default: a random UUID)',
    '  --client-id <id>          head.clientId, when the merchant has several keys',
    '  --timeout-ms <n>          how long to wait for the reply (default 30000)',
    '  -h, --help                show this help',
  ].join('\n'),
  async run(args, io) {
    const { values } = parseArgs({
      args,
      strict: true,
      options: {
        url: { type: 'string' },
        status: { type: 'string' },
        key: { type: 'string' },
        mid: { type: 'string' },
        'token-index': { type: 'string' },
        'request-id': { type: 'string' },
        'client-id': { type: 'string' },
        'timeout-ms': { type: 'string' },
      },
    });
    if (!values.url) throw usage("--url is required: the merchant's webhook address");
    if (!/^https?:\/\/[^\s]+$/i.test(values.url) || !URL.canParse(values.url)) throw usage('--url must be an http(s) address');
    const status = values.status?.toUpperCase() as Schemas['TokenStatus'] | undefined;
    if (!status || !STATUSES.includes(status)) throw usage(`--status must be one of ${STATUSES.join(', ')}`);
    const key = values.key ?? process.env.MERCHANT_KEY;
    if (!key) throw usage('a merchant key is needed: set MERCHANT_KEY (or pass --key)');
    let signer: Signer;
    try {
      signer = createChecksumSigner(key);
    } catch (error) {
      throw usage((error as Error).message);
    }
    const timeoutMs = values['timeout-ms'] === undefined ? 30_000 : Number(values['timeout-ms']);
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) throw usage('--timeout-ms takes a positive whole number of milliseconds');

    const body = exampleBody(status);
    body.tokenInfo.tokenStatus = status;
    if (values.mid !== undefined) body.mid = values.mid;
    if (values['token-index'] !== undefined) body.tokenInfo.tokenIndexNumber = values['token-index'];

    let result: SendTokenNotificationResult;
    try {
      result = await sendTokenNotification({ url: values.url, body, signer, requestId: values['request-id'], clientId: values['client-id'], timeoutMs });
    } catch (error) {
      if (error instanceof RequestValidationError) {
        const first = error.issues[0];
        throw usage(`the notification built from these options breaks the contract: ${first ? `${first.pointer} ${first.message}` : 'see the contract'}`);
      }
      if (error instanceof GatewayNonJsonError) {
        io.stdout.write(`invalid reply: ${error.message.replace(/^notifyTokenStatus: /, '')}\n`);
        return 1;
      }
      if (error instanceof GatewayError) throw usage(`${error.message.replace(/^notifyTokenStatus: /, '').replace(/\.$/, '')}; address ${values.url}`);
      throw error;
    }

    io.stdout.write(`sent: tokenStatus ${status} for mid ${body.mid}, requestId ${result.requestId}, to ${values.url}\n`);
    const info = (result.reply as { body?: { resultInfo?: Record<string, unknown> } } | null)?.body?.resultInfo;
    const said = `HTTP ${result.httpStatus}, resultCode ${shown(result.code)}, resultStatus ${shown(info?.resultStatus)}, resultMsg ${shown(info?.resultMsg)}`;
    if (!result.valid) {
      for (const issue of result.issues) io.stdout.write(`${JSON.stringify(issue)}\n`);
      io.stdout.write(`invalid reply (${result.issues.length} problem(s)): ${said}\n`);
      return 1;
    }
    if (result.code !== '00') {
      io.stdout.write(`not accepted: ${said}\n`);
      return 1;
    }
    io.stdout.write(`accepted: ${said}\n`);
    return 0;
  },
};
