// The records of a run, as read from files, directories and globs, NDJSON and HAR: what is read,
// what is a failed case and why, what is skipped, and the lines problems are placed on.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileRecords } from '../../src/inputs/files.js';
import { expandPaths, matchName, shownPath } from '../../src/inputs/glob.js';
import { harRecords } from '../../src/inputs/har.js';
import { harFileRecords } from '../../src/inputs/harFile.js';
import { jsonBoundPassed, MAX_DEPTH, MAX_MEMBERS, MAX_VALUES, parseBounded } from '../../src/inputs/limits.js';
import { ndjsonRecords } from '../../src/inputs/ndjson.js';
import { ndjsonFileRecords } from '../../src/inputs/ndjsonFile.js';
import type { PayloadRecord } from '../../src/validation/validateMany.js';
import { validateMany } from '../../src/validation/validateMany.js';
import { fcParameters } from '../helpers/arbitraries.js';
import { contractExamples } from '../helpers/examples.js';
import { harEntry, harOf } from '../helpers/har.js';

let dir: string;
const cwd = process.cwd();
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gateway-contract-inputs-'));
  for (const f of [
    'a/one.json',
    'a/two.json',
    'a/notes.txt',
    'a/b/three.json',
    'a/b/c/four.json',
    'a/.hidden/five.json',
    'x.json',
  ]) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), '{}');
  }
  symlinkSync(join(dir, 'a'), join(dir, 'a', 'b', 'loop'));
  process.chdir(dir);
});
afterAll(() => {
  process.chdir(cwd);
  rmSync(dir, { recursive: true, force: true });
});

async function all(records: AsyncIterable<PayloadRecord> | Iterable<PayloadRecord>): Promise<PayloadRecord[]> {
  const list: PayloadRecord[] = [];
  for await (const r of records) list.push(r);
  return list;
}

