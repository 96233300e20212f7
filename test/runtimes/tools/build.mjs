// @ts-nocheck: the tools come from test/runtimes/node_modules, installed apart from the repository's.
//
// Builds the consumer program of a fresh project (run.mjs made it, the packed package installed in
// it) with one bundler, as a merchant's build would, into <project>/out. The bundlers are the ones
// installed in test/runtimes; every import is resolved from the project's files, so the package
// comes from the project's node_modules. Usage: node tools/build.mjs <kind> <project>
// Exits 1 with the bundler's errors, one a line, when the build fails.
import { builtinModules } from 'node:module';
import { join } from 'node:path';

const [kind, project] = process.argv.slice(2);
const out = join(project, 'out');
/** The bundler's warnings, printed after a build that succeeds (a failure prints its errors alone). */
const warnings = [];

/** esbuild, the way each target's own tooling calls it. */
const ESBUILD = {
  // Node, nothing external: the bundle must carry the package and its dependencies.
  'esbuild-node': { entryPoints: ['consumer/main.mjs'], platform: 'node', format: 'esm', outfile: 'out/main.mjs' },
  'esbuild-node-cjs': { entryPoints: ['consumer/main.mjs'], platform: 'node', format: 'cjs', outfile: 'out/main.cjs' },
  // A Cloudflare Worker as wrangler builds one without nodejs_compat: no Node built-ins.
  workerd: {
    entryPoints: ['consumer/worker.mjs'],
    platform: 'browser',
    format: 'esm',
    conditions: ['workerd', 'worker', 'browser'],
    outfile: 'out/worker.mjs',
  },
  // An edge function as Vercel builds one: a script for the edge-runtime's VM.
  'edge-runtime': {
    entryPoints: ['consumer/edge.mjs'],
    platform: 'browser',
    format: 'iife',
    conditions: ['edge-light', 'worker', 'browser'],
    outfile: 'out/edge.js',
  },
  browser: { entryPoints: ['consumer/browser.mjs'], platform: 'browser', format: 'esm', outfile: 'out/browser.mjs' },
};

async function esbuild(options) {
  const { build } = await import('esbuild');
  try {
    const result = await build({ absWorkingDir: project, bundle: true, logLevel: 'silent', ...options });
    for (const w of result.warnings)
      warnings.push(`${w.text}${w.location ? ` (${w.location.file}:${w.location.line})` : ''}`);
  } catch (error) {
    throw new Error(
      (error.errors ?? [error])
        .map((e) => `${e.text ?? e.message}${e.location ? ` (${e.location.file}:${e.location.line})` : ''}`)
        .join('\n'),
    );
  }
}

async function webpack() {
  const { default: webpack } = await import('webpack');
  const stats = await new Promise((resolve, reject) =>
    webpack(
      {
        mode: 'production',
        target: 'node',
        context: project,
        entry: './consumer/main.mjs',
        output: { path: out, filename: 'main.cjs', chunkFilename: '[id].chunk.cjs' },
        // Unminified: minifying costs time and proves nothing here.
        optimization: { minimize: false },
        devtool: false,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
  const info = stats.toJson({ all: false, errors: true, warnings: true });
  for (const w of info.warnings) warnings.push(w.message.split('\n')[0]);
  if (stats.hasErrors())
    throw new Error(info.errors.map((e) => e.message.split('\n').slice(0, 2).join(' ')).join('\n'));
}

async function rollup() {
  const { rollup } = await import('rollup');
  const { nodeResolve } = await import('@rollup/plugin-node-resolve');
  const { default: commonjs } = await import('@rollup/plugin-commonjs');
  const { default: json } = await import('@rollup/plugin-json');
  const builtins = new Set(builtinModules);
  const bundle = await rollup({
    input: join(project, 'consumer/main.mjs'),
    // Node's built-ins stay imports; everything else is resolved from the project and bundled.
    external: (id) => id.startsWith('node:') || builtins.has(id),
    plugins: [nodeResolve({ exportConditions: ['node'], preferBuiltins: true }), commonjs(), json()],
    onwarn: (w) => {
      // Rollup keeps an import it cannot resolve as an external one: here that is a failed build.
      if (w.code === 'UNRESOLVED_IMPORT')
        throw new Error(w.exporter ? `Could not resolve "${w.exporter}" (${w.id})` : w.message);
      if (w.code !== 'CIRCULAR_DEPENDENCY') warnings.push(w.message);
    },
  });
  await bundle.write({ file: join(out, 'main.mjs'), format: 'es', inlineDynamicImports: true });
  await bundle.close();
}

try {
  if (kind in ESBUILD) await esbuild(ESBUILD[kind]);
  else if (kind === 'webpack') await webpack();
  else if (kind === 'rollup') await rollup();
  else throw new Error(`unknown build: ${kind}`);
  for (const w of warnings) console.error(`warning: ${w}`);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
