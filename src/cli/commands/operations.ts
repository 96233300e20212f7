// `gateway-contract operations`: the operation index.
import { parseArgs } from 'node:util';
import { operations } from '../../../generated/operations.js';
import type { Command } from '../options.js';
import { type OptionTable, parserOptions } from '../optionTable.js';

const OPTIONS = [
  { name: 'json', type: 'boolean', help: 'print the operation index as JSON' },
] as const satisfies OptionTable;

export const operationsCommand: Command = {
  usage: 'gateway-contract operations [--json]',
  about: 'Lists every operationId with its method, host (gateway, router, or the merchant for the webhook) and path.',
  options: OPTIONS,
  async run(args, io) {
    const { values } = parseArgs({ args, strict: true, options: parserOptions(OPTIONS) });
    if (values.json) {
      io.stdout.write(`${JSON.stringify(operations, null, 2)}\n`);
      return 0;
    }
    const rows = operations.map((o) => [
      o.operationId,
      o.method,
      o.host,
      o.path ?? `{merchant_response_url} (webhook ${o.webhook})`,
    ]);
    const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
    for (const r of rows) io.stdout.write(`${r.map((c, i) => (i < 3 ? c.padEnd(widths[i] ?? 0) : c)).join('  ')}\n`);
    return 0;
  },
};
