// Inputs of 16 MiB, the most --max-bytes allows by default, in every shape that makes a parse
// costly (a flat array, many empty objects, 900-level nests, a million keys), as a JSON file, an
// NDJSON line and a HAR body: the command ends within a heap of 256 MB, its peak resident memory
// under 256 MB, with the verdict, or the refusal of one line that names the bound passed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MEMBERS } from '../../src/inputs/limits.js';
import { BIN, runNode } from '../helpers/cli.js';
import { contractExamples } from '../helpers/examples.js';

const MiB = 1024 * 1024;
const SIZE = 16 * MiB;
/** The peak resident memory allowed a run, in KiB. */
const MAX_RSS_KIB = 256 * 1024;
/** Node's options for every run: a heap of 256 MB, and the peak resident memory written on standard error at exit. */
const MEASURED = [
  '--max-old-space-size=256',
  '--import',
  'data:text/javascript,process.on("exit",()=>process.stderr.write("maxRSS="+process.resourceUsage().maxRSS+"\\n"))',
];

const examples = contractExamples();
const payRequest = examples.find((e) => e.operationId === 'initiatePayment' && e.direction === 'request');
const payAnswer = examples.find(
  (e) => e.operationId === 'initiatePayment' && e.direction === 'response' && e.name === 'paySucceeded',
);
const query = { mid: 'MERCHANT0001', orderId: 'ORDER-1001' };

/** `count` copies of `unit` as the items of an array. */
const arrayOf = (unit: string, count: number) => `[${Array(count).fill(unit).join(',')}]`;

/** The text of `payload` with one more member in its body, `extra`, holding `bulk` (a key the contract does not know). */
function withExtra(payload: unknown, bulk: string): string {
  const text = JSON.stringify(payload);
  return `${text.slice(0, text.lastIndexOf('}}'))},"extra":${bulk}}}`;
}

/** An object of `count` members `"k0000001":0`. */
function keys(count: number): string {
  const members: string[] = [];
  for (let i = 0; i < count; i++) members.push(`"k${String(i).padStart(7, '0')}":0`);
  return `{${members.join(',')}}`;
}

/** A string member that pads the payload's text to `size` characters. */
function padded(text: string, size: number): string {
  const room = size - text.length - ',"pad":""'.length;
  return room <= 0 ? text : `${text.slice(0, -2)},"pad":"${'x'.repeat(room)}"}}`;
}

/** The shapes whose bulk passes a bound within 16 MiB, each as the body's unknown member (sizes in characters). */
const BEYOND: { shape: string; bulk: (size: number) => string; rule: 'maxValues' | 'maxMembers' }[] = [
  { shape: 'a flat array of 8 million numbers', bulk: (size) => arrayOf('1', Math.floor(size / 2)), rule: 'maxValues' },
  {
    shape: 'an array of 5.6 million empty objects',
    bulk: (size) => arrayOf('{}', Math.floor(size / 3)),
    rule: 'maxValues',
  },
  {
    shape: 'nests of 900 levels, 9 000 of them',
    bulk: (size) => arrayOf(`${'['.repeat(899)}${']'.repeat(899)}`, Math.floor(size / 1799)),
    rule: 'maxValues',
  },
  { shape: 'an object of a million unknown keys', bulk: (size) => keys(Math.floor(size / 13)), rule: 'maxMembers' },
];

