// `gateway-contract validate`: payloads against the contract, many in one run: files, directories
// and globs of one operation and direction, NDJSON records, or recorded traffic (HAR), reported in
// the formats CI systems read. The work is validateMany()'s; this file reads the command line.
import { parseArgs } from 'node:util';
import { operations } from '../../../generated/operations.js';
import { fileRecords, STDIN } from '../../inputs/files.js';
import { expandPaths } from '../../inputs/glob.js';
import { harFileRecords } from '../../inputs/harFile.js';
import { DEFAULT_WAIT_MS, grouped, MAX_DEPTH, MAX_MEMBERS, MAX_VALUES } from '../../inputs/limits.js';
import { ndjsonFileRecords } from '../../inputs/ndjsonFile.js';
import { REPORT_FORMATS } from '../../report/format.js';
import type { Report } from '../../report/model.js';
import { BATCH_DEFAULTS, caseName } from '../../validation/cases.js';
import { type CaseResult, type PayloadRecord, validateMany } from '../../validation/index.js';
import { type Command, pairs, queryPairs, usageError, wholeNumber } from '../options.js';
import { type OptionTable, parserOptions } from '../optionTable.js';
import { reportFormat, writeReport } from '../output.js';
import { progressReporter } from '../progress.js';
import { didYouMean } from '../suggest.js';

const OPERATION_IDS: readonly string[] = operations.map((o) => o.operationId);
/** Inputs larger than this are failed cases unless --max-bytes says otherwise (16 MiB). */
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

async function* chain(
  sources: Iterable<AsyncIterable<PayloadRecord> | Iterable<PayloadRecord>>,
): AsyncGenerator<PayloadRecord> {
  for (const source of sources) yield* source;
}

const OPTIONS = [
  {
    name: 'format',
    type: 'string',
    value: '<format>',
    help: [
      REPORT_FORMATS.join(', '),
      'text: a readable report; json: one JSON object per problem, with its case;',
      'junit: JUnit XML, a testsuite per operation and direction;',
      'sarif: SARIF 2.1.0; github: GitHub Actions annotations',
      '(::error file=...,line=...::), then the summary',
    ].join('\n'),
    default: 'text on a terminal, else json',
  },
  {
    name: 'output',
    type: 'string',
    value: '<file>',
    help: 'write the report to <file>; standard output gets the summary',
  },
  { name: 'ndjson', type: 'boolean', help: 'the inputs are NDJSON records, one per line (above)' },
  { name: 'har', type: 'boolean', help: 'the inputs are recorded traffic, HAR 1.2 (above)' },
  {
    name: 'query',
    type: 'string',
    multiple: true,
    value: 'name=value',
    help: 'a query parameter of every request (repeatable), e.g. --query mid=M1 --query orderId=O1; a name given twice is a query with it twice (repeatedParameter)',
  },
  {
    name: 'path',
    type: 'string',
    multiple: true,
    value: 'name=value',
    help: 'a path parameter of every request (repeatable), e.g. --path mid=M1',
  },
  {
    name: 'no-parameters',
    type: 'boolean',
    help: 'do not demand the required query and path parameters (payload-only samples)',
  },
  {
    name: 'webhook-path',
    type: 'string',
    value: '<path>',
    help: 'with --har: the path of your webhook address; entries posted there are notifications',
  },
  {
    name: 'max-bytes',
    type: 'string',
    value: '<n>',
    help: 'larger files (NDJSON: lines) are failed cases',
    default: `${DEFAULT_MAX_BYTES}, 16 MiB`,
  },
  {
    name: 'max-cases',
    type: 'string',
    value: '<n>',
    help: 'read at most this many payloads',
    default: BATCH_DEFAULTS.maxCases,
  },
  {
    name: 'timeout-ms',
    type: 'string',
    value: '<n>',
    help: 'the longest wait for the next bytes of standard input, a pipe or a FIFO; past it the input is a failed case',
    default: DEFAULT_WAIT_MS,
  },
] as const satisfies OptionTable;