describe('files, directories and glob patterns', () => {
  it('expands a directory to its .json files at any depth, in name order, without hidden ones or links to directories', () => {
    expect(expandPaths(['a'])).toEqual({
      files: ['a/b/c/four.json', 'a/b/three.json', 'a/one.json', 'a/two.json'].sort(),
      empty: [],
      truncated: false,
    });
  });

  it('matches *, ** and ? in patterns, and keeps plain paths as given', () => {
    expect(expandPaths(['a/*.json']).files).toEqual(['a/one.json', 'a/two.json']);
    expect(expandPaths(['a/**/*.json']).files).toEqual([
      'a/b/c/four.json',
      'a/b/three.json',
      'a/one.json',
      'a/two.json',
    ]);
    expect(expandPaths(['**/t??.json']).files).toEqual(['a/two.json']);
    expect(expandPaths(['a/**']).files).toEqual([
      'a/b/c/four.json',
      'a/b/three.json',
      'a/notes.txt',
      'a/one.json',
      'a/two.json',
    ]);
    expect(expandPaths([`${dir}/a/*.json`]).files).toEqual([join(dir, 'a/one.json'), join(dir, 'a/two.json')]);
    expect(expandPaths(['x.json', 'missing.json', 'x.json']).files).toEqual(['x.json', 'missing.json']);
  });

  it('reports the arguments that name no file, and cuts the list at maxFiles', () => {
    expect(expandPaths(['a/*.yaml', 'a/.hidden/nothing-here']).empty).toEqual(['a/*.yaml']);
    const cut = expandPaths(['a'], { maxFiles: 2 });
    expect(cut.files).toHaveLength(2);
    expect(cut.truncated).toBe(true);
    expect(expandPaths(['a'], { maxFiles: 4 }).truncated).toBe(false);
  });

  it('matches a name against a pattern in steps bounded by their lengths, whatever the stars', () => {
    // A pattern of many stars against a long name that almost matches: a backtracking matcher
    // takes seconds (six stars, 60 characters) to minutes (five stars, 255 characters).
    const cases: [string, string][] = [
      ['*a*a*a*a*b.json', `${'a'.repeat(250)}.json`],
      ['*a*a*a*a*a*b.json', `${'a'.repeat(55)}.json`],
      ['*?*?*?*?*?*?*x', '?'.repeat(255)],
    ];
    for (const [pattern, name] of cases) {
      const work = { steps: 0 };
      expect(matchName(pattern, name, work)).toBe(false);
      expect(work.steps, pattern).toBeLessThanOrEqual(2 * (name.length + 1) * (pattern.length + 1));
    }
    const long = `${'a'.repeat(250)}.json`;
    writeFileSync(long, '{}');
    const started = performance.now();
    expect(expandPaths(['*a*a*a*a*b.json']).files).toEqual([]);
    expect(expandPaths(['*a*a*a*a*.json']).files).toEqual([long]);
    expect(performance.now() - started).toBeLessThan(1000);
    rmSync(long);
  });

  it('matches * and ? as before: any run of characters, one character', () => {
    const yes: [string, string][] = [
      ['*', ''],
      ['*', 'x.json'],
      ['*.json', '.json'],
      ['a*b*c', 'abc'],
      ['a*b*c', 'aXbYbZc'],
      ['?', 'é'],
      ['??', '😀x'],
      ['*x*', 'axbxc'],
      ['a**b', 'ab'],
      ['t??.json', 'two.json'],
    ];
    const no: [string, string][] = [
      ['?', ''],
      ['a*b*c', 'acb'],
      ['*.json', 'x.jsonx'],
      ['t??.json', 'three.json'],
      ['x', 'X'],
      ['a.c', 'abc'],
    ];
    for (const [pattern, name] of yes) expect(matchName(pattern, name), `${pattern} ${name}`).toBe(true);
    for (const [pattern, name] of no) expect(matchName(pattern, name), `${pattern} ${name}`).toBe(false);
  });

  it('reads a file whose name is not UTF-8 by its own name, and shows that name with its bytes escaped', async () => {
    // `café.json` written in Latin-1, in a directory named so too: a name read as text no longer
    // names the file (it was listed, then "cannot be read (ENOENT)").
    const [example] = contractExamples();
    const latin = Buffer.from('latin');
    const sub = Buffer.concat([latin, Buffer.from('/d\xe9j\xe0', 'latin1')]);
    mkdirSync(sub, { recursive: true });
    writeFileSync(Buffer.concat([latin, Buffer.from('/caf\xe9.json', 'latin1')]), JSON.stringify(example?.payload));
    writeFileSync(Buffer.concat([sub, Buffer.from('/\xff.json', 'latin1')]), JSON.stringify(example?.payload));
    const shown = ['latin/caf\\xE9.json', 'latin/d\\xE9j\\xE0/\\xFF.json'];
    for (const args of [['latin'], ['latin/*.json', 'latin/*/*.json'], ['latin/**/*.json']]) {
      const expanded = expandPaths(args);
      expect(expanded.files.map(shownPath), args.join(' ')).toEqual(shown);
      const records = await all(
        fileRecords(expanded.files, {
          operationId: example?.operationId as string,
          direction: example?.direction as string,
        }),
      );
      expect(records.map((r) => [r.name, r.source?.file, r.unreadable])).toEqual(
        shown.map((name) => [name, name, undefined]),
      );
      expect(records[0]?.payload).toEqual(example?.payload);
    }
    expect(shownPath(Buffer.from('ok/\u00e9t\u00e9 \u{1f600}.json'))).toBe('ok/\u00e9t\u00e9 \u{1f600}.json');
    expect(shownPath(Buffer.from([0x61, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98]))).toBe(
      'a\\xC3(\\xED\\xA0\\x80\\xF0\\x9F\\x98',
    );
    rmSync('latin', { recursive: true });
  });

  it('reads each file within the size limit: a file that cannot be read or parsed is a failed record with its reason', async () => {
    const [example] = contractExamples();
    writeFileSync('good.json', JSON.stringify(example?.payload, null, 2));
    writeFileSync('big.json', `{"body": "${'x'.repeat(3000)}"}`);
    writeFileSync('bad.json', '{"head": {"token": 4111111111111111x}}');
    writeFileSync('latin1.json', Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]));
    writeFileSync('secret.json', '{}');
    chmodSync('secret.json', 0o000);
    const records = await all(
      fileRecords(['good.json', 'big.json', 'bad.json', 'latin1.json', 'a', 'missing.json', '-', 'secret.json'], {
        operationId: 'tokenizeCard',
        direction: 'request',
        maxBytes: 2000,
        stdin: Readable.from([Buffer.from('{"head":')]),
      }),
    );
    expect(records[0]).toMatchObject({
      name: 'good.json',
      operationId: 'tokenizeCard',
      payload: example?.payload,
      source: { file: 'good.json' },
    });
    const reasons = records.slice(1).map((r) => [r.name, r.unreadable?.rule, r.unreadable?.message]);
    expect(reasons.slice(0, 6)).toEqual([
      ['big.json', 'maxBytes', 'The input is larger than 2000 bytes (see --max-bytes); it was not read.'],
      ['bad.json', 'json', expect.stringMatching(/^The input is not JSON: malformed JSON at line 1, column \d+\.$/)],
      ['latin1.json', 'json', 'The input is not JSON: the input is not valid UTF-8 text.'],
      ['a', 'readable', 'The input is a directory, not a file.'],
      ['missing.json', 'readable', 'The input cannot be read (ENOENT).'],
      ['standard input', 'json', expect.stringMatching(/^The input is not JSON: malformed JSON/)],
    ]);
    // Root reads every file: the last one is then simply read.
    if (process.getuid?.() !== 0)
      expect(reasons[6]).toEqual(['secret.json', 'readable', 'The input cannot be read (EACCES).']);
    expect(JSON.stringify(records.slice(1))).not.toContain('4111');
  });
});

