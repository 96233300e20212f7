// The staging recipe of docs/journeys.md, run as printed with bash (its port aside), in a folder laid
// out as a merchant's app (node_modules/gateway-contract, node_modules/.bin): it passes when the
// upstream answers as the contract says (the sandbox standing in for staging), and fails when an
// answer breaks the contract though respect's own steps pass (the proxy's verdict, D-120).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksOf } from '../../scripts/check-merchant.mjs';
import { startSandbox } from '../../src/sandbox/index.js';
import { collectOutput } from '../helpers/cli.js';
import { freePort } from '../helpers/servers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KEY = 'SandboxTestKey01';
const app = mkdtempSync(join(tmpdir(), 'journeys-staging-'));

/** The staging block of the journeys page, as printed. */
const stagingBlock = () => {
  const block = blocksOf('docs/journeys.md').find((b) => b.lang === 'sh' && b.code.includes('$GATEWAY_URL'));
  if (!block) throw new Error('docs/journeys.md has no staging recipe');
  return block.code;
};

/** Runs the recipe in the app, the proxy's port replaced by a free one; resolves with its exit status and output. */
async function runRecipe(upstream: string) {
  const port = await freePort();
  const script = stagingBlock().replaceAll('4030', String(port));
  const child = spawn('bash', ['-c', script], {
    cwd: app,
    env: {
      ...process.env,
      GATEWAY_URL: upstream,
      ROUTER_URL: upstream,
      MERCHANT_KEY: KEY,
      REDOCLY_TELEMETRY: 'off',
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = await collectOutput(child);
  return { ...done, report: readFileSync(join(app, 'reports/staging.xml'), 'utf8') };
}

beforeAll(() => {
  // The package and the two commands where a merchant's app has them.
  mkdirSync(join(app, 'node_modules/.bin'), { recursive: true });
  symlinkSync(ROOT, join(app, 'node_modules/gateway-contract'));
  for (const [name, target] of [
    ['gateway-contract', join(ROOT, 'dist/cli/bin.js')],
    ['redocly', join(ROOT, 'node_modules/@redocly/cli/bin/cli.js')],
  ] as const) {
    writeFileSync(join(app, 'node_modules/.bin', name), `#!/bin/sh\nexec "${process.execPath}" "${target}" "$@"\n`);
    chmodSync(join(app, 'node_modules/.bin', name), 0o755);
  }
  writeFileSync(
    join(app, 'staging-inputs.json'),
    JSON.stringify({ mid: 'MERCHANT0001', custId: 'CUST_STAGING', ssoToken: 'sso-funded-wallet' }),
  );
});

afterAll(() => rmSync(app, { recursive: true, force: true }));

describe('the staging recipe of docs/journeys.md', () => {
  it('passes against an upstream that keeps the contract (the sandbox)', async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const run = await runRecipe(sandbox.url);
      expect(run.status, `${run.stdout.slice(-3000)}\n${run.report.slice(0, 3000)}`).toBe(0);
      expect(run.stdout).toMatch(/Workflows: 1 passed, 1 total/);
      expect(run.report).toContain('createSubscription');
    } finally {
      await sandbox.stop();
    }
  }, 90_000);

  it("fails when an answer breaks the contract, though respect's steps pass", async () => {
    // The sandbox's answers, each with one field the contract forbids in a closed place: its
    // resultInfo without resultMsg (required). Respect's conditions still hold.
    const sandbox = await startSandbox({ port: 0 });
    const broken = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const answer = await fetch(`${sandbox.url}${req.url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      });
      const json = (await answer.json()) as { body?: { resultInfo?: Record<string, unknown> } };
      delete json.body?.resultInfo?.resultMsg;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = broken.address() as { port: number };
      const run = await runRecipe(`http://127.0.0.1:${port}`);
      // Respect's own steps pass: only the proxy's verdict fails the run.
      expect(run.stdout).toMatch(/Workflows: 1 passed, 1 total/);
      expect(run.status).toBe(1);
      expect(run.report).toMatch(/resultMsg/);
    } finally {
      broken.close();
      await sandbox.stop();
    }
  }, 90_000);
});
