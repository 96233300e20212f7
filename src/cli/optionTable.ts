// A command's options as one table: each row gives node:util's parseArgs its configuration, the
// help its line under "Options", and "did you mean" the names it may suggest (docs/decisions.md,
// D-134). What the command does with a value (its checks, its environment variables, its default)
// stays in the command: the parser is given no default, so that an absent option stays absent.
import { HELP_WIDTH } from './helpText.js';

/** One option of a command. */
export interface OptionRow {
  /** The long name, without its two dashes: `docs-port` is `--docs-port`. */
  readonly name: string;
  readonly type: 'string' | 'boolean';
  /** Repeatable: the values come as a list (the help says so in its own words). */
  readonly multiple?: boolean;
  /** What a string option's value looks like in the help: `<n>`, `<url>`, `name=value`. */
  readonly value?: string;
  /**
   * What the option does. The first line says it, followed by the environment variables and the
   * default; each further line (after a `\n`) goes on under it.
   */
  readonly help: string;
  /** The default as the help says it (`4010`, `text on a terminal, json otherwise`). */
  readonly default?: string | number;
  /** The environment variables read when the option is absent, as the help names them. */
  readonly env?: string;
  /** A heading that starts a group of options at this row (on the first row, it replaces "Options"). */
  readonly heading?: string;
}

export type OptionTable = readonly OptionRow[];

/** What parseArgs is told of one row: its type, and whether it repeats. */
type ParserOption<R extends OptionRow> = R extends { readonly multiple: true }
  ? { type: R['type']; multiple: true }
  : { type: R['type'] };

/** parseArgs's `options` for a table, keyed by name, so that the parsed values keep their types. */
export type ParserOptions<T extends OptionTable> = { [R in T[number] as R['name']]: ParserOption<R> };

/** parseArgs's `options` for a table (a table is declared `as const satisfies OptionTable`). */
export function parserOptions<const T extends OptionTable>(table: T): ParserOptions<T> {
  const options: Record<string, { type: OptionRow['type']; multiple?: true }> = {};
  for (const row of table)
    options[row.name] = row.multiple === true ? { type: row.type, multiple: true } : { type: row.type };
  // The loop builds, row by row, the object the mapped type describes.
  return options as ParserOptions<T>;
}

/** The options a table names, as typed on the command line, and the help's own. */
export function optionFlags(table: OptionTable): string[] {
  return [...table.map((row) => `--${row.name}`), '--help', '-h'];
}

/** The help's own option, which every command takes (main.ts answers it before the parser runs). */
const HELP_FLAG = '-h, --help';

/**
 * The longest flag the descriptions' column is set by: a longer one (`--webhook-concurrency <n>`)
 * is followed by two spaces, and its description goes on in the column, so that one long flag does
 * not narrow every description.
 */
const MAX_ALIGNED_FLAG = 24;

const flagText = (row: OptionRow): string => (row.value === undefined ? `--${row.name}` : `--${row.name} ${row.value}`);

/**
 * Pieces of text laid in lines: the first of `firstRoom` characters at most, the others of `room`.
 * A piece is never broken; one longer than its room has a line of its own.
 */
function fill(pieces: readonly string[], firstRoom: number, room: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces) {
    const limit = lines.length === 0 ? firstRoom : room;
    if (line !== '' && line.length + 1 + piece.length > limit) {
      lines.push(line);
      line = piece;
    } else line = line === '' ? piece : `${line} ${piece}`;
  }
  return line === '' ? lines : [...lines, line];
}

const words = (text: string): string[] => text.split(' ').filter((word) => word !== '');

/**
 * One row's lines within the help's width: the flag, then in the column the words of its help's
 * first line, its environment variables (`[...]`) and its default (`(default: ...)`), each of these
 * two kept whole on one line, then each further line of its help, under the first.
 */
function rowLines(row: OptionRow, column: number): string[] {
  const [first = '', ...details] = row.help.split('\n');
  const flag = `  ${flagText(row)}`;
  const start = Math.max(column, flag.length + 2);
  const room = HELP_WIDTH - column;
  const pieces = [
    ...words(first),
    ...(row.env === undefined ? [] : [`[${row.env}]`]),
    ...(row.default === undefined ? [] : [`(default: ${row.default})`]),
  ];
  const [head = '', ...rest] = fill(pieces, HELP_WIDTH - start, room);
  const indent = ' '.repeat(column);
  const more = [...rest, ...details.flatMap((detail) => fill(words(detail), room, room))];
  return [`${flag.padEnd(start)}${head}`, ...more.map((line) => `${indent}${line}`)];
}

/**
 * The help's options block of a table, within the help's width of 100 columns: under "Options", or
 * under the rows' own headings, one option after the other in the table's order, every description
 * in one column, and -h, --help last.
 */
export function optionsHelp(table: OptionTable): string {
  const aligned = [HELP_FLAG, ...table.map(flagText)].filter((flag) => flag.length <= MAX_ALIGNED_FLAG);
  const column = 2 + Math.max(...aligned.map((flag) => flag.length)) + 2;
  const envNote = table.some((row) => row.env !== undefined) ? ' (environment variables in brackets)' : '';
  const lines: string[] = [];
  table.forEach((row, index) => {
    if (index === 0 || row.heading !== undefined) {
      if (index > 0) lines.push('');
      lines.push(`${row.heading ?? 'Options'}${index === 0 ? envNote : ''}:`);
    }
    lines.push(...rowLines(row, column));
  });
  if (table.length === 0) lines.push('Options:');
  lines.push(`${`  ${HELP_FLAG}`.padEnd(column)}show this help`);
  return lines.join('\n');
}
