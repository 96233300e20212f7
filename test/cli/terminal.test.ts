// The command line as a terminal user meets it, module by module: "did you mean ...?" (suggest.ts),
// help within 100 columns (helpText.ts), coloured verdicts (colour.ts), progress of a long run
// (progress.ts) and where a server listens (listen.ts). The commands themselves, on a pseudo-terminal
// and on pipes: terminal.process.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colourOn, colourVerdicts } from '../../src/cli/colour.js';
import { wrapHelp } from '../../src/cli/helpText.js';
import { listenAddress } from '../../src/cli/listen.js';
import {
  PROGRESS_DELAY_MS,
  PROGRESS_INTERVAL_MS,
  progressLine,
  progressReporter,
  underCi,
} from '../../src/cli/progress.js';
import { closest, didYouMean, editDistance } from '../../src/cli/suggest.js';
import { fcParameters } from '../helpers/arbitraries.js';

const COMMANDS = ['validate', 'operations', 'mock', 'sandbox', 'proxy', 'send-webhook'];
const OPERATIONS = [
  'tokenizeCard',
  'preAuthorize',
  'listSubscriptions',
  'initiatePayment',
  'modifyOrder',
  'createSubscription',
  'notifyTokenStatus',
];

describe('the edit distance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('valdate', 'validate')).toBe(1);
    expect(editDistance('--formt', '--format')).toBe(1);
    expect(editDistance('flaw', 'lawn')).toBe(2);
    expect(editDistance('mokc', 'mock')).toBe(1);
    expect(editDistance('ca', 'abc')).toBe(3);
  });

  it('is zero only for equal strings, symmetric, at least the difference of lengths and at most the longer length', () => {
    const word = fc.string({ maxLength: 12, unit: fc.constantFrom('a', 'b', 'c', '-') });
    fc.assert(
      fc.property(word, word, word, (a, b, c) => {
        const ab = editDistance(a, b);
        expect(ab === 0).toBe(a === b);
        expect(ab).toBe(editDistance(b, a));
        expect(ab).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
        expect(ab).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(editDistance(a + c, b + c)).toBeLessThanOrEqual(ab);
      }),
      fcParameters(300),
    );
  });

  it('counts one edit for one inserted, removed or replaced character', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 16 }),
        fc.nat(),
        fc.constantFrom('x', 'Y', '-'),
        (word, at, c) => {
          const i = at % word.length;
          expect(editDistance(word, word.slice(0, i) + c + word.slice(i))).toBe(1);
          expect(editDistance(word, word.slice(0, i) + word.slice(i + 1))).toBe(1);
          if (word[i] !== c) expect(editDistance(word, word.slice(0, i) + c + word.slice(i + 1))).toBe(1);
          const [x, y] = [word[i], word[i + 1]];
          if (x !== undefined && y !== undefined && x !== y)
            expect(editDistance(word, word.slice(0, i) + y + x + word.slice(i + 2))).toBe(1);
        },
      ),
      fcParameters(300),
    );
  });
});

describe('did you mean', () => {
  it('names the nearest command, flag or operationId for a typo', () => {
    expect(closest('valdate', COMMANDS)).toBe('validate');
    expect(closest('sandbx', COMMANDS)).toBe('sandbox');
    expect(closest('send-webhooks', COMMANDS)).toBe('send-webhook');
    expect(closest('Proxy', COMMANDS)).toBe('proxy');
    expect(closest('initiatPayment', OPERATIONS)).toBe('initiatePayment');
    expect(closest('initiatepayment', OPERATIONS)).toBe('initiatePayment');
    expect(closest('--formt', ['--format', '--output'])).toBe('--format');
    expect(didYouMean('mokc', COMMANDS)).toBe('; did you mean "mock"?');
  });

  it('says nothing when no known name is near', () => {
    expect(closest('frobnicate', COMMANDS)).toBeUndefined();
    expect(closest('pay', OPERATIONS)).toBeUndefined();
    expect(closest('', COMMANDS)).toBeUndefined();
    expect(closest('x'.repeat(10_000), COMMANDS)).toBeUndefined();
    expect(didYouMean('frobnicate', COMMANDS)).toBe('');
  });

  it('suggests only a known name, never the text typed', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (typed) => {
        const name = closest(typed, OPERATIONS);
        if (name !== undefined) expect(OPERATIONS).toContain(name);
        expect(didYouMean(typed, OPERATIONS)).toMatch(/^(|; did you mean "[A-Za-z]+"\?)$/);
      }),
      fcParameters(300),
    );
  });
});

