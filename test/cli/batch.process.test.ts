// `gateway-contract validate` as CI pipelines run it: many payloads in one process (files,
// directories, globs, NDJSON, HAR), every report format, --output, and the exit statuses.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { BIN, type CliResult, collectOutput, runCli } from '../helpers/cli.js';
import { contractExamples } from '../helpers/examples.js';
import { harEntry, harOf } from '../helpers/har.js';
import { sarifProblems } from '../helpers/sarifSchema.js';

const examples = contractExamples();
const find = (operationId: string, direction = 'request') =>
  examples.find((e) => e.operationId === operationId && e.direction === direction)!;
const pay = find('initiatePayment');
const QUERY = ['--query', 'mid=MERCHANT0001', '--query', 'orderId=ORDER-1001'];

let dir: string;
const at = (name: string) => join(dir, name);
function file(name: string, content: unknown) {
  mkdirSync(join(at(name), '..'), { recursive: true });
  writeFileSync(at(name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return at(name);
}
const ndjson = (records: unknown[]) =>
  `${records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`;
const jsonLines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gateway-contract-batch-'));
  const pays = examples.filter((e) => e.operationId === 'initiatePayment' && e.direction === 'request');
  for (const e of pays)
    file(`pay/ok/${e.name}.json`, {
      ...e.payload,
      body: { ...e.payload.body, mid: 'MERCHANT0001', orderId: 'ORDER-1001' },
    });
  const bad = structuredClone(pay.payload);
  delete bad.body.paymentMode;
  file('pay/bad/no-mode.json', bad);
  file('pay/bad/broken.json', '{"body": {"cvv": 5817x}}');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('many payload files in one run', () => {
  it('validates files, directories and globs together: exit 0 when every one is valid', async () => {
    const result = await runCli([
      'validate',
      'initiatePayment',
      'request',
      at('pay/ok'),
      `${dir}/pay/ok/payWith*.json`,
      ...QUERY,
    ]);
    expect(result).toMatchObject({ status: 0, stdout: '' });
    expect(result.stderr).toBe('8 payloads: 8 valid, 0 invalid\n');
  });

  it('goes on past a file that cannot be read or parsed, and exits 1', async () => {
    const result = await runCli([
      'validate',
      'initiatePayment',
      'request',
      `${dir}/pay/**/*.json`,
      at('pay/missing.json'),
      ...QUERY,
    ]);
    expect(result.status).toBe(1);
    const lines = jsonLines(result.stdout);
    expect(lines.map((l) => [l.name.replace(dir, ''), l.rule])).toEqual([
      ['/pay/bad/broken.json', 'json'],
      ['/pay/bad/no-mode.json', 'required'],
      ['/pay/missing.json', 'readable'],
    ]);
    expect(lines[1]).toMatchObject({ pointer: '/body/paymentMode', resultCode: '1007', line: expect.any(Number) });
    expect(result.stdout).not.toContain('5817');
    expect(result.stderr).toBe('11 payloads: 8 valid, 3 invalid\n');
  });

  it('demands the required parameters unless --no-parameters, in every input form', async () => {
    const files = await runCli(['validate', 'initiatePayment', 'request', at('pay/ok')]);
    expect(files.status).toBe(1);
    expect(new Set(jsonLines(files.stdout).map((l) => l.rule))).toEqual(new Set(['requiredParameters']));
    expect((await runCli(['validate', 'initiatePayment', 'request', at('pay/ok'), '--no-parameters'])).status).toBe(0);

    const records = ndjson([{ operationId: 'initiatePayment', direction: 'request', payload: pay.payload }]);
    expect((await runCli(['validate', '--ndjson', '-'], records)).status).toBe(1);
    expect((await runCli(['validate', '--ndjson', '-', '--no-parameters'], records)).status).toBe(0);

    const har = file(
      'no-query.har',
      harOf([harEntry('POST', 'https://router.example/aoa-acquiring-biz/v2/payment', pay.payload)]),
    );
    const recorded = await runCli(['validate', '--har', har]);
    expect(recorded.status).toBe(1);
    expect(jsonLines(recorded.stdout).map((l) => [l.in, l.pointer, l.rule])).toEqual([
      ['query', '/mid', 'requiredParameters'],
      ['query', '/orderId', 'requiredParameters'],
    ]);
    expect((await runCli(['validate', '--har', har, '--no-parameters'])).status).toBe(0);
  });

  it('reads a repeated query parameter as validate() does, in every input form: the problem repeatedParameter', async () => {
    const twice = ['--query', 'mid=MERCHANT0001', '--query', 'orderId=ORDER-1001', '--query', 'orderId=ORDER-1002'];
    const files = await runCli(['validate', 'initiatePayment', 'request', at('pay/ok/payWithWallet.json'), ...twice]);
    expect(files.status).toBe(1);
    expect(jsonLines(files.stdout).map((l) => [l.in, l.pointer, l.rule])).toEqual([
      ['query', '/orderId', 'repeatedParameter'],
    ]);

    const har = file(
      'twice.har',
      harOf([
        harEntry(
          'POST',
          'https://router.example/aoa-acquiring-biz/v2/payment?mid=MERCHANT0001&orderId=ORDER-1001&orderId=ORDER-1001',
          pay.payload,
        ),
      ]),
    );
    const recorded = await runCli(['validate', '--har', har]);
    expect(recorded.status).toBe(1);
    expect(jsonLines(recorded.stdout).map((l) => [l.in, l.pointer, l.rule])).toEqual([
      ['query', '/orderId', 'repeatedParameter'],
    ]);
  });

  it('writes the report to --output and the summary to the terminal', async () => {
    const out = at('report.xml');
    const result = await runCli([
      'validate',
      'initiatePayment',
      'request',
      at('pay'),
      ...QUERY,
      '--format',
      'junit',
      '--output',
      out,
    ]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('10 payloads: 8 valid, 2 invalid\n');
    const xml = readFileSync(out, 'utf8');
    expect(xml).toMatch(/^<\?xml/);
    expect((xml.match(/<testcase /g) ?? []).length).toBe(10);
    expect((xml.match(/<failure /g) ?? []).length).toBe(2);
  });
});

describe('file names', () => {
  it('reads a file whose name is not UTF-8, and escapes bytes and bidirectional-text characters in every name shown', async () => {
    file('names/keep.txt', '');
    const dirOf = at('names');
    writeFileSync(
      Buffer.concat([Buffer.from(`${dirOf}/`), Buffer.from('caf\xe9.json', 'latin1')]),
      JSON.stringify({ head: {}, body: {} }),
    );
    writeFileSync(join(dirOf, 'invoice_\u202enosj.json'), JSON.stringify({ head: {}, body: {} }));
    for (const format of ['json', 'text', 'junit', 'sarif', 'github']) {
      const result = await runCli(
        ['validate', 'preAuthorize', 'request', dirOf, '--format', format],
        undefined,
        {},
        dirOf,
      );
      expect(result.status, result.stderr).toBe(1);
      const out = result.stdout + result.stderr;
      expect(out, format).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ufffd]/);
      expect(out, format).not.toContain('cannot be read');
      expect(out, format).toMatch(/caf\\{1,2}xE9\.json/);
      expect(out, format).toMatch(/invoice_\\{1,2}u202Enosj\.json/);
    }
  });
});

describe('NDJSON', () => {
  it('validates records of every operation and direction, from a file or standard input', async () => {
    const records = examples.map((e) => ({
      operationId: e.operationId,
      direction: e.direction,
      payload: e.payload,
      query: e.query,
      path: e.path,
      name: e.name,
    }));
    const path = file('all.ndjson', ndjson(records));
    const fromFile = await runCli(['validate', '--ndjson', path]);
    expect(fromFile).toMatchObject({
      status: 0,
      stdout: '',
      stderr: `${records.length} payloads: ${records.length} valid, 0 invalid\n`,
    });
    const fromStdin = await runCli(['validate', '--ndjson', '-'], ndjson(records));
    expect(fromStdin.status).toBe(0);
  });

  it('fails malformed lines with their line number and reads on', async () => {
    const good = {
      operationId: 'preAuthorize',
      direction: 'request',
      payload: find('preAuthorize').payload,
      name: 'pre-auth',
    };
    const input = ndjson([
      good,
      '{"operationId": "preAuthorize", "direction": "request", "payload": {"mpin": 5817x}}',
      '',
      'not json',
      { ...good, operationId: 'payNow' },
      good,
    ]);
    const result = await runCli(['validate', '--ndjson', '-', '--format', 'github'], input);
    expect(result.status).toBe(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(
        /^::error title=<unknown> <unknown>%3A json::-:2: \(the payload\): Line 2 is not JSON: malformed JSON at column \d+\.$/,
      ),
      expect.stringMatching(/^::error title=<unknown> <unknown>%3A json::-:4: \(the payload\): Line 4 is not JSON: /),
      expect.stringMatching(
        /^::error title=payNow request%3A operationId::pre-auth: \(the payload\): The operationId "payNow" is not an operation of the contract/,
      ),
      '5 payloads: 2 valid, 3 invalid',
    ]);
    expect(result.stdout).not.toContain('5817');
  });

  it('github: prints its summary once, on standard output with the workflow commands', async () => {
    const good = {
      operationId: 'preAuthorize',
      direction: 'request',
      payload: find('preAuthorize').payload,
      name: 'pre-auth',
    };
    const valid = await runCli(['validate', '--ndjson', '-', '--format', 'github'], ndjson([good, good]));
    expect(valid).toEqual({ status: 0, stdout: '2 payloads: 2 valid, 0 invalid\n', stderr: '' });
    const invalid = await runCli(['validate', '--ndjson', '-', '--format', 'github'], ndjson([good, 'not json']));
    expect(invalid.status).toBe(1);
    expect(invalid.stdout).toMatch(/^::error .*\n2 payloads: 1 valid, 1 invalid\n$/);
    expect(invalid.stderr).toBe('');
  });

  it('places problems in the NDJSON file on the line of the record', async () => {
    const bad = structuredClone(pay.payload);
    bad.body.paymentMode = 'BARTER';
    const path = file(
      'cases.ndjson',
      ndjson([
        { operationId: 'initiatePayment', direction: 'request', payload: pay.payload, query: pay.query },
        { operationId: 'initiatePayment', direction: 'request', payload: bad, query: pay.query },
      ]),
    );
    const result = await runCli(['validate', '--ndjson', path, '--format', 'sarif']);
    expect(result.status).toBe(1);
    expect(sarifProblems(JSON.parse(result.stdout))).toEqual([]);
    const [only] = JSON.parse(result.stdout).runs[0].results;
    expect(only.locations[0].physicalLocation).toMatchObject({
      artifactLocation: { uri: expect.stringMatching(/cases\.ndjson$/) },
      region: { startLine: 2 },
    });
  });
});

