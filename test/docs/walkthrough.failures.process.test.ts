// "When things go wrong" of docs/sandbox.md, run as printed: its code arms drop-answer on a payment,
// sees the client's error and its next step, queries the order, is refused a second payment, and
// watches a failed notification go out again. Its own assertions must hold; this test gives it a
// webhook endpoint (the package's receiver) that fails the first notification it gets, and checks
// what the endpoint saw. The program runs in a Node process of its own against the built package,
// as a merchant's would (vitest's module runner would load a second copy of modules the package
// loads on first use, and the program's instanceof checks would see two classes).

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChecksumVerifier, createWebhookReceiver, type TokenStatusEvent } from '../../src/index.js';
import { runNode } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The TypeScript block of the page's section, transpiled; it imports the built package by its name. */
function pageProgram(): string {
  const page = readFileSync(join(root, 'docs/sandbox.md'), 'utf8');
  const start = page.indexOf('## When things go wrong');
  expect(start).toBeGreaterThan(0);
  const section = page.slice(start, page.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  expect(blocks).toHaveLength(1);
  const code = `const webhookUrl = process.env.WEBHOOK_URL;\n${blocks[0] ?? ''}`;
  return ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } })
    .outputText;
}

let endpoint: Server;
const seen = { events: [] as TokenStatusEvent[], refused: [] as string[], failures: 0 };

beforeAll(async () => {
  const receiver = createWebhookReceiver({
    verifier: createChecksumVerifier('SandboxTestKey01'),
    onRejected: ({ code }) => void seen.refused.push(code),
  });
  endpoint = createServer(
    receiver.nodeHandler((event) => {
      // The first notification meets a failure of the merchant's own (the receiver answers 500).
      if (seen.failures++ === 0) throw new Error('the merchant database is down');
      seen.events.push(event);
    }),
  );
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  endpoint.closeAllConnections();
  await new Promise<void>((resolve) => endpoint.close(() => resolve()));
});

describe('docs/sandbox.md: when things go wrong', () => {
  it('runs as printed: a lost answer is queried, not paid twice, and a failed notification is delivered again', async () => {
    const webhookUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/webhooks/token-status`;
    // Inside the repository, so that `gateway-contract` resolves to this package by its name, as in an app.
    mkdirSync(join(root, 'test/.artifacts'), { recursive: true });
    const dir = mkdtempSync(join(root, 'test/.artifacts/docs-failures-'));
    try {
      const file = join(dir, 'rehearsal.mjs');
      writeFileSync(file, pageProgram());
      const { status, stdout, stderr } = await runNode([file], { env: { WEBHOOK_URL: webhookUrl } });
      expect(status, `${stdout}${stderr}`.slice(-20_000)).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // The endpoint failed the first delivery and accepted the second, of the same notification.
    expect(seen.failures).toBe(2);
    expect(seen.events.map((e) => e.body.tokenInfo.tokenStatus)).toEqual(['ACTIVE']);
    expect(seen.refused).toEqual(['500']);
  });
});
