// `gateway-contract send-webhook`: posts one signed token status notification, built from the
// contract's own named example for the status, to a merchant's address and judges the reply; with
// --suite, runs every conformance case (runWebhookSuite) and reports them like `validate` does.
import { parseArgs } from 'node:util';
import { REPORT_FORMATS } from '../../report/format.js';
import type { Report } from '../../report/model.js';
import { createChecksumSigner, type Signer } from '../../signing/checksum.js';
import { GatewayError, GatewayNonJsonError, RequestValidationError } from '../../transport/errors.js';
import type { Schemas } from '../../types.js';
import { notificationBody, TOKEN_STATUSES } from '../../webhook/examples.js';
import { type SendTokenNotificationResult, sendTokenNotification } from '../../webhook/send.js';
import { runWebhookSuite, type WebhookSuiteResult } from '../../webhook/suite.js';
import { type Command, usageError as usage } from '../options.js';
import { type OptionTable, parserOptions } from '../optionTable.js';
import { reportFormat, writeReport } from '../output.js';

/** Text from the merchant's reply, made safe for one terminal line. */
const shown = (value: unknown) => JSON.stringify(String(value ?? '').slice(0, 200));

/** How long a reply may take unless --timeout-ms says otherwise. */
const DEFAULT_TIMEOUT_MS = 30_000;

const OPTIONS = [
  { name: 'url', type: 'string', value: '<url>', help: "the merchant's webhook address ({merchant_response_url})" },
  { name: 'status', type: 'string', value: '<status>', help: `tokenStatus to notify: ${TOKEN_STATUSES.join(', ')}` },
  {
    name: 'key',
    type: 'string',
    value: '<key>',
    help: 'the 16-character merchant key\nPrefer the environment variable: a command-line argument is visible to other users. Never printed.',
    env: 'MERCHANT_KEY',
  },
  { name: 'mid', type: 'string', value: '<mid>', help: 'body.mid', default: "the example's MERCHANT0001" },
  {
    name: 'token-index',
    type: 'string',
    value: '<id>',
    help: 'body.tokenInfo.tokenIndexNumber',
    default: "the example's",
  },
  { name: 'request-id', type: 'string', value: '<id>', help: 'head.requestId', default: 'a random UUID' },
  { name: 'client-id', type: 'string', value: '<id>', help: 'head.clientId, when the merchant has several keys' },
  {
    name: 'timeout-ms',
    type: 'string',
    value: '<n>',
    help: 'how long to wait for the reply',
    default: DEFAULT_TIMEOUT_MS,
  },
  { name: 'suite', type: 'boolean', help: 'run every conformance case instead of sending one notification' },
  {
    name: 'format',
    type: 'string',
    value: '<format>',
    help: `with --suite: ${REPORT_FORMATS.join(', ')}`,
    default: 'text on a terminal, json otherwise',
  },
  {
    name: 'output',
    type: 'string',
    value: '<file>',
    help: 'with --suite: write the report to <file>; standard output gets the summary',
  },
] as const satisfies OptionTable;

