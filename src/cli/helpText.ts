// Help text within 100 columns, whatever width each command wrote its lines at: a long line is
// broken between words, and goes on under its description (an option's, a command's) or under
// its own first word.

export const HELP_WIDTH = 100;

/**
 * Where the lines a long line breaks into go on: under the description of an option or a command
 * (`  --port <n>   port ...`: after the run of two or more spaces), under the command of a usage
 * line, else at the line's own indentation.
 */
function hangingIndent(line: string): number {
  const described = /^(\s*\S.*?\s{2,})\S/.exec(line);
  if (described?.[1]) return described[1].length;
  const indent = line.length - line.trimStart().length;
  if (line.trimStart().startsWith('Usage: ')) return indent + 'Usage: '.length + 2;
  if (line.trimStart().startsWith('gateway-contract ')) return indent + 2;
  return indent;
}

/**
 * The last space after `hang` and at or before `width` that lies outside brackets (`[--query
 * name=value]` stays whole), else the last space there, else -1.
 */
function breakAt(line: string, width: number, hang: number): number {
  let depth = 0;
  let outside = -1;
  for (let i = 0; i <= Math.min(width, line.length - 1); i++) {
    const c = line[i];
    if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
    else if (c === ' ' && depth === 0 && i > hang) outside = i;
  }
  const any = line.lastIndexOf(' ', width);
  return outside > 0 ? outside : any > hang ? any : -1;
}

/** One line as lines of at most `width` characters; a word longer than the room left stays whole. */
function wrapLine(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const hang = hangingIndent(line);
  const lines: string[] = [];
  let rest = line;
  while (rest.length > width) {
    const cut = breakAt(rest, width, hang);
    if (cut < 0) break;
    lines.push(rest.slice(0, cut).trimEnd());
    rest = `${' '.repeat(hang)}${rest.slice(cut + 1).trimStart()}`;
  }
  lines.push(rest);
  return lines;
}

const indentOf = (line: string): number => line.length - line.trimStart().length;

/**
 * Whether `next` goes on with the prose of a line that hangs at `hang`: it is indented as much, and
 * is neither blank, an option or a term (`--x`, `-x`, `<x>`), nor a described line of its own.
 */
function continues(next: string | undefined, hang: number): next is string {
  if (next === undefined || next.trim() === '' || indentOf(next) !== hang) return false;
  return !/^[-<]/.test(next.trimStart()) && !/^\s*\S.*?\s{2,}\S/.test(next);
}

/**
 * A help text with every line within `width` columns (default 100). The end of a line that is too
 * long flows into the next line when that one goes on with the same prose, so that no word is left
 * alone on a line.
 */
export function wrapHelp(text: string, width = HELP_WIDTH): string {
  const input = text.split('\n');
  const output: string[] = [];
  for (let i = 0; i < input.length; i++) {
    let line = input[i] ?? '';
    let pieces = wrapLine(line, width);
    while (pieces.length > 1 && continues(input[i + 1], hangingIndent(line))) {
      output.push(...pieces.slice(0, -1));
      line = `${pieces.at(-1)} ${(input[++i] ?? '').trimStart()}`;
      pieces = wrapLine(line, width);
    }
    output.push(...pieces);
  }
  return output.join('\n');
}
