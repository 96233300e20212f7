// The command line as CI pipelines use it: verdicts and exit codes on examples and fixtures, and a
// one-line message for every kind of bad input.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loadFixtures } from '../helpers/fixtures.js';

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gateway-contract-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: unknown) {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('gateway-contract validate', () => {
  it('exits 0 on a valid request read from a file, and from standard input', async () => {
    const path = file('pay.json', doc.components.examples.PayWithUpi.value);
    const fromFile = await runCli([
      'validate',
      'initiatePayment',
      'request',
      path,
      '--query',
      'mid=MERCHANT0001',
      '--query',
      'orderId=ORDER-1001',
    ]);
    expect(fromFile).toMatchObject({ status: 0, stdout: '' });
    const fromStdin = await runCli(
      ['validate', 'notifyTokenStatus', 'request', '-'],
      JSON.stringify(doc.components.examples.TokenStatusActive.value),
    );
    expect(fromStdin).toMatchObject({ status: 0, stdout: '' });
  });

  it('exits 1 and prints one JSON object per error', async () => {
    const pay = structuredClone(doc.components.examples.PayWithNetworkToken.value);
    delete pay.body.cardInfo.cardTokenInfo;
    pay.body.cardInfo.cvv = 'abc';
    const result = await runCli(['validate', 'initiatePayment', 'request', file('bad.json', pay)]);
    expect(result.status).toBe(1);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.pointer, l.rule])).toEqual(
      expect.arrayContaining([
        ['/body/cardInfo/cardTokenInfo', 'required'],
        ['/body/cardInfo/cvv', 'pattern'],
      ]),
    );
    expect(result.stdout).not.toContain('abc');
  });

  it('uses --query and --path for the checks that compare them with the body', async () => {
    const pay = file('pay2.json', doc.components.examples.PayWithUpi.value);
    const mismatch = await runCli([
      'validate',
      'initiatePayment',
      'request',
      pay,
      '--query',
      'mid=OTHER',
      '--query',
      'orderId=ORDER-1001',
    ]);
    expect(mismatch.status).toBe(1);
    expect(JSON.parse(mismatch.stdout)).toMatchObject({
      pointer: '/body/mid',
      rule: 'queryMatchesBody',
      resultCode: '2013',
    });
    const tokenize = structuredClone(doc.components.examples.TokenizeCardRequest.value);
    tokenize.body.mid = 'MERCHANT0001';
    const args = ['validate', 'tokenizeCard', 'request', file('tok.json', tokenize), '--path', 'mid=MERCHANT0001'];
    const ok = await runCli([...args, '--query', `requestId=${tokenize.head.requestId}`]);
    expect(ok.status).toBe(0);
    // Without its query the tokenize request is incomplete: the service answers 406.
    const noQuery = await runCli(args);
    expect(noQuery.status).toBe(1);
    expect(JSON.parse(noQuery.stdout)).toMatchObject({
      in: 'query',
      pointer: '/requestId',
      rule: 'requiredParameters',
      resultCode: '406',
    });
  });

  it.concurrent.for([
    [['validate'], /expected <operationId>/],
    [['validate', 'pay', 'request', '-'], /unknown operationId "pay"/],
    [['validate', 'initiatePayment', 'sideways', '-'], /direction must be/],
    [['validate', 'initiatePayment', 'request', '-', '--query', 'novalue'], /--query takes name=value/],
    [
      ['validate', 'initiatePayment', 'request', '-', '--bogus'],
      /unknown option "--bogus"; run "gateway-contract validate --help"/,
    ],
    [['frobnicate'], /unknown command "frobnicate"/],
  ] as [string[], RegExp][])('exits 2 with a one-line message for %j', async ([args, message], { expect }) => {
    const result = await runCli(args, '{}');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toBe('');
  });

  it('fails the case of malformed or empty JSON, or a file that cannot be read, without echoing it', async () => {
    const malformed = await runCli(
      ['validate', 'initiatePayment', 'request', '-'],
      '{"cardUniqueId": 4111111111111111x}',
    );
    expect(malformed.status).toBe(1);
    expect(JSON.parse(malformed.stdout)).toMatchObject({
      name: 'standard input',
      rule: 'json',
      message: expect.stringMatching(/malformed JSON at line 1, column \d+/),
    });
    expect(malformed.stdout + malformed.stderr).not.toContain('4111');
    const empty = await runCli(['validate', 'initiatePayment', 'request', '-'], '');
    expect(empty).toMatchObject({ status: 1 });
    expect(empty.stdout).toMatch(/the input is empty/);
    const missing = await runCli(['validate', 'initiatePayment', 'request', '/no/such/file.json']);
    expect(missing.status).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({
      name: '/no/such/file.json',
      rule: 'readable',
      message: 'The input cannot be read (ENOENT).',
    });
  });

  it('gives the verdict of every fixture in one run: exit 1, each fixture invalid at its expected fields, one JSON object per problem', async () => {
    // One NDJSON record per fixture, named after its file; validation/fixtures.test.ts checks the same verdicts in process.
    const fixtures = loadFixtures();
    const records = fixtures.map((f) => ({
      name: f.file,
      operationId: f.operationId,
      direction: f.direction,
      payload: f.payload,
      query: f.query,
      path: f.path,
    }));
    const result = await runCli([
      'validate',
      '--ndjson',
      file('fixtures.ndjson', `${records.map((r) => JSON.stringify(r)).join('\n')}\n`),
      '--format',
      'json',
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`${fixtures.length} payloads: 0 valid, ${fixtures.length} invalid\n`);
    const problems = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // Each problem names its fixture, and the file and line of its record.
    const lineOf = new Map(fixtures.map((f, i) => [f.file, i + 1]));
    const seen = new Map<
      string,
      { operationId: string; direction: string; pointer: string; rule: string; resultCode?: string }[]
    >();
    problems.forEach((p, i) => {
      expect(p, `line ${i + 1}`).toMatchObject({
        name: expect.any(String),
        operationId: expect.any(String),
        direction: expect.any(String),
        pointer: expect.any(String),
        file: expect.stringMatching(/fixtures\.ndjson$/),
        line: lineOf.get(p.name),
      });
      seen.set(p.name, [...(seen.get(p.name) ?? []), p]);
    });
    expect([...seen.keys()].sort()).toEqual(fixtures.map((f) => f.file).sort());
    for (const fixture of fixtures) {
      const found = seen.get(fixture.file) ?? [];
      expect(new Set(found.map((p) => `${p.operationId} ${p.direction}`)), fixture.file).toEqual(
        new Set([`${fixture.operationId} ${fixture.direction}`]),
      );
      for (const wanted of fixture.expect) {
        const hit = found.find((p) => p.pointer === wanted.pointer && p.rule === wanted.rule);
        expect(hit, `${fixture.file}: ${wanted.pointer} ${wanted.rule} in ${JSON.stringify(found)}`).toBeDefined();
        if (wanted.resultCode) expect(hit?.resultCode, `${fixture.file}: ${wanted.pointer}`).toBe(wanted.resultCode);
      }
    }
  });
});