export const validateCommand: Command = {
  usage: [
    'gateway-contract validate <operationId> <request|response> <file|dir|glob|->... [--query name=value]... [--path name=value]...',
    '       gateway-contract validate --ndjson <file|->...',
    '       gateway-contract validate --har <file>... [--webhook-path <path>]',
  ].join('\n'),
  about: [
    'Validates JSON envelopes {head, body} against the contract, with the named checks, in one run:',
    '  <operationId> <request|response> <file|dir|glob|->...',
    '      payloads of one operation and direction: files, the .json files of a directory (at any',
    '      depth), glob patterns (*, **, ?; quote them), standard input (-)',
    '  Any file may be a pipe or a FIFO, such as <(cmd): it is read as it comes, within --max-bytes and --timeout-ms.',
    '  --ndjson <file|->...   one record per line: {"operationId", "direction", "payload", "query"?, "path"?, "name"?}',
    '  --har <file>...        recorded traffic (HAR 1.2): each entry posted to a path of the contract,',
    '      on any host and under any base path, gives its request (query and path parameters from the',
    '      URL) and its response when it has a JSON body; the webhook is recognised by its envelope, or',
    '      by --webhook-path. Other entries are listed as skipped.',
    '',
    'A request without its required query or path parameters is invalid (requiredParameters); give them',
    'with --query and --path, in the records, or in the recorded URL, or judge the payloads alone with',
    '--no-parameters. A file or line that cannot be read or parsed is a failed case with its reason, and so',
    `is a JSON text (a file, an NDJSON line, a HAR file or a recorded body) nested deeper than ${grouped(MAX_DEPTH)} levels,`,
    `holding more than ${grouped(MAX_VALUES)} values or an object of more than ${grouped(MAX_MEMBERS)} members: it is refused`,
    'before it is parsed (maxDepth, maxValues, maxMembers). An NDJSON input is read up to a line longer than',
    '--max-bytes, or more than --max-bytes of blank lines in a row.',
    '',
    'Exit status: 0 every payload is valid; 1 any is invalid or unreadable; 2 usage error (unknown',
    'operationId, a directory or pattern that names no file, an input that holds no payload at all (an',
    'empty NDJSON file, a HAR file with no call of the contract), more than --max-cases records), with a',
    'one-line message on standard error.',
    '',
    `operationIds: ${OPERATION_IDS.join(', ')} (the webhook is notifyTokenStatus).`,
    '',
    'Input must be UTF-8 JSON with no key repeated within an object. No report ever holds the value of a field.',
  ].join('\n'),
  options: OPTIONS,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: parserOptions(OPTIONS),
    });
    const maxBytes = wholeNumber(values['max-bytes'], '--max-bytes', { min: 1 }) ?? DEFAULT_MAX_BYTES;
    const maxCases =
      wholeNumber(values['max-cases'], '--max-cases', { min: 1, max: 10_000_000 }) ?? BATCH_DEFAULTS.maxCases;
    const waitMs = wholeNumber(values['timeout-ms'], '--timeout-ms', { min: 1, max: 2_147_483_647 }) ?? DEFAULT_WAIT_MS;
    const format = reportFormat(values.format, io, values.output);
    if (values.ndjson && values.har) throw usageError('--ndjson and --har read different inputs: give one of them');
    if ((values.ndjson || values.har) && (values.query || values.path))
      throw usageError('--query and --path are for payload files: NDJSON records and recorded URLs carry their own');
    if (values['webhook-path'] !== undefined && !values.har) throw usageError('--webhook-path goes with --har');
    if (positionals.filter((p) => p === STDIN).length > 1) throw usageError('standard input (-) can be read once');

    let records: AsyncIterable<PayloadRecord>;
    let truncated = false;
    if (values.har) {
      if (!positionals.length) throw usageError('--har needs at least one HAR file');
      if (positionals.includes(STDIN)) throw usageError('--har reads files, not standard input');
      const webhookPath = values['webhook-path'];
      if (webhookPath !== undefined && !/^\/?[^\s?#]*[^\s?#/][^\s?#]*$/.test(webhookPath))
        throw usageError('--webhook-path takes a URL path, e.g. /webhooks/token');
      records = chain(positionals.map((file) => harFileRecords(file, { maxBytes, webhookPath, waitMs })));
    } else if (values.ndjson) {
      if (!positionals.length) throw usageError('--ndjson needs a file, or - for standard input');
      records = chain(
        positionals.map((file) => ndjsonFileRecords(file, { maxLineBytes: maxBytes, stdin: io.stdin, waitMs })),
      );
    } else {
      if (positionals.length < 3)
        throw usageError(
          `expected <operationId> <request|response> <file|dir|glob|->..., got ${positionals.length} argument(s)`,
        );
      const [operationId, direction, ...sources] = positionals as [string, string, ...string[]];
      if (!OPERATION_IDS.includes(operationId))
        throw usageError(
          `unknown operationId "${operationId.slice(0, 64)}"${didYouMean(operationId, OPERATION_IDS)}; known: ${OPERATION_IDS.join(', ')}`,
        );
      if (direction !== 'request' && direction !== 'response')
        throw usageError(
          `the direction must be "request" or "response"${didYouMean(direction, ['request', 'response'])}`,
        );
      const expanded = expandPaths(sources, { maxFiles: maxCases });
      if (expanded.empty.length) throw usageError(`"${caseName(expanded.empty[0] as string)}" names no file`);
      truncated = expanded.truncated;
      records = fileRecords(expanded.files, {
        operationId,
        direction,
        query: values.query ? queryPairs(values.query, '--query') : undefined,
        path: values.path ? pairs(values.path, '--path') : undefined,
        maxBytes,
        stdin: io.stdin,
        waitMs,
      });
    }

    const progress = progressReporter({ stream: io.stderr, env: process.env });
    const onCase = (c: CaseResult) => progress.onCase(c.valid);
    const result = await validateMany(records, {
      parameters: values['no-parameters'] !== true,
      maxCases,
      onCase,
    }).finally(() => progress.end());
    const report: Report = { ...result, truncated: result.truncated || truncated, title: 'gateway-contract validate' };
    await writeReport(report, format, values.output, io);
    if (report.truncated)
      throw usageError(`stopped after ${maxCases} payloads: the input holds more (see --max-cases)`);
    // Nothing judged is not a pass: a CI step fed an empty capture must not go green.
    if (report.counts.cases === 0) throw usageError('the input holds no payload: nothing was validated');
    return report.counts.invalid > 0 ? 1 : 0;
  },
};
