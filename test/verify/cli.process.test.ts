// `gateway-contract verify` as a person or a CI step runs it: against the package's sandbox, the
// reports in every format with their coverage, the exit statuses, a fixtures module, and the merchant
// key kept out of every output.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/cli.js';

const KEY = 'VerifyCliKey0001';
let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, merchantKey: KEY, checkAnswers: true });
  dir = mkdtempSync(join(tmpdir(), 'verify-cli-'));
});
afterAll(async () => {
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const env = { MERCHANT_KEY: KEY };

describe('gateway-contract verify', () => {
  it('finds nothing on the sandbox, and its JSON report carries coverage of operations, codes and state changes', async () => {
    const { status, stdout, stderr } = await runCli(
      ['verify', '--sandbox', sandbox.url, '--seed', '7', '--format', 'json'],
      undefined,
      env,
    );
    expect(status, stderr + stdout).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const coverage = lines.filter((l) => l.coverage).map((l) => l.coverage.operationId);
    expect(coverage).toEqual(
      expect.arrayContaining([
        'tokenizeCard',
        'preAuthorize',
        'listSubscriptions',
        'initiatePayment',
        'modifyOrder',
        'createSubscription',
      ]),
    );
    expect(stderr).toMatch(/^[0-9]+ checks: ([0-9]+) kept, 0 broken$/m);
    const states = lines.filter((l) => l.stateChange).map((l) => l.stateChange);
    expect(states.length).toBeGreaterThan(5);
    expect(states.every((c: { exercised: number }) => c.exercised > 0)).toBe(true);
    expect(stdout + stderr).not.toContain(KEY);
  });

  it.each(['text', 'junit', 'sarif', 'github'])(
    'writes the %s report with its coverage, never the key',
    async (format) => {
      const output = join(dir, `report.${format}`);
      const { status, stdout, stderr } = await runCli(
        [
          'verify',
          '--sandbox',
          sandbox.url,
          '--seed',
          '7',
          '--max-requests',
          '20',
          '--format',
          format,
          '--output',
          output,
        ],
        undefined,
        env,
      );
      expect(status, stderr + stdout).toBe(0);
      const report = readFileSync(output, 'utf8');
      expect(report).toMatch(/initiatePayment/);
      expect(report + stdout + stderr).not.toContain(KEY);
    },
  );

  it('answers a usage error with exit status 2 and one line', async () => {
    const noKey = await runCli(['verify', '--sandbox', sandbox.url], undefined, { MERCHANT_KEY: '' });
    expect(noKey.status).toBe(2);
    expect(noKey.stderr).toMatch(/MERCHANT_KEY/);
    const noTarget = await runCli(['verify'], undefined, env);
    expect(noTarget.status).toBe(2);
    const noFixtures = await runCli(
      ['verify', '--gateway-url', sandbox.url, '--router-url', sandbox.url, '--mid', 'MERCHANT0001'],
      undefined,
      env,
    );
    expect(noFixtures.status).toBe(2);
    expect(noFixtures.stderr).toMatch(/--fixtures/);
    const noSandbox = await runCli(['verify', '--sandbox', 'http://127.0.0.1:9'], undefined, env);
    expect(noSandbox.status).toBe(2);
    expect(noSandbox.stderr).toMatch(/no sandbox answers/);
    const badReplay = await runCli(['verify', '--sandbox', sandbox.url, '--replay', 'x'], undefined, env);
    expect(badReplay.status).toBe(2);
    for (const r of [noKey, noTarget, noFixtures, noSandbox, badReplay]) {
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('takes the fixtures from a module, and refuses one that lacks what verify needs', async () => {
    const good = join(dir, 'fixtures.mjs');
    const sandboxFixtures = pathToFileURL(join(process.cwd(), 'dist/verify/sandboxFixtures.js')).href;
    writeFileSync(
      good,
      `import { sandboxFixtures } from ${JSON.stringify(sandboxFixtures)};\nexport default (ctx) => sandboxFixtures(ctx.gatewayUrl);\n`,
    );
    const run = await runCli(
      [
        'verify',
        '--gateway-url',
        sandbox.url,
        '--router-url',
        sandbox.url,
        '--mid',
        'MERCHANT0001',
        '--fixtures',
        good,
        '--seed',
        '3',
        '--runs',
        '2',
        '--format',
        'text',
      ],
      undefined,
      env,
    );
    expect(run.status, run.stderr + run.stdout).toBe(0);
    const bad = join(dir, 'bad.mjs');
    writeFileSync(bad, 'export default { createOrder() {} };\n');
    const refused = await runCli(
      ['verify', '--gateway-url', sandbox.url, '--router-url', sandbox.url, '--mid', 'MERCHANT0001', '--fixtures', bad],
      undefined,
      env,
    );
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/cardEncryptionKey/);
  });
});