describe('gateway-contract operations and --help', () => {
  it('lists the operations with method, host and path', async () => {
    const result = await runCli(['operations']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^initiatePayment\s+POST\s+router\s+\/aoa-acquiring-biz\/v2\/payment$/m);
    expect(result.stdout).toMatch(
      /^tokenizeCard\s+POST\s+gateway\s+\/coft-center\/coft\/merchant\/\{mid\}\/tokenize$/m,
    );
    expect(result.stdout).toMatch(/^notifyTokenStatus\s+POST\s+merchant\s+/m);
    const json = await runCli(['operations', '--json']);
    expect(JSON.parse(json.stdout)).toHaveLength(7);
  });

  it('prints the package version with --version and -v, and says so in --help', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    for (const flag of ['--version', '-v'])
      expect(await runCli([flag]), flag).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
    expect((await runCli(['--help'])).stdout).toMatch(/^ {2}-v, --version {2,}Print the version of the package\.$/m);
  });

  it('has --help on every command', async () => {
    const top = await runCli(['--help']);
    expect(top.status).toBe(0);
    const commands = [...top.stdout.matchAll(/^ {2}(\S+) {2,}/gm)].map((m) => m[1]);
    expect(commands).toEqual(expect.arrayContaining(['validate', 'operations']));
    const helps = await Promise.all(commands.map((command) => runCli([command as string, '--help'])));
    helps.forEach((help, i) => {
      expect(help.status, commands[i]).toBe(0);
      expect(help.stdout, commands[i]).toMatch(/^Usage: gateway-contract /);
    });
  });
});