/** What a JSON value holds: its values at any depth (itself included), its largest object's members, its depth of objects and arrays. */
function measure(value: unknown): { values: number; members: number; depth: number } {
  if (value === null || typeof value !== 'object') return { values: 1, members: 0, depth: 0 };
  const children = Object.values(value).map(measure);
  return {
    values: 1 + children.reduce((sum, c) => sum + c.values, 0),
    members: Math.max(Array.isArray(value) ? 0 : children.length, ...children.map((c) => c.members)),
    depth: 1 + Math.max(0, ...children.map((c) => c.depth)),
  };
}

/** JSON text of any value, spaced in one of the ways JSON allows (keys with escapes, strings with quotes, brackets and colons). */
const jsonTexts = fc
  .tuple(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(undefined, 0, 1, '\t', ' \r\n'))
  .map(([value, space]) => ({ value, text: JSON.stringify(value, null, space) }));

describe('the bounds of a JSON text', () => {
  it('counts exactly the values, the largest object and the depth of any JSON text: within each bound it passes, one past it is named', () => {
    fc.assert(
      fc.property(jsonTexts, ({ value, text }) => {
        const { values, members, depth } = measure(value);
        const exact = { depth: Math.max(depth, 1), values, members: Math.max(members, 1) };
        expect(jsonBoundPassed(text, exact)).toBeNull();
        expect(jsonBoundPassed(text, { ...exact, values: values - 1 })).toBe('maxValues');
        if (members > 0) expect(jsonBoundPassed(text, { ...exact, members: members - 1 })).toBe('maxMembers');
        if (depth > 0) expect(jsonBoundPassed(text, { ...exact, depth: depth - 1 })).toBe('maxDepth');
      }),
      fcParameters(300),
    );
  });

  it('parses within the bounds exactly as JSON.parse does, and refuses past them in one sentence that names the bound', () => {
    fc.assert(
      fc.property(jsonTexts, ({ value, text }) => {
        expect(parseBounded(text, 'The input')).toEqual({ ok: true, value: JSON.parse(text) });
        expect(measure(value).values).toBeLessThanOrEqual(MAX_VALUES);
      }),
      fcParameters(200),
    );
    expect(parseBounded(`[${'0,'.repeat(MAX_VALUES)}0]`, 'Line 2')).toEqual({
      ok: false,
      bound: true,
      rule: 'maxValues',
      message:
        'Line 2 holds more than 1 000 000 JSON values (objects, arrays, strings, numbers, literals); it was not parsed.',
    });
    const wide = `{${Array.from({ length: MAX_MEMBERS + 1 }, (_, i) => `"k${i}":[]`).join(',')}}`;
    expect(parseBounded(wide, 'The input')).toMatchObject({
      ok: false,
      rule: 'maxMembers',
      message: 'The input has an object of more than 10 000 members; it was not parsed.',
    });
    expect(parseBounded(`${'['.repeat(MAX_DEPTH + 1)}${']'.repeat(MAX_DEPTH + 1)}`, 'The input')).toMatchObject({
      ok: false,
      rule: 'maxDepth',
    });
    // What is not JSON is still said so, with the place and never the text.
    expect(parseBounded('{"a": tru}', 'The input')).toEqual({
      ok: false,
      bound: false,
      rule: 'json',
      message: 'The input is not JSON: malformed JSON at line 1, column 7.',
    });
  });
});