describe('HAR', () => {
  it('validates the recorded calls of the contract, lists the rest as skipped, with JUnit and GitHub reports', async () => {
    const notification = find('notifyTokenStatus');
    const badAnswer = structuredClone(find('initiatePayment', 'response').payload);
    delete badAnswer.body.resultInfo;
    const har = file(
      'session.har',
      harOf(
        [
          harEntry(
            'POST',
            'https://router.example/aoa-acquiring-biz/v2/payment?mid=MERCHANT0001&orderId=ORDER-1001',
            pay.payload,
            badAnswer,
          ),
          harEntry('GET', 'https://analytics.example/collect?id=4929180731215548', undefined, '{}'),
          harEntry(
            'POST',
            'https://merchant.example/webhooks/token',
            notification.payload,
            find('notifyTokenStatus', 'response').payload,
          ),
        ],
        2,
      ),
    );
    const junit = await runCli(['validate', '--har', har, '--format', 'junit']);
    expect(junit.status).toBe(1);
    expect(junit.stdout).toContain(
      '<testsuite name="initiatePayment request" tests="1" failures="0" errors="0" skipped="0">',
    );
    expect(junit.stdout).toContain(
      '<testsuite name="initiatePayment response" tests="1" failures="1" errors="0" skipped="0">',
    );
    expect(junit.stdout).toContain(
      '<testsuite name="notifyTokenStatus request" tests="1" failures="0" errors="0" skipped="0">',
    );
    expect(junit.stdout).toMatch(
      /<testcase name="[^"]*session\.har entry 2" classname="skipped"><skipped message="GET analytics\.example\/collect: no operation of the contract at this address"\/><\/testcase>/,
    );
    expect(junit.stderr).toBe('4 payloads: 3 valid, 1 invalid; 1 skipped (no operation of the contract)\n');
    const github = await runCli(['validate', '--har', har, '--format', 'github']);
    expect(github.stdout).toMatch(
      /^::error file=[^,]*session\.har,line=\d+,title=initiatePayment response%3A required::[^:]*session\.har entry 1: \/body\/resultInfo: /,
    );
    for (const out of [junit, github]) expect(out.stdout + out.stderr).not.toContain('4929180731215548');
  });

  it('recognises the webhook by --webhook-path', async () => {
    const broken = { head: find('notifyTokenStatus').payload.head, body: {} };
    const har = file('hook.har', harOf([harEntry('POST', 'https://merchant.example/webhooks/token', broken)]));
    expect((await runCli(['validate', '--har', har])).stderr).toMatch(/0 payloads|no payload validated/);
    const named = await runCli(['validate', '--har', har, '--webhook-path', '/webhooks/token']);
    expect(named.status).toBe(1);
    expect(jsonLines(named.stdout)[0]).toMatchObject({
      operationId: 'notifyTokenStatus',
      direction: 'request',
      rule: 'required',
    });
  });
});

