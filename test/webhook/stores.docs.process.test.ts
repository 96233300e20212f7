// The Redis example of docs/webhook-stores.md, run as printed (compiled to JavaScript, in a child
// process) where no Redis answers: it ends with the reason within its connect timeout, instead of
// waiting without end and without a word (node-redis retries a first connection forever).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { runNode } from '../helpers/cli.js';

const guide = readFileSync(new URL('../../docs/webhook-stores.md', import.meta.url), 'utf8');
// Inside the repository, so that `gateway-contract` (the package itself) and `redis` resolve as in an app.
const dir = fileURLToPath(new URL('../.artifacts/webhook-stores-example/', import.meta.url));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first TypeScript block of a section of the guide. */
function example(heading: string): string {
  const section = guide.slice(guide.indexOf(`\n## ${heading}\n`));
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error(`no TypeScript example under "## ${heading}"`);
  return code;
}

/** A port of 127.0.0.1 where nothing listens. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 1));
    });
  });
}

describe('the Redis example of docs/webhook-stores.md', () => {
  it('ends with the reason when no Redis server answers, within its connect timeout', async () => {
    const js = ts.transpileModule(example('Redis'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'redis-example.mjs');
    writeFileSync(file, js);
    const env = { REDIS_URL: `redis://127.0.0.1:${await closedPort()}`, MERCHANT_KEY: 'k3yK3yk3yK3yk3yK' };
    // The limit only ends a program that would wait forever (it is killed: no exit status).
    const result = await runNode([file], { env, timeoutMs: 60_000 });
    expect(result.status).not.toBe(null);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('ECONNREFUSED');
    expect(result.stderr).not.toContain('k3yK3y');
  }, 90_000);
});
