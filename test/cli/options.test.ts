// The commands' option tables (src/cli/optionTable.ts): one table per command gives the parser its
// configuration, the help its options block and "did you mean" its names. Run in-process through
// main(), as cli.batch.test.ts does; the commands as people run them: cli.terminal.process.test.ts.
import { Readable, Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mockCommand } from '../../src/cli/commands/mock.js';
import { operationsCommand } from '../../src/cli/commands/operations.js';
import { proxyCommand } from '../../src/cli/commands/proxy.js';
import { sandboxCommand } from '../../src/cli/commands/sandbox.js';
import { sendWebhookCommand } from '../../src/cli/commands/sendWebhook.js';
import { validateCommand } from '../../src/cli/commands/validate.js';
import { verifyCommand } from '../../src/cli/commands/verify.js';
import { HELP_WIDTH, wrapHelp } from '../../src/cli/helpText.js';
import { main } from '../../src/cli/main.js';
import type { Command } from '../../src/cli/options.js';
import {
  type OptionRow,
  type OptionTable,
  optionFlags,
  optionsHelp,
  parserOptions,
} from '../../src/cli/optionTable.js';
import { fcParameters } from '../helpers/arbitraries.js';

const COMMANDS: [string, Command][] = [
  ['validate', validateCommand],
  ['operations', operationsCommand],
  ['mock', mockCommand],
  ['sandbox', sandboxCommand],
  ['proxy', proxyCommand],
  ['verify', verifyCommand],
  ['send-webhook', sendWebhookCommand],
];

/** Runs the command line in this process: its exit status and what it wrote. */
async function run(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const written = { stdout: '', stderr: '' };
  const sink = (to: 'stdout' | 'stderr') =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        written[to] += chunk.toString('utf8');
        done();
      },
    });
  const status = await main(args, { stdin: Readable.from([]), stdout: sink('stdout'), stderr: sink('stderr') });
  return { status, ...written };
}

/** The lines of a help from its options block on: the first heading after the prose. */
function optionsBlock(help: string, table: OptionTable): string[] {
  const lines = help.split('\n');
  const first = `${table[0]?.heading ?? 'Options'}`;
  const start = lines.findIndex((line) => line.startsWith(`${first}:`) || line.startsWith(`${first} (`));
  return lines.slice(start);
}

describe("each command's option table", () => {
  it.each(COMMANDS)(
    '%s: its help lists every option of the table once, in order, with -h last, within 100 columns',
    async (name, command) => {
      const help = await run([name, '--help']);
      expect(help.status).toBe(0);
      expect(help.stdout.split('\n').filter((line) => line.length > HELP_WIDTH)).toEqual([]);
      const block = optionsBlock(help.stdout, command.options);
      const listed = block.flatMap((line) => /^ {2}(-h, --help|--[a-z][a-z0-9-]*)(?=\s)/.exec(line)?.[1] ?? []);
      expect(listed).toEqual([...command.options.map((row) => `--${row.name}`), '-h, --help']);
      const text = block.join(' ').replace(/\s+/g, ' ');
      for (const row of command.options) {
        if (row.env !== undefined) expect(text, row.name).toContain(`[${row.env}]`);
        if (row.default !== undefined) expect(text, row.name).toContain(`(default: ${row.default})`);
      }
    },
  );

  it.each(COMMANDS)(
    '%s: its parser is told each row, and no default, so that an absent option stays absent',
    (_name, command) => {
      const expected = Object.fromEntries(
        command.options.map((row) => [
          row.name,
          row.multiple ? { type: row.type, multiple: true } : { type: row.type },
        ]),
      );
      expect(parserOptions(command.options)).toEqual(expected);
    },
  );

  it.each(COMMANDS)('%s: a repeatable option says so in its help', (_name, command) => {
    for (const row of command.options.filter((r) => r.multiple)) expect(row.help, row.name).toMatch(/repeatable/);
  });
});