describe('the examples of docs/validation.md', () => {
  const section = readFileSync(new URL('../../docs/validation.md', import.meta.url), 'utf8');

  it('show batch, NDJSON and HAR use with JUnit and GitHub output', () => {
    for (const word of [
      "validate initiatePayment request 'samples/pay/**/*.json'",
      '--ndjson',
      '--har',
      '--format junit',
      '--format github',
      '--format sarif',
    ])
      expect(section).toContain(word);
  });

  it('run as written on files of their kind', async () => {
    const work = at('readme');
    expect(section.indexOf('```sh\n')).toBeGreaterThan(section.indexOf('## From the command line'));
    const shaped = (payload: any) => ({ ...payload, body: { ...payload.body, mid: 'M1', orderId: 'O1' } });
    file('readme/samples/pay/2026/upi.json', shaped(pay.payload));
    file('readme/samples/modify/order.json', find('modifyOrder').payload);
    file(
      'readme/captured.ndjson',
      ndjson(
        examples.map((e) => ({
          operationId: e.operationId,
          direction: e.direction,
          payload: e.payload,
          query: e.query,
          path: e.path,
        })),
      ),
    );
    const notification = find('notifyTokenStatus');
    file(
      'readme/session.har',
      harOf([
        harEntry(
          'POST',
          'https://router.example/aoa-acquiring-biz/v2/payment?mid=MERCHANT0001&orderId=ORDER-1001',
          pay.payload,
          find('initiatePayment', 'response').payload,
        ),
        harEntry(
          'POST',
          'https://merchant.example/webhooks/token',
          notification.payload,
          find('notifyTokenStatus', 'response').payload,
        ),
      ]),
    );
    mkdirSync(join(work, 'reports'), { recursive: true });
    /** The `npx gateway-contract` commands of shell blocks (a line ending in \\ goes on; comments dropped). */
    const commandsOf = (blocks: string[]) =>
      blocks
        .join('\n')
        .replace(/\\\n\s*/g, '')
        .split('\n')
        .map((l) => l.replace(/\s+#.*$/, '').trim())
        .filter((l) => l.startsWith('npx gateway-contract '));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    // The page's commands, and the README's validation commands, which run on the same files.
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const readmeCommands = commandsOf([...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '')).filter(
      (l) => l.startsWith('npx gateway-contract validate'),
    );
    expect(readmeCommands.length).toBeGreaterThanOrEqual(1);
    const commands = [...commandsOf([block]), ...readmeCommands];
    expect(commands.length).toBeGreaterThanOrEqual(6);
    for (const command of commands) {
      const args = (command.slice('npx gateway-contract '.length).match(/'[^']*'|\S+/g) ?? []).map((a) =>
        a.replace(/^'|'$/g, ''),
      );
      const result = await runCli(args, undefined, {}, work);
      expect(result.stderr, command).not.toMatch(/[1-9]\d* invalid|no payload validated/);
      expect(result.status, `${command}\n${result.stdout}${result.stderr}`).toBe(0);
    }
    expect(readFileSync(join(work, 'reports/payloads.xml'), 'utf8')).toContain(
      '<testsuite name="initiatePayment request" tests="1" failures="0"',
    );
    expect(readFileSync(join(work, 'reports/traffic.xml'), 'utf8')).toContain(
      '<testsuite name="notifyTokenStatus response" tests="1" failures="0"',
    );
  });
});

describe('inputs that are pipes, FIFOs, endless or empty', () => {
  /** Runs a shell command line (for `<(cmd)`), with `$BIN` the command. */
  function shell(line: string): Promise<CliResult> {
    return collectOutput(
      spawn('bash', ['-c', line], {
        env: { ...process.env, BIN, NODE: process.execPath },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
  }

  it('reads <(cmd) as it reads a file: payload files, NDJSON and HAR', async () => {
    const okFile = at(`pay/ok/${pay.name}.json`);
    const records = file(
      'piped.ndjson',
      ndjson([{ operationId: 'initiatePayment', direction: 'request', payload: pay.payload, query: pay.query }]),
    );
    const har = file(
      'piped.har',
      harOf([harEntry('POST', 'https://router.example/aoa-acquiring-biz/v2/payment?mid=M1&orderId=O1', pay.payload)]),
    );
    const files = await shell(
      `"$NODE" "$BIN" validate initiatePayment request <(cat '${okFile}') --query mid=MERCHANT0001 --query orderId=ORDER-1001`,
    );
    expect(files, files.stderr).toMatchObject({ status: 0, stderr: '1 payload: 1 valid, 0 invalid\n' });
    const lines = await shell(`"$NODE" "$BIN" validate --ndjson <(cat '${records}')`);
    expect(lines, lines.stderr).toMatchObject({ status: 0, stderr: '1 payload: 1 valid, 0 invalid\n' });
    const recorded = await shell(`"$NODE" "$BIN" validate --har <(cat '${har}') --no-parameters`);
    expect(recorded.stderr).toBe('1 payload: 0 valid, 1 invalid\n');
    // Within --max-bytes, as a file.
    const big = await shell(`"$NODE" "$BIN" validate initiatePayment request <(cat '${okFile}') --max-bytes 100`);
    expect(big.status).toBe(1);
    expect(JSON.parse(big.stdout)).toMatchObject({ rule: 'maxBytes' });
  });

  it('waits at most --timeout-ms for a FIFO with no writer, and stops an endless input at --max-bytes', async () => {
    const fifo = at('nobody.fifo');
    spawnSync('mkfifo', [fifo]);
    for (const args of [
      ['initiatePayment', 'request', fifo, '--no-parameters'],
      ['--ndjson', fifo],
      ['--har', fifo],
    ]) {
      const started = Date.now();
      const result = await runCli(['validate', ...args, '--timeout-ms', '300']);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(result.status).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({
        rule: 'readable',
        message: 'The input sent nothing for 300 ms (see --timeout-ms).',
      });
    }
    // `--ndjson /dev/zero`: one line that never ends.
    const zero = await runCli(['validate', '--ndjson', '/dev/zero', '--max-bytes', '1000000']);
    expect(zero.status).toBe(1);
    expect(JSON.parse(zero.stdout)).toMatchObject({
      name: '/dev/zero:1',
      rule: 'maxBytes',
      message: 'Line 1 is longer than 1000000 bytes (see --max-bytes); the input was not read past it.',
    });
  });

  it('is a usage error when the input holds no payload at all: an empty capture does not pass', async () => {
    const empty = file('empty.ndjson', '');
    const blank = file('blank.ndjson', '\n\n  \n');
    const noCall = file('no-call.har', harOf([harEntry('GET', 'https://cdn.example/app.js', undefined, 'x')]));
    for (const [args, input] of [
      [['--ndjson', empty], undefined],
      [['--ndjson', blank], undefined],
      [['--ndjson', '-'], ''],
      [['--har', noCall], undefined],
      [['--har', file('no-entries.har', harOf([]))], undefined],
    ] as const) {
      const result = await runCli(['validate', ...args], input);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(
        /\ngateway-contract validate: the input holds no payload: nothing was validated\n$/,
      );
    }
  });
});

describe('usage errors: exit 2 with one line', () => {
  it.each([
    [
      ['validate', 'initiatePayment', 'request', '-', '--format', 'xml'],
      /--format must be one of text, json, junit, sarif, github/,
    ],
    [['validate', '--ndjson', '--har', 'x'], /give one of them/],
    [['validate', '--ndjson', '-', '--query', 'mid=M'], /NDJSON records and recorded URLs carry their own/],
    [['validate', 'initiatePayment', 'request', '-', '--webhook-path', '/x'], /--webhook-path goes with --har/],
    [['validate', 'initiatePayment', 'request', '/no/such/dir/*.json'], /"\/no\/such\/dir\/\*\.json" names no file/],
    [['validate', 'initiatePayment', 'request', '-', '-'], /standard input \(-\) can be read once/],
    [['validate', '--har'], /--har needs at least one HAR file/],
    [['validate', '--ndjson'], /--ndjson needs a file/],
    [['validate', 'initiatePayment', 'request', '-', '--max-cases', '0'], /--max-cases must be a whole number from 1/],
  ])('%j', async (args, message) => {
    const result = await runCli(args as string[], '{}');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toBe('');
  });

  it('stops at --max-cases: the report of what was read, and exit 2', async () => {
    const result = await runCli(['validate', 'initiatePayment', 'request', at('pay/ok'), ...QUERY, '--max-cases', '3']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      '3 payloads: 3 valid, 0 invalid; stopped at 3 records (see --max-cases)\ngateway-contract validate: stopped after 3 payloads: the input holds more (see --max-cases)\n',
    );
  });
});

describe('the default format', () => {
  async function inProcess(args: string[], tty: boolean) {
    let stdout = '';
    const out = Object.assign(
      new Writable({
        write(chunk, _e, done) {
          stdout += String(chunk);
          done();
        },
      }),
      { isTTY: tty },
    );
    const err = new Writable({ write: (_c, _e, done) => done() });
    const status = await main(args, { stdin: Readable.from([]), stdout: out, stderr: err });
    return { status, stdout };
  }

  it('is text on a terminal and JSON lines otherwise', async () => {
    const args = ['validate', 'initiatePayment', 'request', at('pay/bad/no-mode.json'), ...QUERY];
    const onTerminal = await inProcess(args, true);
    // Its verdicts may be coloured there (terminal.process.test.ts): the text is what counts here.
    const terminal = { ...onTerminal, stdout: stripVTControlCharacters(onTerminal.stdout) };
    expect(terminal.status).toBe(1);
    expect(terminal.stdout).toMatch(
      /^invalid {2}.*no-mode\.json \(initiatePayment request\): 1 problem\(s\); the service would answer 1007\n {2}line \d+:\d+ \/body\/paymentMode required: /,
    );
    expect(terminal.stdout.endsWith('1 payload: 0 valid, 1 invalid\n')).toBe(true);
    const piped = await inProcess(args, false);
    expect(jsonLines(piped.stdout)).toEqual([
      expect.objectContaining({ pointer: '/body/paymentMode', rule: 'required' }),
    ]);
  });
});