describe('NDJSON', () => {
  const pay = contractExamples().find((e) => e.operationId === 'initiatePayment' && e.direction === 'request');
  const record = (extra: object = {}) =>
    JSON.stringify({
      operationId: 'initiatePayment',
      direction: 'request',
      payload: pay?.payload,
      query: pay?.query,
      ...extra,
    });

  it('reads one record per line, whatever the chunks, with CRLF and blank lines', async () => {
    const text = `${record({ name: 'first' })}\r\n\r\n   \n${record()}\n${record()}`;
    // Cut into chunks of 7 bytes: lines span chunks.
    const chunks = [];
    for (let i = 0; i < text.length; i += 7) chunks.push(Buffer.from(text.slice(i, i + 7)));
    const records = await all(ndjsonRecords(Readable.from(chunks), { file: 'cases.ndjson' }));
    expect(records.map((r) => [r.name, r.source?.line, r.unreadable])).toEqual([
      ['first', 1, undefined],
      ['cases.ndjson:4', 4, undefined],
      ['cases.ndjson:5', 5, undefined],
    ]);
    expect(records[0]).toMatchObject({
      operationId: 'initiatePayment',
      direction: 'request',
      payload: pay?.payload,
      query: pay?.query,
    });
    expect((await validateMany(records)).counts).toMatchObject({ valid: 3 });
  });

  it('reads a query whose repeated names hold arrays, as validate() does: a repeated parameter of the contract is its problem', async () => {
    const query = pay?.query as Record<string, string>;
    const lines = [
      record({ query: { ...query, orderId: [query.orderId] } }),
      record({ query: { ...query, orderId: [query.orderId, 'OTHER'] } }),
    ];
    const records = await all(ndjsonRecords(Readable.from([Buffer.from(lines.join('\n'))]), { file: 'q.ndjson' }));
    expect(records.map((r) => r.unreadable)).toEqual([undefined, undefined]);
    const result = await validateMany(records);
    expect(result.cases.map((c) => c.errors.map((e) => [e.in, e.pointer, e.rule]))).toEqual([
      [],
      [['query', '/orderId', 'repeatedParameter']],
    ]);
  });

  it('fails each malformed line with its reason, and reads on up to a line longer than the limit', async () => {
    const lines = [
      record(),
      '{"operationId": "initiatePayment", "payload": {"cvv": 5817x}}',
      '[1, 2]',
      '{"direction": "request", "payload": {}}',
      '{"operationId": "initiatePayment", "direction": "request"}',
      '{"operationId": "initiatePayment", "direction": "request", "payload": {}, "query": {"mid": 5}}',
      '{"operationId": "initiatePayment", "operationId": "modifyOrder", "direction": "request", "payload": {}}',
      `{"operationId": "initiatePayment", "direction": "request", "payload": "${'x'.repeat(3000)}"}`,
      record(),
    ];
    const records = await all(
      ndjsonRecords(Readable.from([Buffer.from(lines.join('\n'))]), { file: '-', maxLineBytes: 2000 }),
    );
    expect(records.map((r) => [r.source?.line, r.unreadable?.rule])).toEqual([
      [1, undefined],
      [2, 'json'],
      [3, 'record'],
      [4, 'record'],
      [5, 'record'],
      [6, 'record'],
      [7, 'json'],
      [8, 'maxBytes'],
    ]);
    expect(records[1]?.unreadable?.message).toMatch(/^Line 2 is not JSON: malformed JSON at column \d+\.$/);
    // Its end could be any number of bytes away: the input is not read past it.
    expect(records[7]?.unreadable?.message).toBe(
      'Line 8 is longer than 2000 bytes (see --max-bytes); the input was not read past it.',
    );
    expect(JSON.stringify(records)).not.toContain('5817');
    const result = await validateMany(records);
    expect(result.counts).toEqual({ cases: 8, valid: 1, invalid: 7, skipped: 0 });
  });

  it('reads no more than --max-bytes of a line that never ends, or of blank lines', async () => {
    let pulled = 0;
    function* endless(chunk: Buffer) {
      for (;;) {
        pulled += chunk.length;
        yield chunk;
      }
    }
    // `--ndjson /dev/zero`: one line of zero bytes, forever.
    const zeros = await all(
      ndjsonRecords(endless(Buffer.alloc(64 * 1024)), { file: '/dev/zero', maxLineBytes: 1024 * 1024 }),
    );
    expect(zeros.map((r) => [r.source?.line, r.unreadable?.rule])).toEqual([[1, 'maxBytes']]);
    expect(pulled).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
    // Blank lines, forever (1 GB of them took over two minutes and validated nothing).
    pulled = 0;
    const blank = await all(
      ndjsonRecords(endless(Buffer.alloc(64 * 1024, '\n')), { file: 'blank.ndjson', maxLineBytes: 1024 * 1024 }),
    );
    expect(blank).toEqual([
      {
        name: 'blank.ndjson:1',
        source: { file: 'blank.ndjson', line: 1 },
        unreadable: {
          rule: 'maxBytes',
          message:
            'Lines 1 to 1048577 hold no record: more than 1048576 bytes of blank lines (see --max-bytes); the input was not read past them.',
        },
      },
    ]);
    expect(pulled).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
    // Blank lines between records count from the last record.
    const limit = Buffer.byteLength(record()) + 1;
    const a = Math.floor(limit / 2);
    const b = Math.floor(limit / 4);
    const spaced = `${record()}\n${'\n'.repeat(a)}${record()}\n${' \r\n'.repeat(b)}${record()}\n`;
    const read = await all(ndjsonRecords([Buffer.from(spaced)], { file: 's.ndjson', maxLineBytes: limit }));
    expect(read.map((r) => [r.source?.line, r.unreadable?.rule])).toEqual([
      [1, undefined],
      [a + 2, undefined],
      [a + b + 3, undefined],
    ]);
  });

  it('waits a bounded time for a FIFO or a pipe, and reads one as a stream within the limits', async () => {
    if (process.platform === 'win32') return;
    const fifo = join(dir, 'records.fifo');
    spawnSync('mkfifo', [fifo]);
    // No writer: opening it for reading waited forever.
    const started = performance.now();
    const nobody = await all(ndjsonFileRecords(fifo, { waitMs: 200 }));
    expect(performance.now() - started).toBeLessThan(5000);
    expect(nobody).toEqual([
      {
        name: fifo,
        source: { file: fifo, line: 1 },
        unreadable: { rule: 'readable', message: 'The input sent nothing for 200 ms (see --timeout-ms).' },
      },
    ]);
    // A writer: its records are read as they come.
    const writer = spawn('sh', [
      '-c',
      `printf '%s\\n' "$1" > "$2"; printf '%s\\n' "$1" > /dev/null`,
      'sh',
      record(),
      fifo,
    ]);
    const records = await all(ndjsonFileRecords(fifo, { waitMs: 5000 }));
    await new Promise((resolve) => writer.on('close', resolve));
    expect(records.map((r) => [r.source?.line, r.operationId])).toEqual([[1, 'initiatePayment']]);
    // A payload file that is a pipe (`<(cmd)` names one): read as a stream, within --max-bytes.
    const [example] = contractExamples();
    for (const [content, rule] of [
      [JSON.stringify(example?.payload), undefined],
      ['x'.repeat(5000), 'maxBytes'],
    ] as const) {
      const feeder = spawn('sh', ['-c', 'printf %s "$1" > "$2"', 'sh', content, fifo]);
      const [one] = await all(
        fileRecords([fifo], { operationId: 'tokenizeCard', direction: 'request', maxBytes: 2000, waitMs: 5000 }),
      );
      // Gone before the FIFO is opened again: a writer still holding it would end the next read at once.
      feeder.kill();
      await new Promise((resolve) =>
        feeder.exitCode === null && feeder.signalCode === null ? feeder.on('close', resolve) : resolve(undefined),
      );
      expect(one?.unreadable?.rule).toBe(rule);
      if (!rule) expect(one?.payload).toEqual(example?.payload);
    }
    const [stalled] = await all(
      fileRecords([fifo], { operationId: 'tokenizeCard', direction: 'request', waitMs: 200 }),
    );
    expect(stalled?.unreadable).toEqual({
      rule: 'readable',
      message: 'The input sent nothing for 200 ms (see --timeout-ms).',
    });
    rmSync(fifo);
  });

  it('fails a file that cannot be read as one case', async () => {
    expect(await all(ndjsonFileRecords('missing.ndjson'))).toEqual([
      {
        name: 'missing.ndjson',
        source: { file: 'missing.ndjson', line: 1 },
        unreadable: { rule: 'readable', message: 'The input cannot be read (ENOENT).' },
      },
    ]);
    writeFileSync('two.ndjson', `${record()}\n${record()}\n`);
    expect((await all(ndjsonFileRecords('two.ndjson'))).map((r) => r.source?.line)).toEqual([1, 2]);
  });
});

