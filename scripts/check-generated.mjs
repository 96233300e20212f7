#!/usr/bin/env node
// Fails when generated/ differs from what openapi/ produces (with CHANGELOG.md and the package's
// decisions, docs/decisions.md, which the docs pages show): regenerates into a temporary folder and
// compares every file byte for byte.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** @param {string} dir @returns {Promise<string[]>} */
async function filesUnder(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

const work = await mkdtemp(join(tmpdir(), 'gateway-contract-check-'));
try {
  const fresh = join(work, 'generated');
  const run = spawnSync(process.execPath, [join(root, 'scripts/generate.mjs'), '--out', fresh], {
    cwd: root,
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    process.stderr.write(run.stderr);
    process.stderr.write('check:generated: generation failed\n');
    process.exit(1);
  }
  const committed = new Set(
    (await filesUnder(join(root, 'generated'))).map((f) => relative(join(root, 'generated'), f)),
  );
  const expected = new Set((await filesUnder(fresh)).map((f) => relative(fresh, f)));
  const problems = [];
  for (const f of expected) {
    if (!committed.has(f)) problems.push(`missing: generated/${f}`);
    else if (!(await readFile(join(fresh, f))).equals(await readFile(join(root, 'generated', f))))
      problems.push(`differs: generated/${f}`);
  }
  for (const f of committed) if (!expected.has(f)) problems.push(`not produced by the contract: generated/${f}`);
  if (problems.length) {
    process.stderr.write(
      `${problems.join('\n')}\ncheck:generated: generated/ is out of date; run \`npm run generate\` and commit the result.\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`check:generated: generated/ matches openapi/ (${expected.size} files)\n`);
} finally {
  await rm(work, { recursive: true, force: true });
}
