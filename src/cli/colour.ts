// Colour for the verdicts of a readable report, on a terminal only. Never when NO_COLOR is set
// (https://no-color.org: any value but the empty string), never on a pipe or in a file, and never
// when FORCE_COLOR is 0 or false; FORCE_COLOR set to anything else (a CI log that shows colours)
// turns it on for a pipe too, except under NO_COLOR (docs/decisions.md, D-124).

/** What decides whether a stream gets colour: its isTTY flag and the environment. */
export interface ColourContext {
  isTTY?: boolean | undefined;
  env: Readonly<Record<string, string | undefined>>;
}

/** Whether text written to a stream with this flag, under this environment, is coloured. */
export function colourOn({ isTTY, env }: ColourContext): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force.toLowerCase() !== 'false';
  return isTTY === true && env.TERM !== 'dumb';
}

const paint = (code: number) => (text: string) => `\u001b[${code}m${text}\u001b[39m`;
const green = paint(32);
const red = paint(31);
const yellow = paint(33);

/** The words a report uses for its verdicts (`valid`/`invalid`, `passed`/`failed`). */
export interface VerdictWords {
  ok: string;
  failed: string;
}

/** One line with its verdicts coloured: the word that starts it, and the counts of a summary line. */
function colourLine(line: string, words: VerdictWords): string {
  for (const [word, colour] of [
    [words.failed, red],
    [words.ok, green],
    ['skipped', yellow],
  ] as const) {
    if (line.startsWith(`${word} `)) return `${colour(word)}${line.slice(word.length)}`;
  }
  // `12 payloads: 10 valid, 2 invalid` and the counts per group: a count above zero of failures in red.
  return line.replace(new RegExp(`\\b([1-9][0-9]*) ${words.failed}\\b`), (match) => red(match));
}

/** A readable report (its lines start with a verdict word) with its verdicts coloured. */
export function colourVerdicts(text: string, words: VerdictWords): string {
  return text
    .split('\n')
    .map((line) => colourLine(line, words))
    .join('\n');
}