describe('HAR', () => {
  const examples = contractExamples();
  const find = (operationId: string, direction: string) =>
    examples.find((e) => e.operationId === operationId && e.direction === direction) as (typeof examples)[0];
  const pay = find('initiatePayment', 'request');
  const payAnswer = find('initiatePayment', 'response');
  const tokenize = find('tokenizeCard', 'request');
  const notification = find('notifyTokenStatus', 'request');
  const reply = find('notifyTokenStatus', 'response');

  const har = harOf([
    // 1: pay on the router, under a base path, its answer as base64.
    harEntry(
      'POST',
      'https://router.example/staging/aoa-acquiring-biz/v2/payment?mid=MERCHANT0001&orderId=ORDER-1001',
      pay.payload,
      payAnswer.payload,
      {
        base64: true,
      },
    ),
    // 2: tokenize on the gateway: mid in the path, requestId in the query.
    harEntry(
      'POST',
      `https://gateway.example/coft-center/coft/merchant/MERCHANT0001/tokenize?requestId=${tokenize.payload.head.requestId}`,
      tokenize.payload,
    ),
    // 3: pay without its query: requiredParameters. Its answer is an HTML error page: not judged.
    harEntry('POST', 'https://router.example/aoa-acquiring-biz/v2/payment', pay.payload, '<html>Bad gateway</html>', {
      mimeType: 'text/html',
    }),
    // 4: another host altogether; 5: the browser's preflight of a contract path.
    harEntry('GET', 'https://cdn.example/assets/4929180731215548/app.js?token=Zq7s3cr3T', undefined, 'x'),
    harEntry('OPTIONS', 'https://router.example/aoa-acquiring-biz/v2/payment?mid=M', undefined, ''),
    // 6: the token notification to the merchant's own address, recognised by its envelope.
    harEntry('POST', 'https://merchant.example/hooks/token-status', notification.payload, reply.payload),
    // 7: a body that is not JSON; 8: no body recorded; 9: a JSON answer that is broken.
    harEntry('POST', 'https://router.example/aoa-acquiring-biz/v2/modifyOrder?mid=M&orderId=O', 'mid=M&orderId=O'),
    harEntry('POST', 'https://router.example/aoa-acquiring-biz/v2/modifyOrder?mid=M&orderId=O', undefined),
    harEntry(
      'POST',
      'https://gateway.example/order/v2/preAuth',
      find('preAuthorize', 'request').payload,
      '{"head": {',
      { mimeType: 'application/json' },
    ),
    // 10: no URL at all.
    { request: { method: 'POST' }, response: {} },
  ]);

  it('validates each entry posted to a path of the contract, on any host and under any base path, and skips the others', async () => {
    const records = [...harRecords(har, { file: 'traffic.har' })];
    const result = await validateMany(records);
    const summary = result.cases.map((c) => [
      c.name.replace('traffic.har entry ', '#'),
      c.operationId,
      c.direction,
      c.valid,
      c.errors.map((e) => e.rule),
    ]);
    expect(summary).toEqual([
      ['#1', 'initiatePayment', 'request', true, []],
      ['#1', 'initiatePayment', 'response', true, []],
      ['#2', 'tokenizeCard', 'request', true, []],
      ['#3', 'initiatePayment', 'request', false, ['requiredParameters', 'requiredParameters']],
      ['#6', 'notifyTokenStatus', 'request', true, []],
      ['#6', 'notifyTokenStatus', 'response', true, []],
      ['#7', 'modifyOrder', 'request', false, ['json']],
      ['#8', 'modifyOrder', 'request', false, ['readable']],
      ['#9', 'preAuthorize', 'request', true, []],
      ['#9', 'preAuthorize', 'response', false, ['json']],
    ]);
    expect(result.skipped).toEqual([
      {
        index: 4,
        name: 'traffic.har entry 4',
        reason: 'GET cdn.example/assets/<...>/app.js: no operation of the contract at this address',
      },
      {
        index: 5,
        name: 'traffic.har entry 5',
        reason: 'OPTIONS router.example/aoa-acquiring-biz/v2/payment: not a POST, the method of initiatePayment',
      },
      { index: 12, name: 'traffic.har entry 10', reason: 'the entry has no URL' },
    ]);
    const text = JSON.stringify(result);
    for (const secret of ['4929180731215548', 'Zq7s3cr3T']) expect(text).not.toContain(secret);
  });

  it('refuses a recorded body past the bounds of a JSON text, and still passes over an answer that is not JSON, however many words it holds', () => {
    const url = 'https://router.example/aoa-acquiring-biz/v2/payment?mid=M&orderId=O';
    const page = `<html>${'word '.repeat(1_100_000)}</html>`;
    const many = `[${'0,'.repeat(1_000_000)}0]`;
    const text = harOf([
      harEntry('POST', url, pay.payload, page, { mimeType: 'text/html' }),
      harEntry('POST', url, many, many, { mimeType: 'text/plain' }),
    ]);
    const records = [...harRecords(text, { file: 'big.har' })].map((r) => [r.name, r.direction, r.unreadable?.rule]);
    expect(records).toEqual([
      ['big.har entry 1', 'request', undefined],
      ['big.har entry 2', 'request', 'maxValues'],
      ['big.har entry 2', 'response', 'maxValues'],
    ]);
  });

  it('takes the webhook from the path --webhook-path names, whatever its envelope', async () => {
    const broken = { head: notification.payload.head, body: { mid: 'MERCHANT0001' } };
    const text = harOf([
      harEntry('POST', 'https://merchant.example/base/hooks/token', broken, reply.payload),
      harEntry('POST', 'https://merchant.example/hooks/other', notification.payload),
    ]);
    const result = await validateMany(harRecords(text, { file: 't.har', webhookPath: '/hooks/token' }));
    expect(result.cases.map((c) => [c.name, c.operationId, c.direction, c.valid])).toEqual([
      ['t.har entry 1', 'notifyTokenStatus', 'request', false],
      ['t.har entry 1', 'notifyTokenStatus', 'response', true],
    ]);
    expect(result.skipped.map((s) => s.name)).toEqual(['t.har entry 2']);
  });

  it('places the problems of an entry on the line of its recorded body', async () => {
    const text = harOf([harEntry('POST', 'https://router.example/aoa-acquiring-biz/v2/payment', pay.payload)], 2);
    const result = await validateMany(harRecords(text, { file: 't.har' }));
    const line = text.split('\n').findIndex((l) => l.includes('"text"')) + 1;
    expect(line).toBeGreaterThan(5);
    expect(result.cases[0]).toMatchObject({ file: 't.har', line, errors: [{ line }, { line }] });
  });

  it('places entries on their lines in one pass over the file, whatever the order of their members', async () => {
    // The response recorded before the request: each entry's lines are found out of order.
    const swapped = (entry: any) => ({
      response: entry.response,
      request: entry.request,
      startedDateTime: entry.startedDateTime,
    });
    const entry = swapped(
      harEntry(
        'POST',
        'https://router.example/aoa-acquiring-biz/v2/payment?mid=M&orderId=O',
        pay.payload,
        payAnswer.payload,
      ),
    );
    const small = harOf([entry, entry, entry], 2);
    const lines = small.split('\n');
    const textLines = lines.flatMap((l, i) => (l.includes('"text"') ? [i + 1] : []));
    const placed = [...harRecords(small, { file: 's.har' })].map((r) => [r.direction, r.source?.line]);
    // Per entry, the response's body comes first in the file, the request's second.
    expect(placed).toEqual(
      [0, 1, 2].flatMap((i) => [
        ['request', textLines[2 * i + 1]],
        ['response', textLines[2 * i]],
      ]),
    );

    // About 6 MiB of such entries, indented: counting lines from the start of the file for each
    // record took seconds here (46 s at 16 MiB); one pass takes a fraction of one.
    const one = harOf([entry], 2).length;
    const big = harOf(
      Array.from({ length: Math.floor((6 * 1024 * 1024) / one) }, () => entry),
      2,
    );
    const started = performance.now();
    let count = 0;
    let last = 0;
    for (const r of harRecords(big, { file: 'big.har' })) {
      count++;
      last = r.source?.line ?? 0;
    }
    const elapsed = performance.now() - started;
    expect(count).toBeGreaterThan(5000);
    // The last record is the last entry's response, whose body is the file's last but one.
    const bigLines = big.split('\n');
    expect(last).toBe(
      bigLines.findLastIndex(
        (l, i) => l.includes('"text"') && bigLines.slice(i + 1).some((m) => m.includes('"text"')),
      ) + 1,
    );
    expect(elapsed, `${Math.round(elapsed)} ms`).toBeLessThan(2000);
  });

  it('fails a file that is not a HAR, not JSON or cannot be read as one case', async () => {
    writeFileSync('not.har', '{"log": {}}');
    writeFileSync('broken.har', '{"log": ');
    const read = async (file: string) => (await all(harFileRecords(file))).map((r) => [r.name, r.unreadable?.rule]);
    expect(await read('not.har')).toEqual([['not.har', 'har']]);
    expect(await read('broken.har')).toEqual([['broken.har', 'json']]);
    expect(await read('missing.har')).toEqual([['missing.har', 'readable']]);
  });
});