/** The same shapes just within the bounds (a million values, objects of MAX_MEMBERS - 1 members), padded to 16 MiB. */
const WITHIN: { shape: string; bulk: () => string }[] = [
  { shape: 'a flat array of 999 000 numbers', bulk: () => arrayOf('1', 999_000) },
  { shape: 'an array of 990 000 empty objects', bulk: () => arrayOf('{}', 990_000) },
  { shape: 'nests of 900 levels, 1 100 of them', bulk: () => arrayOf(`${'['.repeat(899)}${']'.repeat(899)}`, 1_100) },
  {
    shape: `99 objects of ${MAX_MEMBERS - 1} unknown keys`,
    bulk: () => arrayOf(keys(MAX_MEMBERS - 1), 99),
  },
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gateway-contract-bounds-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One NDJSON line holding the payload's text as its record's payload. */
const ndjsonLine = (payloadText: string, direction: string) =>
  `{"operationId":"initiatePayment","direction":"${direction}","query":${JSON.stringify(query)},"payload":${payloadText}}\n`;

/** A HAR file of one call of pay whose request body is the text. */
const harWith = (requestText: string) =>
  JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      entries: [
        {
          request: {
            method: 'POST',
            url: `https://router.example/aoa-acquiring-biz/v2/payment?mid=${query.mid}&orderId=${query.orderId}`,
            postData: { mimeType: 'application/json', text: requestText },
          },
          response: {
            status: 200,
            content: { mimeType: 'application/json', text: JSON.stringify(payAnswer?.payload) },
          },
        },
      ],
    },
  });

/** Runs the command on one input written to a file, measured; the input is removed after. */
async function measured(name: string, text: string, args: (file: string) => string[]) {
  const file = join(dir, name);
  writeFileSync(file, text);
  try {
    const result = await runNode([...MEASURED, BIN, 'validate', ...args(file), '--format', 'json'], {
      timeoutMs: 120_000,
    });
    const rss = Number(/maxRSS=(\d+)/.exec(result.stderr)?.[1]);
    const lines = result.stdout.trim() === '' ? [] : result.stdout.trim().split('\n');
    return {
      ...result,
      rss,
      problems: lines.map((line) => JSON.parse(line) as { rule: string; message: string; pointer: string }),
    };
  } finally {
    rmSync(file, { force: true });
  }
}

/** The three input forms of one request payload's text, each at most `SIZE` bytes. */
function forms(make: (size: number) => string) {
  return [
    {
      form: 'a JSON file',
      name: 'input.json',
      text: make(SIZE - 1_000),
      args: (f: string) => ['initiatePayment', 'request', f, ...queryArgs],
    },
    {
      form: 'an NDJSON line',
      name: 'input.ndjson',
      text: ndjsonLine(make(SIZE - 1_000), 'request'),
      args: (f: string) => ['--ndjson', f],
    },
    // A HAR file escapes the quotes of the body: the body is made smaller to keep the file within 16 MiB.
    {
      form: 'a HAR body',
      name: 'input.har',
      text: harWith(make(Math.floor(SIZE * 0.8))),
      args: (f: string) => ['--har', f],
    },
  ];
}
const queryArgs = ['--query', `mid=${query.mid}`, '--query', `orderId=${query.orderId}`];

describe('inputs of 16 MiB in bounded memory', () => {
  for (const { shape, bulk, rule } of BEYOND) {
    it(`refuses ${shape}, in one line that names the bound, before building it`, async () => {
      for (const { form, name, text, args } of forms((size) => withExtra(payRequest?.payload, bulk(size)))) {
        expect(text.length, form).toBeLessThanOrEqual(SIZE);
        const run = await measured(name, text, args);
        const why = `${shape} as ${form}: ${run.stderr.slice(0, 300)}`;
        expect(run.status, why).toBe(1);
        expect(run.stderr, why).not.toMatch(/\n\s+at |Error|heap/);
        expect(run.stderr, why).toMatch(/^\d+ payloads?: \d+ valid, \d+ invalid\nmaxRSS=\d+\n$/);
        expect(run.rss, why).toBeLessThan(MAX_RSS_KIB);
        // The HAR's response is judged too: the request's refusal is its one problem.
        const refused = run.problems.filter((p) => p.rule !== 'required' && p.rule !== 'additionalProperties');
        expect(refused, why).toEqual([
          expect.objectContaining({
            pointer: '',
            rule,
            message: expect.stringContaining(
              rule === 'maxValues' ? 'more than 1 000 000 JSON values' : 'more than 10 000 members',
            ),
          }),
        ]);
      }
    }, 120_000);
  }

  for (const { shape, bulk } of WITHIN) {
    it(`judges ${shape} padded to 16 MiB: the request invalid by its unknown member, the answer valid`, async () => {
      const requestText = padded(withExtra(payRequest?.payload, bulk()), SIZE - 1_000);
      const request = await measured('request.json', requestText, (f) => [
        'initiatePayment',
        'request',
        f,
        ...queryArgs,
      ]);
      const why = `${shape}: ${request.stderr.slice(0, 300)}`;
      expect(request.status, why).toBe(1);
      expect(request.rss, why).toBeLessThan(MAX_RSS_KIB);
      expect(request.problems.map((p) => p.rule)).toContain('additionalProperties');
      expect(request.problems.map((p) => p.rule)).not.toContain('maxValues');

      const answerText = padded(withExtra(payAnswer?.payload, bulk()), SIZE - 1_000);
      const answer = await measured('answer.json', answerText, (f) => ['initiatePayment', 'response', f]);
      expect(answer.status, `${shape}: ${answer.stderr.slice(0, 300)}`).toBe(0);
      expect(answer.rss, shape).toBeLessThan(MAX_RSS_KIB);
    }, 120_000);
  }
});

