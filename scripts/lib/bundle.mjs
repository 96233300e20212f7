// The package's entry points bundled in place (docs/decisions.md, D-141). TypeScript compiles src/
// one module per file; a program importing the root then loaded about a hundred files, and Node's
// cost per module file, not the code, was most of the start of a program that imports the package
// (bench/startup.mjs). Each entry of package.json (`exports` in dist/, `bin`) is rewritten as one
// file holding the modules only it imports, and the modules two entries share go to chunks in
// dist/chunks/, so that each module of the package exists once however many entries a program
// imports (a class is the same class from the root and from `/client`). npm packages stay imports
// (`openapi-fetch`, `fast-check`, ...), Node's built-ins too. The command is one of the entries: bundled
// on its own it left the library's entries fewer chunks (the root 37 files instead of 43), but
// repeated a megabyte of their code in the installed package. The code is not minified: it reads as
// TypeScript compiled it. The modules TypeScript wrote stay beside the bundles with their
// declarations. `dist/modules.json` (not shipped) says which modules each file holds: the test of
// the entries (test/package/entries.process.test.ts) reads what a program loaded through it.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { build } from 'esbuild';

/**
 * The entry files in dist/ of the package's manifest: every `exports` target there (a `*` pattern
 * expanded over the files TypeScript wrote) and the command (`bin`).
 * @param {string} root @param {string[]} compiled the files TypeScript wrote, relative to root
 */
async function entryFiles(root, compiled) {
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  /** @type {Set<string>} */
  const entries = new Set();
  const add = (/** @type {unknown} */ target) => {
    if (typeof target !== 'string' || !target.startsWith('./dist/') || !target.endsWith('.js')) return;
    const path = target.slice(2);
    const [before = '', after = ''] = path.split('*');
    if (!path.includes('*')) entries.add(path);
    else
      for (const file of compiled)
        if (file.startsWith(before) && file.endsWith(after) && !file.slice(before.length).includes('/'))
          entries.add(file);
  };
  for (const value of Object.values(manifest.exports)) add(typeof value === 'string' ? value : value?.default);
  for (const bin of Object.values(manifest.bin ?? {})) add(bin);
  return [...entries].sort();
}

/**
 * Bundles the entries of dist/ in place, with shared chunks in dist/chunks/. Fails when a module
 * that reads a file beside it (`import.meta.url`) would move to another depth of dist/, where its
 * relative path would point elsewhere.
 * @param {string} root @param {string[]} compiled
 */
export async function bundleEntries(root, compiled) {
  const dist = join(root, 'dist');
  const result = await build({
    absWorkingDir: root,
    entryPoints: await entryFiles(root, compiled),
    outdir: dist,
    outbase: dist,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    packages: 'external',
    external: ['node:*'],
    chunkNames: 'chunks/[name]-[hash]',
    write: false,
    metafile: true,
    logLevel: 'warning',
  });
  /** @type {Record<string, string[]>} */
  const modules = {};
  for (const file of result.outputFiles) {
    const path = relative(root, file.path).split(sep).join('/');
    const depth = path.split('/').length - 2;
    if (depth !== 1 && file.text.includes('import.meta.url'))
      throw new Error(`${path} reads files relative to itself but is not one folder below dist/`);
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.text);
    modules[path] = Object.keys(result.metafile.outputs[path]?.inputs ?? {}).sort();
  }
  await writeFile(join(dist, 'modules.json'), `${JSON.stringify(modules, null, 1)}\n`);
}
