// The package's entry points bundled in place (docs/decisions.md, D-141, D-146). TypeScript
// compiles src/ one module per file; a program importing the root then loaded about a hundred
// files, and Node's cost per module file, not the code, was most of the start of a program that
// imports the package (bench/startup.mjs). The root and `/validation` are each one file holding
// what they import, but for the modules whose classes a program may compare across entries (ONCE),
// each one file of its own that every file needing it imports. Each other entry of package.json
// (`exports` in dist/, `bin`) is rewritten as one file holding the modules only it imports, and
// the modules two of them share go to chunks in dist/chunks/. npm packages stay imports
// (`openapi-fetch`, `fast-check`, ...), Node's built-ins too. The code is not minified: it reads
// as TypeScript compiled it. The modules TypeScript wrote stay beside the bundles with their
// declarations, but out of the package. `dist/modules.json` (not shipped) says which modules each
// file holds: the test of the entries (test/package/entries.process.test.ts) reads what a program
// loaded through it.
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
 * The modules whose classes a program may compare across entries (`instanceof` of an error from
 * the root and from `/client`, a replay store of `/webhook/redis` refusing with the receiver's
 * error), each bundled whole in a file of its own (D-146): every other file that needs one imports
 * it, so that each class exists once however many entries a program imports.
 */
const ONCE = ['dist/transport/errors.js', 'dist/webhook/replayStore.js', 'dist/card/encryptCardData.js'];
/**
 * The entries bundled whole (D-146): each one file holding every module it imports but those of
 * ONCE. The other entries import such a file where a module of theirs imports it.
 */
const WHOLE = ['dist/validation/index.js', 'dist/index.js'];
/** How the split build names a file bundled whole while it is built; each file then gets its path to it. */
const placeholder = (/** @type {string} */ file) => `whole:${file}`;

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
 * Bundles the entries of dist/ in place: the modules of ONCE and the entries of WHOLE each in one
 * file, the others with shared chunks in dist/chunks/. Fails when a module that reads a file
 * beside it (`import.meta.url`) would move to another depth of dist/, where its relative path
 * would point elsewhere.
 * @param {string} root @param {string[]} compiled
 */
export async function bundleEntries(root, compiled) {
  const dist = join(root, 'dist');
  const pathFrom = (/** @type {string} */ from, /** @type {string} */ to) => {
    const path = relative(dirname(from), to).split(sep).join('/');
    return path.startsWith('.') ? path : `./${path}`;
  };
  const once = ONCE.map((file) => join(root, file));
  /** @type {import('esbuild').BuildResult[]} */
  const results = [];
  for (const entry of [...ONCE, ...WHOLE]) {
    const file = join(root, entry);
    const importOnce = {
      name: 'import-once',
      setup(/** @type {import('esbuild').PluginBuild} */ b) {
        b.onResolve({ filter: /\.js$/ }, (args) => {
          const target = join(args.resolveDir, args.path);
          return target !== file && once.includes(target)
            ? { path: pathFrom(file, target), external: true }
            : undefined;
        });
      },
    };
    results.push(await build({ ...common(root), entryPoints: [entry], outdir: dist, plugins: [importOnce] }));
  }
  const wholes = new Map([...ONCE, ...WHOLE].map((entry) => [join(root, entry), entry]));
  const importWhole = {
    name: 'import-whole',
    setup(/** @type {import('esbuild').PluginBuild} */ b) {
      b.onResolve({ filter: /\.js$/ }, (args) => {
        const entry = wholes.get(join(args.resolveDir, args.path));
        return entry === undefined ? undefined : { path: placeholder(entry), external: true };
      });
    },
  };
  results.push(
    await build({
      ...common(root),
      entryPoints: (await entryFiles(root, compiled)).filter((entry) => !wholes.has(join(root, entry))),
      outdir: dist,
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      plugins: [importWhole],
    }),
  );
  /** @type {Record<string, string[]>} */
  const modules = {};
  for (const result of results)
    for (const file of result.outputFiles ?? []) {
      const path = relative(root, file.path).split(sep).join('/');
      const depth = path.split('/').length - 2;
      if (depth !== 1 && file.text.includes('import.meta.url'))
        throw new Error(`${path} reads files relative to itself but is not one folder below dist/`);
      let text = file.text;
      for (const [to, entry] of wholes)
        text = text.replaceAll(`from "${placeholder(entry)}";`, `from "${pathFrom(file.path, to)}";`);
      await mkdir(dirname(file.path), { recursive: true });
      await writeFile(file.path, text);
      modules[path] = Object.keys(result.metafile?.outputs[path]?.inputs ?? {}).sort();
    }
  await writeFile(join(dist, 'modules.json'), `${JSON.stringify(modules, null, 1)}\n`);
  // The files TypeScript wrote that no bundle replaced: the bundles hold their code, so the package
  // leaves them out (npm reads a folder's .npmignore beside `files`); the repository's tests and
  // benchmarks still import some of them.
  const unbundled = compiled.filter((file) => file.endsWith('.js') && !Object.hasOwn(modules, file));
  await writeFile(join(dist, '.npmignore'), unbundled.map((file) => `/${file.slice('dist/'.length)}\n`).join(''));
}