describe('"did you mean" of an unknown option', () => {
  it('suggests only options of the command, never a word of its prose (mock --save-dev)', async () => {
    // The mock's help prints Prism's install line, `npm install --save-dev ...`: not an option of mock.
    const result = await run(['mock', '--save-dev']);
    expect(result).toEqual({
      status: 2,
      stdout: '',
      stderr: 'gateway-contract mock: unknown option "--save-dev"; run "gateway-contract mock --help"\n',
    });
  });

  it('names an option of the table for a typo of it, in every command', async () => {
    const typo = fc
      .tuple(
        fc.constantFrom(...COMMANDS),
        fc.nat(),
        fc.nat(),
        fc.constantFrom('delete', 'swap', 'replace'),
        fc.constantFrom('x', 'q', 'z'),
      )
      .map(([[name, command], pick, at, edit, letter]) => {
        const row = command.options[pick % command.options.length] as OptionRow;
        const i = at % row.name.length;
        const typed =
          edit === 'delete'
            ? row.name.slice(0, i) + row.name.slice(i + 1)
            : edit === 'swap'
              ? row.name.slice(0, i) + (row.name[i + 1] ?? '') + (row.name[i] ?? '') + row.name.slice(i + 2)
              : row.name.slice(0, i) + letter + row.name.slice(i + 1);
        return { name, command, typed: `--${typed}` };
      })
      .filter(({ command, typed }) => typed.length > 3 && !optionFlags(command.options).includes(typed));
    await fc.assert(
      fc.asyncProperty(typo, async ({ name, command, typed }) => {
        const result = await run([name, typed]);
        expect(result.status).toBe(2);
        const suggested = /did you mean "([^"]+)"\?/.exec(result.stderr)?.[1];
        if (suggested !== undefined) expect(optionFlags(command.options)).toContain(suggested);
        expect(result.stderr).toContain(`unknown option "${typed}"`);
      }),
      fcParameters(60),
    );
  });
});

describe('the options block of a table', () => {
  const table = [
    { name: 'port', type: 'string', value: '<n>', help: 'port; 0 picks a free one', env: 'X_PORT', default: 4000 },
    { name: 'quiet', type: 'boolean', help: 'say less\nand this goes on under it' },
    {
      name: 'long',
      type: 'string',
      value: '<text>',
      help: 'a first line that leaves no room for its default after it, whatever its column',
      default: 'a default said in words',
    },
    {
      name: 'a-very-long-option-name',
      type: 'string',
      value: '<n>',
      help: 'a flag past the column is followed by two spaces, and its words go on in the column',
    },
    { heading: 'More', name: 'list', type: 'string', multiple: true, value: '<item>', help: 'repeatable' },
  ] as const satisfies OptionTable;

  it('says the environment variables in its heading, one column for every description, a default kept whole', () => {
    expect(optionsHelp(table).split('\n')).toEqual([
      'Options (environment variables in brackets):',
      '  --port <n>     port; 0 picks a free one [X_PORT] (default: 4000)',
      '  --quiet        say less',
      '                 and this goes on under it',
      '  --long <text>  a first line that leaves no room for its default after it, whatever its column',
      '                 (default: a default said in words)',
      '  --a-very-long-option-name <n>  a flag past the column is followed by two spaces, and its words go',
      '                 on in the column',
      '',
      'More:',
      '  --list <item>  repeatable',
      '  -h, --help     show this help',
    ]);
  });

  it('gives the parser types that say each value', () => {
    const options = parserOptions(table);
    expect(options).toEqual({
      port: { type: 'string' },
      quiet: { type: 'boolean' },
      long: { type: 'string' },
      'a-very-long-option-name': { type: 'string' },
      list: { type: 'string', multiple: true },
    });
  });

  it('fits 100 columns once wrapped, whatever the names and words of its rows', () => {
    const word = fc.stringMatching(/^[a-z]{1,12}$/);
    const row = fc.record({
      name: fc.stringMatching(/^[a-z][a-z-]{0,20}$/),
      type: fc.constantFrom('string' as const, 'boolean' as const),
      value: fc.option(fc.constantFrom('<n>', '<url>', 'name=value'), { nil: undefined }),
      help: fc.array(word, { minLength: 1, maxLength: 40 }).map((words) => words.join(' ')),
      default: fc.option(
        fc.array(word, { minLength: 1, maxLength: 8 }).map((words) => words.join(' ')),
        { nil: undefined },
      ),
      env: fc.option(fc.stringMatching(/^[A-Z_]{1,20}$/), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 12 }), (rows) => {
        const lines = wrapHelp(optionsHelp(rows)).split('\n');
        expect(lines.filter((line) => line.length > HELP_WIDTH)).toEqual([]);
        const flags = lines.flatMap((line) => /^ {2}(--[a-z][a-z-]*)/.exec(line)?.[1] ?? []);
        expect(flags).toEqual(rows.map((r) => `--${r.name}`));
      }),
      fcParameters(200),
    );
  });
});