describe('help within 100 columns', () => {
  const words = (text: string) => text.split(/\s+/).filter(Boolean);

  it('breaks a long option line under its description, and a usage line under its command', () => {
    const option = `  --webhook-retries <n>   ${'attempts after the first for a notification not answered 00, '.repeat(2)}(default 5)`;
    const lines = wrapHelp(option).split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {26}\S/);
    const usage = `Usage: gateway-contract validate <operationId> <request|response> <file|dir|glob|->... [--query name=value]... [--path name=value]...`;
    const [first, second] = wrapHelp(usage).split('\n');
    expect(first).toMatch(/^Usage: gateway-contract validate .*\.\.\.$/);
    expect(second).toBe('         [--query name=value]... [--path name=value]...');
  });

  it('flows the end of a long line into the prose that follows it, and keeps short lines as written', () => {
    const first =
      'A long sentence that goes on and on about what the command does, well past the hundredth column of the';
    expect(wrapHelp([first, 'terminal.', 'Ctrl-C stops it.'].join('\n')).split('\n')).toEqual([
      'A long sentence that goes on and on about what the command does, well past the hundredth column of',
      'the terminal.',
      'Ctrl-C stops it.',
    ]);
    // An option's line after it is its own.
    expect(wrapHelp([`  --a <n>   ${first}`, '  --b       the next option'].join('\n')).split('\n')).toHaveLength(3);
    expect(wrapHelp('short\n  --x   y')).toBe('short\n  --x   y');
  });

  it('keeps every word, in order, and every line within the width unless no break fits after its indentation', () => {
    const line = fc
      .tuple(
        fc.nat(6),
        fc.array(fc.string({ minLength: 1, maxLength: 30, unit: fc.constantFrom('a', 'b', '-', '[', ']') }), {
          maxLength: 40,
        }),
      )
      .map(([indent, ws]) => ' '.repeat(indent) + ws.join(' '));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), fc.integer({ min: 40, max: 120 }), (lines, width) => {
        const text = lines.join('\n');
        const wrapped = wrapHelp(text, width);
        expect(words(wrapped)).toEqual(words(text));
        for (const out of wrapped.split('\n')) {
          if (out.length > width)
            expect(out.lastIndexOf(' ', width)).toBeLessThanOrEqual(out.length - out.trimStart().length);
        }
      }),
      fcParameters(200),
    );
  });
});

describe('coloured verdicts', () => {
  it('only on a terminal, never with NO_COLOR, FORCE_COLOR as an explicit choice', () => {
    expect(colourOn({ isTTY: true, env: {} })).toBe(true);
    expect(colourOn({ isTTY: false, env: {} })).toBe(false);
    expect(colourOn({ isTTY: undefined, env: {} })).toBe(false);
    expect(colourOn({ isTTY: true, env: { NO_COLOR: '1' } })).toBe(false);
    expect(colourOn({ isTTY: true, env: { NO_COLOR: '' } })).toBe(true);
    expect(colourOn({ isTTY: true, env: { TERM: 'dumb' } })).toBe(false);
    expect(colourOn({ isTTY: false, env: { FORCE_COLOR: '1' } })).toBe(true);
    expect(colourOn({ isTTY: true, env: { FORCE_COLOR: '0' } })).toBe(false);
    expect(colourOn({ isTTY: true, env: { FORCE_COLOR: 'false' } })).toBe(false);
    expect(colourOn({ isTTY: true, env: { FORCE_COLOR: '1', NO_COLOR: 'yes' } })).toBe(false);
  });

  it('colours the verdict that starts a line and the count of failures, nothing else', () => {
    const report = [
      'invalid  a.json (initiatePayment request): 1 problem(s)',
      '  /body/x required: 3 invalid values',
      'skipped  b: no operation',
      '2 payloads: 1 valid, 1 invalid',
      '',
    ].join('\n');
    const coloured = colourVerdicts(report, { ok: 'valid', failed: 'invalid' });
    expect(coloured.split('\n')).toEqual([
      '\u001b[31minvalid\u001b[39m  a.json (initiatePayment request): 1 problem(s)',
      '  /body/x required: \u001b[31m3 invalid\u001b[39m values',
      '\u001b[33mskipped\u001b[39m  b: no operation',
      '2 payloads: 1 valid, \u001b[31m1 invalid\u001b[39m',
      '',
    ]);
    expect(colourVerdicts('passed  case\n3 cases: 3 passed, 0 failed\n', { ok: 'passed', failed: 'failed' })).toBe(
      '\u001b[32mpassed\u001b[39m  case\n3 cases: 3 passed, 0 failed\n',
    );
  });
});

/** A stream that records what is written, with the isTTY flag given. */
function terminal(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, writes, write: (text: string) => writes.push(text) };
}

