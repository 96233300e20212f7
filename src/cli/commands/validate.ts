// `gateway-contract validate`: one payload against the contract.
import { readFile, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { operations } from '../../../generated/operations.js';
import { parseJson } from '../../json/parse.js';
import type { OperationId } from '../../types.js';
import { validate } from '../../validation/validate.js';
import { readStream } from '../input.js';
import { type Command, pairs, UsageError, usageError } from '../options.js';

const OPERATION_IDS: readonly string[] = operations.map((o) => o.operationId);
/** Payloads larger than this are refused unless --max-bytes says otherwise (16 MiB). */
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

export const validateCommand: Command = {
  summary: 'Validate a request or response payload against the contract.',
  usage: 'gateway-contract validate <operationId> <request|response> <file|-> [--query name=value]... [--path name=value]...',
  help: [
    'Validates the JSON envelope {head, body} in <file> (or standard input with -) as the request or the',
    'response of <operationId>, with the schema and the named checks that compare query or path with body.',
    '',
    'Exit status: 0 valid; 1 invalid, with one JSON object per problem on standard output',
    '({"in","pointer","rule","message","resultCode"?}); 2 usage error, unknown operationId, unreadable',
    'file or malformed JSON, with a one-line message on standard error.',
    '',
    `operationIds: ${OPERATION_IDS.join(', ')} (the webhook is notifyTokenStatus).`,
    '',
    'Options:',
    '  --query name=value   a query parameter of the request (repeatable), e.g. --query mid=M1 --query orderId=O1',
    '  --path name=value    a path parameter of the request (repeatable), e.g. --path mid=M1',
    '  --max-bytes <n>      refuse larger input (default 16777216, 16 MiB)',
    '',
    'Input must be UTF-8 JSON with no key repeated within an object.',
    '  -h, --help           show this help',
  ].join('\n'),
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: { query: { type: 'string', multiple: true }, path: { type: 'string', multiple: true }, 'max-bytes': { type: 'string' } },
    });
    if (positionals.length !== 3) throw usageError(`expected <operationId> <request|response> <file|->, got ${positionals.length} argument(s)`);
    const [operationId, direction, source] = positionals as [string, string, string];
    if (!OPERATION_IDS.includes(operationId)) throw usageError(`unknown operationId "${operationId.slice(0, 64)}"; known: ${OPERATION_IDS.join(', ')}`);
    if (direction !== 'request' && direction !== 'response') throw usageError('the direction must be "request" or "response"');
    const query = pairs(values.query ?? [], '--query');
    const path = pairs(values.path ?? [], '--path');
    const maxBytes = values['max-bytes'] === undefined ? DEFAULT_MAX_BYTES : Number(values['max-bytes']);
    if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw usageError('--max-bytes takes a positive whole number');
    let bytes: Buffer;
    try {
      if (source === '-') bytes = await readStream(io.stdin, maxBytes);
      else {
        const info = await stat(source);
        if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'not a file' });
        if (info.size > maxBytes) throw usageError(`"${source}" is larger than ${maxBytes} bytes (see --max-bytes)`);
        bytes = await readFile(source);
      }
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw usageError(`cannot read ${source === '-' ? 'standard input' : `"${source}"`}: ${(error as NodeJS.ErrnoException | null)?.code ?? 'read error'}`);
    }
    const parsed = parseJson(bytes);
    if (!parsed.ok) throw usageError(`${source === '-' ? 'standard input' : `"${source}"`}: ${parsed.message}`);
    const result = validate(operationId as OperationId, direction, parsed.value, {
      ...(values.query ? { query } : {}),
      ...(values.path ? { path } : {}),
    });
    if (result.valid) {
      io.stderr.write(`valid: ${operationId} ${direction}\n`);
      return 0;
    }
    for (const error of result.errors) io.stdout.write(`${JSON.stringify(error)}\n`);
    return 1;
  },
};
