#!/usr/bin/env node
import { spawn } from 'node:child_process';
// `npm run bench`: how fast validation, start-up, the client, the mock and the sandbox are, each against a
// reference measured in the same run. Loopback only, bounded in time. Prints a table; a whole run
// writes bench/results.json too. Usage: node bench/run.mjs [--only validation,formats,startup,bundle,batch,inputs,client,mock,sandbox,state,proxy,receiver,generate,patterns]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { msPerRun, ratio } from './stats.mjs';
import { writePageTable } from './table.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const only = (() => {
  const i = process.argv.indexOf('--only');
  return i > 0 ? new Set(process.argv[i + 1].split(',')) : null;
})();
const wanted = (/** @type {string} */ name) => !only || only.has(name);

/** @type {{ group: string, name: string, subject: any, reference: any, ratio: any, unit: string, target?: string, met?: boolean, note?: string }[]} */
const figures = [];
const started = Date.now();
const log = (/** @type {string} */ s) => process.stderr.write(`bench: ${s}\n`);

if (wanted('validation')) {
  log('validation vs JSON.parse');
  figures.push(...(await (await import('./validation.mjs')).validationFigures()));
}
if (wanted('formats')) {
  log('formats alone vs ajv-formats');
  figures.push(...(await import('./formatChecks.mjs')).formatFigures());
}
if (wanted('startup')) {
  log('cold start');
  figures.push(...(await (await import('./startup.mjs')).startupFigures()));
}
if (wanted('bundle')) {
  log('minified bundles of the entries vs their targets');
  figures.push(...(await (await import('./bundle.mjs')).bundleFigures()));
}
if (wanted('batch')) {
  log('1 000 payloads in one run vs bare node');
  figures.push(...(await (await import('./batch.mjs')).batchFigures()));
}
if (wanted('inputs')) {
  log('a payload of 16 MiB vs 4 MiB, in one run of the command');
  figures.push(...(await (await import('./inputs.mjs')).inputFigures()));
}
if (wanted('client')) {
  log('client vs bare fetch');
  figures.push(...(await (await import('./client.mjs')).clientFigures()));
}
if (wanted('mock')) {
  log('mock vs bare node:http (autocannon)');
  figures.push(...(await (await import('./mock.mjs')).mockFigures()));
}
if (wanted('sandbox')) {
  log('sandbox vs Prism vs bare node:http (autocannon)');
  figures.push(...(await (await import('./sandbox.mjs')).sandboxFigures()));
}
if (wanted('state')) {
  log('sandbox calls with 100 000 records vs none');
  figures.push(...(await (await import('./state.mjs')).stateFigures()));
}
if (wanted('proxy')) {
  log('the validating proxy vs the sandbox directly');
  figures.push(...(await (await import('./proxy.mjs')).proxyFigures()));
}
if (wanted('receiver')) {
  log('the webhook receiver on forged notifications vs JSON.parse');
  figures.push(...(await (await import('./receiver.mjs')).receiverFigures()));
}
if (wanted('patterns')) {
  log('patterns against hostile input');
  figures.push(...(await (await import('./patterns.mjs')).patternFigures()));
}
if (wanted('generate')) {
  log('npm run generate');
  const run = () =>
    new Promise((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [join(root, 'scripts/generate.mjs'), '--out', mkdtempSync(join(tmpdir(), 'bench-gen-'))],
        { stdio: 'ignore' },
      );
      child.on('exit', (code) => (code === 0 ? resolve(undefined) : reject(new Error(`generate exited ${code}`))));
    });
  const generate = await msPerRun(run, { rounds: 3, warmup: 0 });
  const bare = await msPerRun(
    () => new Promise((resolve) => spawn(process.execPath, ['-e', '0']).on('exit', resolve)),
    { rounds: 5 },
  );
  figures.push({
    group: 'generate',
    name: 'npm run generate (wall time)',
    subject: generate,
    reference: bare,
    ratio: ratio(generate, bare),
    unit: 'ms',
    target: 'measured only',
  });
}

const results = {
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    platform: `${platform()} ${arch()}`,
  },
  node: process.version,
  date: new Date().toISOString(),
  durationSeconds: Math.round((Date.now() - started) / 1000),
  figures,
};
// Only a whole run is kept: a file of some groups would drop the others' figures. The performance
// page's table is rendered from it.
if (!only) {
  writeFileSync(join(root, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writePageTable();
}

const fmt = (/** @type {number} */ n) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const rows = [['figure', 'subject', 'reference', 'ratio', 'target']];
for (const f of figures) {
  rows.push([
    `${f.group}: ${f.name}${f.note ? ` [${f.note}]` : ''}`,
    `${fmt(f.subject.median)} ${f.unit} ±${(f.subject.spread * 100).toFixed(0)}%`,
    `${fmt(f.reference.median)} ${f.unit} ±${(f.reference.spread * 100).toFixed(0)}%`,
    `${f.ratio.value.toFixed(2)}x ±${(f.ratio.spread * 100).toFixed(0)}%`,
    f.target ? `${f.target}${f.met === undefined ? '' : f.met ? ' (met)' : ' (MISSED)'}` : '',
  ]);
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const [i, r] of rows.entries()) {
  process.stdout.write(`| ${r.map((c, j) => c.padEnd(widths[j])).join(' | ')} |\n`);
  if (i === 0) process.stdout.write(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n`);
}
process.stdout.write(
  `\n${results.machine.cpus} cores, ${results.node}, ${results.durationSeconds} s${only ? '' : '; results in bench/results.json'}\n`,
);
