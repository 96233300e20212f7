#!/usr/bin/env node
// Builds the package: src/ compiled by TypeScript into dist/ (JavaScript, declarations and their
// maps), each entry point of the package then bundled in place with the modules it imports
// (bundle.mjs: one file per entry and shared chunks, so that a program loads a few files rather than
// a hundred), the data files src/ reads at run time copied beside them, and the reference docs page and
// its decisions page compressed for the mock's docs server (the package ships these copies, a
// quarter of the pages' size). Run by `npm run build` and by `prepare` (so `npm ci` and `npm pack` build).
import { spawnSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundleEntries } from './lib/bundle.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
/** Files src/ reads at run time rather than imports: copied as they are. */
const DATA = /\.json$/;

/** @param {string} dir @returns {Promise<string[]>} */
async function filesUnder(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

await rm(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
  cwd: root,
  stdio: 'inherit',
});
if (run.status !== 0) {
  process.stderr.write('build: the TypeScript sources do not compile\n');
  process.exit(1);
}
await bundleEntries(
  root,
  (await filesUnder(dist)).map((file) => relative(root, file).split('\\').join('/')),
);
for (const file of await filesUnder(src)) {
  if (DATA.test(file)) await cp(file, join(dist, relative(src, file)));
}
await mkdir(join(dist, 'docs'), { recursive: true });
for (const page of ['index.html', 'decisions.html'])
  await writeFile(
    join(dist, `docs/${page}.gz`),
    gzipSync(await readFile(join(root, 'generated/docs', page)), { level: 9 }),
  );