describe('a HAR file of 16 MiB of lines', () => {
  it('places its entries on their lines without an index of every line', async () => {
    // 16 million newlines between two entries: an index of every newline held 16 million numbers (380 MB).
    const entry = JSON.stringify(JSON.parse(harWith(withExtra(payRequest?.payload, '1'))).log.entries[0]);
    const newlines = SIZE - 2 * entry.length - 100;
    const text = `{"log":{"entries":[${entry}${'\n'.repeat(newlines)},${entry}]}}`;
    const run = await measured('lines.har', text, (f) => ['--har', f]);
    expect(run.status, run.stderr.slice(0, 300)).toBe(1);
    expect(run.rss).toBeLessThan(MAX_RSS_KIB);
    // Each entry's request, invalid by its unknown member: the first on line 1, the second after the newlines.
    expect(run.problems.map((p) => [p.rule, (p as { line?: number }).line])).toEqual([
      ['additionalProperties', 1],
      ['additionalProperties', newlines + 1],
    ]);
  }, 120_000);
});

describe('the report of a run of many small payloads', () => {
  it('is written within 256 MB in every format that lists each problem, read from a pipe', async () => {
    // Nearly 16 MiB of NDJSON: 99 000 small pay requests, each invalid (several problems each), so that
    // the JSON lines, JUnit and SARIF reports hold about 40 MB. Each was built whole before it was
    // written (a SARIF log of them peaked near 500 MB, JSON lines piped near 300 MB).
    const COUNT = 99_000;
    const line = (i: number) =>
      JSON.stringify({
        operationId: 'initiatePayment',
        direction: 'request',
        payload: { head: { x: i }, body: { mid: `M${i}` } },
        query,
      });
    const lines = Array.from({ length: COUNT }, (_, i) => line(i));
    const text = `${lines.join('\n')}\n`;
    expect(text.length).toBeLessThanOrEqual(SIZE);
    const file = join(dir, 'many.ndjson');
    writeFileSync(file, text);
    try {
      for (const format of ['json', 'junit', 'sarif']) {
        const run = await runNode([...MEASURED, BIN, 'validate', '--ndjson', file, '--format', format], {
          timeoutMs: 120_000,
        });
        const why = `${format}: ${run.stderr.slice(0, 300)}`;
        expect(run.status, why).toBe(1);
        expect(run.stderr, why).toMatch(/^99000 payloads: 0 valid, 99000 invalid\nmaxRSS=\d+\n$/);
        expect(run.stdout.length, why).toBeGreaterThan(20_000_000);
        expect(Number(/maxRSS=(\d+)/.exec(run.stderr)?.[1]), why).toBeLessThan(MAX_RSS_KIB);
      }
    } finally {
      rmSync(file, { force: true });
    }
  }, 300_000);
});