describe('progress of a long run', () => {
  it('says how many are done, how many invalid so far, and the rate', () => {
    expect(progressLine(12_345, 67, 5000)).toBe('validating: 12,345 payloads done, 67 invalid so far, 2,469/s');
    expect(progressLine(0, 0, 0)).toBe('validating: 0 payloads done, 0 invalid so far, 0/s');
  });

  it('shows nothing on a stream that is not a terminal, or under CI', () => {
    for (const [stream, env] of [
      [terminal(false), {}],
      [terminal(true), { CI: 'true' }],
      [terminal(true), { CI: '1' }],
    ] as const) {
      let clock = 0;
      const progress = progressReporter({ stream, env, now: () => clock });
      for (let i = 0; i < 100; i++) {
        clock += 100;
        progress.onCase(i % 2 === 0);
      }
      progress.end();
      expect(stream.writes).toEqual([]);
    }
    expect(underCi({ CI: '' })).toBe(false);
    expect(underCi({ CI: 'false' })).toBe(false);
    expect(underCi({ CI: '0' })).toBe(false);
    expect(underCi({ CI: 'woodpecker' })).toBe(true);
  });

  it('shows nothing for a run shorter than its delay', () => {
    const stream = terminal(true);
    let clock = 0;
    const progress = progressReporter({ stream, env: {}, now: () => clock });
    for (let i = 0; i < 1000; i++) {
      clock = (i * (PROGRESS_DELAY_MS - 1)) / 1000;
      progress.onCase(false);
    }
    progress.end();
    expect(stream.writes).toEqual([]);
  });

  it('rewrites one line at most once per interval, and clears it at the end', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(400), fc.boolean()), { minLength: 1, maxLength: 300 }), (steps) => {
        const stream = terminal(true);
        let clock = 0;
        const shownAt: number[] = [];
        const progress = progressReporter({ stream, env: {}, now: () => clock });
        let invalid = 0;
        steps.forEach(([wait, valid], i) => {
          clock += wait;
          if (!valid) invalid++;
          const before = stream.writes.length;
          progress.onCase(valid);
          if (stream.writes.length > before) {
            shownAt.push(clock);
            expect(stream.writes.at(-1)).toContain(
              `: ${(i + 1).toLocaleString('en-US')} payloads done, ${invalid.toLocaleString('en-US')} invalid so far`,
            );
          }
        });
        for (const at of shownAt) expect(at).toBeGreaterThanOrEqual(PROGRESS_DELAY_MS);
        for (let i = 1; i < shownAt.length; i++)
          expect((shownAt[i] ?? 0) - (shownAt[i - 1] ?? 0)).toBeGreaterThanOrEqual(PROGRESS_INTERVAL_MS);
        progress.end();
        if (shownAt.length === 0) expect(stream.writes).toEqual([]);
        else {
          // Every write starts at the line's beginning; the last covers the longest line shown with spaces.
          for (const w of stream.writes) expect(w.startsWith('\r')).toBe(true);
          const longest = Math.max(...stream.writes.slice(0, -1).map((w) => w.trimEnd().length - 1));
          expect(stream.writes.at(-1)).toBe(`\r${' '.repeat(longest)}\r`);
        }
      }),
      fcParameters(200),
    );
  });
});

describe('where a server listens', () => {
  const mock = { prefix: 'MOCK', aliases: { host: 'HOST', port: 'PORT' }, defaultPort: 4010 };

  it('takes the flag, then the command variable, then the older name, then the default', () => {
    expect(listenAddress({}, {}, mock)).toEqual({ host: '127.0.0.1', port: 4010 });
    expect(listenAddress({}, { PORT: '5000', HOST: '0.0.0.0' }, mock)).toEqual({ host: '0.0.0.0', port: 5000 });
    expect(listenAddress({}, { PORT: '5000', MOCK_PORT: '6000', HOST: 'h1', MOCK_HOST: 'h2' }, mock)).toEqual({
      host: 'h2',
      port: 6000,
    });
    expect(listenAddress({ port: '7000', host: '::1' }, { MOCK_PORT: '6000', MOCK_HOST: 'h2' }, mock)).toEqual({
      host: '::1',
      port: 7000,
    });
    expect(listenAddress({}, { MOCK_PORT: '', PORT: '5000' }, mock)).toEqual({ host: '127.0.0.1', port: 5000 });
    expect(listenAddress({}, { SANDBOX_PORT: '0', PORT: '5000' }, { prefix: 'SANDBOX', defaultPort: 4020 })).toEqual({
      host: '127.0.0.1',
      port: 0,
    });
  });

  it('takes port 0 (a free port) and refuses what is not a port', () => {
    expect(listenAddress({ port: '0' }, {}, mock).port).toBe(0);
    expect(() => listenAddress({ port: '65536' }, {}, mock)).toThrow(/port must be a whole number from 0 to 65535/);
    expect(() => listenAddress({}, { MOCK_PORT: 'http' }, mock)).toThrow(/port must be a whole number/);
  });
});
