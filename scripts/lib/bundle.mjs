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

/** The entry bundled whole, on its own: every operation's validation in one file (D-144). */
const LAYER = 'dist/validation/index.js';
/** How the other bundles name it while they are built; each is then given the path to the file. */
const LAYER_NAME = 'gateway-contract/validation';
/** The modules /validation imports from the shared chunks rather than holding: each is an entry of the split build. */
const SHARED = ['dist/validation/operationValidation.js', 'dist/validation/operations/notifyTokenStatus.js'];

/** esbuild's options shared by both builds. @param {string} root */
const common = (root) => ({
  absWorkingDir: root,
  outbase: join(root, 'dist'),
  bundle: true,
  format: /** @type {const} */ ('esm'),
  platform: /** @type {const} */ ('neutral'),
  target: 'es2022',
  packages: /** @type {const} */ ('external'),
  external: ['node:*'],
  write: false,
  metafile: true,
  logLevel: /** @type {const} */ ('warning'),
});

/**
 * Bundles the entries of dist/ in place: `/validation` whole in one file of its own, the others
 * with shared chunks in dist/chunks/, each importing `/validation`'s file where a module of theirs
 * imports it. Fails when a module that reads a file beside it (`import.meta.url`) would move to
 * another depth of dist/, where its relative path would point elsewhere.
 * @param {string} root @param {string[]} compiled
 */
export async function bundleEntries(root, compiled) {
  const dist = join(root, 'dist');
  const layerFile = join(root, LAYER);
  // What /validation shares with the parts that validate one operation (the receiver, the sender,
  // /validators/<operationId>): the code that runs a side's validators, and the notification's
  // validation. Those stay in the shared chunks, and the file imports them.
  const shared = SHARED.map((file) => join(root, file));
  const sharedImport = {
    name: 'validation-shared',
    setup(/** @type {import('esbuild').PluginBuild} */ b) {
      b.onResolve({ filter: /\.js$/ }, (args) => {
        const target = join(args.resolveDir, args.path);
        if (!shared.includes(target)) return undefined;
        let path = relative(dirname(layerFile), target).split(sep).join('/');
        if (!path.startsWith('.')) path = `./${path}`;
        return { path, external: true };
      });
    },
  };
  const layer = await build({ ...common(root), entryPoints: [LAYER], outdir: dist, plugins: [sharedImport] });
  const layerImport = {
    name: 'validation-layer',
    setup(/** @type {import('esbuild').PluginBuild} */ b) {
      b.onResolve({ filter: /validation\/index\.js$/ }, (args) =>
        join(args.resolveDir, args.path) === layerFile ? { path: LAYER_NAME, external: true } : undefined,
      );
    },
  };
  const split = await build({
    ...common(root),
    entryPoints: [...new Set([...(await entryFiles(root, compiled)).filter((entry) => entry !== LAYER), ...SHARED])],
    outdir: dist,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    plugins: [layerImport],
  });
  /** @type {Record<string, string[]>} */
  const modules = {};
  for (const result of [layer, split])
    for (const file of result.outputFiles ?? []) {
      const path = relative(root, file.path).split(sep).join('/');
      const depth = path.split('/').length - 2;
      if (depth !== 1 && file.text.includes('import.meta.url'))
        throw new Error(`${path} reads files relative to itself but is not one folder below dist/`);
      let to = relative(dirname(file.path), layerFile).split(sep).join('/');
      if (!to.startsWith('.')) to = `./${to}`;
      await mkdir(dirname(file.path), { recursive: true });
      await writeFile(file.path, file.text.replaceAll(`from "${LAYER_NAME}";`, `from "${to}";`));
      modules[path] = Object.keys(result.metafile?.outputs[path]?.inputs ?? {}).sort();
    }
  await writeFile(join(dist, 'modules.json'), `${JSON.stringify(modules, null, 1)}\n`);
}
