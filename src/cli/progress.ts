// Progress of a long run on the terminal: how many payloads are done, how many invalid so far, and
// the rate, on one line of standard error that is rewritten in place and cleared at the end. Only
// when standard error is a terminal and not under CI (a log file gets no carriage returns); only
// once the run has lasted a second (a short run prints nothing); at most four times a second.

/** A run shorter than this shows no progress. */
export const PROGRESS_DELAY_MS = 1000;
/** The line is rewritten at most this often. */
export const PROGRESS_INTERVAL_MS = 250;

export interface ProgressOptions {
  /** Where the line goes (standard error); only a stream whose isTTY is true gets it. */
  stream: { isTTY?: boolean | undefined; write(text: string): unknown };
  env: Readonly<Record<string, string | undefined>>;
  /** The clock, in milliseconds (default performance.now). */
  now?: () => number;
  /** What the run counts (default "payloads"). */
  noun?: string;
}

/** What a run tells its progress: each case's verdict, and its end. */
export interface Progress {
  onCase(valid: boolean): void;
  end(): void;
}

/** Whether the environment says the process runs in CI: CI set to anything but "", "0" or "false". */
export function underCi(env: Readonly<Record<string, string | undefined>>): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

const NONE: Progress = { onCase: () => {}, end: () => {} };

const count = (n: number): string => n.toLocaleString('en-US');

/** The line of progress: `validating: 12,345 payloads done, 67 invalid so far, 2,640/s`. */
export function progressLine(done: number, invalid: number, elapsedMs: number, noun = 'payloads'): string {
  const rate = elapsedMs > 0 ? Math.round((done * 1000) / elapsedMs) : 0;
  return `validating: ${count(done)} ${noun} done, ${count(invalid)} invalid so far, ${count(rate)}/s`;
}

/** A progress reporter for a run, or one that shows nothing when the stream is no terminal or under CI. */
export function progressReporter({ stream, env, now = () => performance.now(), noun }: ProgressOptions): Progress {
  if (stream.isTTY !== true || underCi(env)) return NONE;
  const started = now();
  let done = 0;
  let invalid = 0;
  let shownAt = Number.NEGATIVE_INFINITY;
  let shownLength = 0;
  const show = (at: number) => {
    const line = progressLine(done, invalid, at - started, noun);
    // Carriage return and spaces, no escape codes: the shorter line covers the longer one.
    stream.write(`\r${line.padEnd(shownLength)}`);
    shownLength = line.length;
    shownAt = at;
  };
  return {
    onCase(valid) {
      done++;
      if (!valid) invalid++;
      const at = now();
      if (at - started >= PROGRESS_DELAY_MS && at - shownAt >= PROGRESS_INTERVAL_MS) show(at);
    },
    end() {
      if (shownLength > 0) stream.write(`\r${' '.repeat(shownLength)}\r`);
      shownLength = 0;
    },
  };
}
