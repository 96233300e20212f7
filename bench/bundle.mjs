// What an entry of the package weighs in a bundle: each entry imported by the package's name (the
// package refers to itself from its root), bundled by esbuild for a neutral platform (ES modules,
// `module` then `main`, minified, node: built-ins left out), measured in KB (1 000 bytes). A size
// is the same from run to run, so the reference is the target itself and the ratio is size/target
// (at most 1x: met). The three inputs that weigh most in the output are named beside each figure.

import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { operations } from '../generated/operations.js';

const root = fileURLToPath(new URL('../', import.meta.url));

/** The entries held to a size, and their targets in KB; `/validation` and `/client` are measured only. */
const TARGETS = [
  ['gateway-contract', 600],
  ['gateway-contract/webhook', 150],
  ...operations.map((op) => [`gateway-contract/validators/${op.operationId}`, 150]),
];
const MEASURED_ONLY = ['gateway-contract/validation', 'gateway-contract/client'];

/**
 * The minified bundle of `export * from '<entry>'`, and its three heaviest inputs (bytes each
 * contributes to the output).
 * @param {string} entry
 */
export async function bundleOf(entry) {
  const result = await build({
    stdin: { contents: `export * from '${entry}';\n`, resolveDir: root, loader: 'js', sourcefile: 'entry.js' },
    absWorkingDir: root,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'neutral',
    mainFields: ['module', 'main'],
    format: 'esm',
    minify: true,
    external: ['node:*'],
    logLevel: 'silent',
  });
  const bytes = result.outputFiles.reduce((sum, file) => sum + file.contents.byteLength, 0);
  const inputs = Object.values(result.metafile.outputs).flatMap((out) => Object.entries(out.inputs));
  const heaviest = inputs
    .sort(([, a], [, b]) => b.bytesInOutput - a.bytesInOutput)
    .slice(0, 3)
    .map(([path, { bytesInOutput }]) => `${path.replace(/^node_modules\//, '')} ${kb(bytesInOutput)} KB`);
  return { bytes, heaviest };
}

const kb = (/** @type {number} */ bytes) => Math.round(bytes / 100) / 10;

/** A size as a summary of one round: the same from run to run. */
const once = (/** @type {number} */ value) => ({ median: value, min: value, max: value, spread: 0, rounds: 1 });

export async function bundleFigures() {
  const figures = [];
  for (const [entry, target] of TARGETS) {
    const { bytes, heaviest } = await bundleOf(String(entry));
    const size = bytes / 1000;
    figures.push({
      group: 'bundle',
      name: `${entry}, minified (reference: the target; ratio: size/target)`,
      subject: once(size),
      reference: once(Number(target)),
      ratio: { value: size / Number(target), spread: 0 },
      unit: 'KB',
      target: `<= ${target} KB`,
      met: size <= Number(target),
      note: `heaviest: ${heaviest.join(', ')}`,
    });
  }
  for (const entry of MEASURED_ONLY) {
    const { bytes, heaviest } = await bundleOf(entry);
    const size = bytes / 1000;
    // No target: the reference is the root's target, for scale.
    figures.push({
      group: 'bundle',
      name: `${entry}, minified (reference: the root's target)`,
      subject: once(size),
      reference: once(600),
      ratio: { value: size / 600, spread: 0 },
      unit: 'KB',
      target: 'measured only',
      note: `heaviest: ${heaviest.join(', ')}`,
    });
  }
  return figures;
}
