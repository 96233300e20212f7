// The reference docs: one self-contained HTML page (Redoc inlined) that renders with no network.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** @param {any} doc @param {string} root */
export async function buildDocs(doc, root) {
  const work = await mkdtemp(join(tmpdir(), 'gateway-contract-docs-'));
  try {
    const input = join(work, 'openapi.json');
    const output = join(work, 'index.html');
    await writeFile(input, JSON.stringify(doc));
    const run = spawnSync(process.execPath, [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'build-docs', input, '--output', output, '--inlineBundle', '--title', 'Merchant payments gateway: reference'], { cwd: work, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`build-docs failed: ${run.stderr || run.stdout}`);
    return { 'docs/index.html': await readFile(output, 'utf8') };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