export const sendWebhookCommand: Command = {
  usage: [
    'gateway-contract send-webhook --url <merchant url> --status <INIT|SUSPENDED|ACTIVE|DEAD|FAILED> [--key <merchant key>] [--mid <mid>] [--token-index <tokenIndexNumber>] [...]',
    '       gateway-contract send-webhook --url <merchant url> --suite [--mid <mid>] [--format junit] [--output <file>] [...]',
  ].join('\n'),
  about: [
    "Builds the token status notification of section 4.1 from the contract's example for the status,",
    "signs its body with the merchant key (CHECKSUM) and posts it to the merchant's address, as the",
    "service does. Then checks the merchant's reply against the contract (head, body.resultInfo with",
    'a code of section 7.1) and prints the verdict.',
    '',
    'Exit status: 0 the reply is valid and accepts the notification (00); 1 the reply is invalid (one',
    'JSON object per problem on standard output) or carries another code; 2 usage error, or the address',
    'could not be reached or did not answer in time.',
    '',
    'With --suite: a conformance run of the receiver. Sends a valid notification per token status, then',
    'every notification the receiver must refuse (a bad signature, another or no signatureType, no',
    'signature, no head, a mandatory field missing, a malformed tokenIndexNumber, another mid, a stale',
    'requestTimestamp, the same notification twice, the same signature with a new requestId, a body that',
    'is not JSON) and checks each reply code against the table of section 7.1 and the decisions D-34 to',
    'D-37 and D-51. --mid names the merchant id the receiver serves. Exit status 0 every case passed; 1',
    'any failed; 2 usage error, or the address could not be reached.',
  ].join('\n'),
  options: OPTIONS,
  async run(args, io) {
    const { values } = parseArgs({ args, strict: true, options: parserOptions(OPTIONS) });
    if (!values.url) throw usage("--url is required: the merchant's webhook address");
    if (!/^https?:\/\/[^\s]+$/i.test(values.url) || !URL.canParse(values.url))
      throw usage('--url must be an http(s) address');
    if (values.suite && (values.status !== undefined || values['request-id'] !== undefined))
      throw usage('--suite sends its own notifications: --status and --request-id are for one notification');
    if (!values.suite && (values.format !== undefined || values.output !== undefined))
      throw usage('--format and --output go with --suite');
    const status = values.status?.toUpperCase() as Schemas['TokenStatus'] | undefined;
    if (!values.suite && (!status || !TOKEN_STATUSES.includes(status)))
      throw usage(`--status must be one of ${TOKEN_STATUSES.join(', ')}`);
    const format = values.suite ? reportFormat(values.format, io, values.output) : undefined;
    const key = values.key ?? process.env.MERCHANT_KEY;
    if (!key) throw usage('a merchant key is needed: set MERCHANT_KEY (or pass --key)');
    let signer: Signer;
    try {
      signer = createChecksumSigner(key);
    } catch (error) {
      throw usage((error as Error).message);
    }
    const timeoutMs = values['timeout-ms'] === undefined ? DEFAULT_TIMEOUT_MS : Number(values['timeout-ms']);
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0)
      throw usage('--timeout-ms takes a positive whole number of milliseconds');

    if (values.suite && format) {
      let run: WebhookSuiteResult;
      try {
        run = await runWebhookSuite({
          url: values.url,
          signer,
          mid: values.mid,
          tokenIndexNumber: values['token-index'],
          clientId: values['client-id'],
          timeoutMs,
        });
      } catch (error) {
        if (error instanceof GatewayError)
          throw usage(`${error.message.replace(/^notifyTokenStatus: /, '').replace(/\.$/, '')}; address ${values.url}`);
        throw error;
      }
      await writeReport(suiteReport(run), format, values.output, io);
      return run.failed > 0 ? 1 : 0;
    }
    const body = notificationBody(status as Schemas['TokenStatus']);
    if (values.mid !== undefined) body.mid = values.mid;
    if (values['token-index'] !== undefined) body.tokenInfo.tokenIndexNumber = values['token-index'];

    let result: SendTokenNotificationResult;
    try {
      result = await sendTokenNotification({
        url: values.url,
        body,
        signer,
        requestId: values['request-id'],
        clientId: values['client-id'],
        timeoutMs,
      });
    } catch (error) {
      if (error instanceof RequestValidationError) {
        const first = error.issues[0];
        throw usage(
          `the notification built from these options breaks the contract: ${first ? `${first.pointer} ${first.message}` : 'see the contract'}`,
        );
      }
      if (error instanceof GatewayNonJsonError) {
        io.stdout.write(`invalid reply: ${error.message.replace(/^notifyTokenStatus: /, '')}\n`);
        return 1;
      }
      if (error instanceof GatewayError)
        throw usage(`${error.message.replace(/^notifyTokenStatus: /, '').replace(/\.$/, '')}; address ${values.url}`);
      throw error;
    }

    io.stdout.write(
      `sent: tokenStatus ${status} for mid ${body.mid}, requestId ${result.requestId}, to ${values.url}\n`,
    );
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

/** The conformance run as a report: one case per notification sent, its problems those of the reply. */
function suiteReport(run: WebhookSuiteResult): Report {
  return {
    title: 'gateway-contract send-webhook --suite',
    noun: 'case',
    verdicts: { ok: 'passed', failed: 'failed' },
    listAll: true,
    cases: run.cases.map((c, index) => ({
      index,
      name: c.name,
      operationId: 'notifyTokenStatus',
      direction: 'reply',
      valid: c.passed,
      errors: c.issues,
      errorCount: c.issues.length,
    })),
    skipped: [],
    counts: { cases: run.cases.length, valid: run.passed, invalid: run.failed, skipped: 0 },
    truncated: false,
  };
}
