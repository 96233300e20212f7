#!/usr/bin/env node
// The package as a merchant's app gets it: `npm pack`, installed into a fresh project with no dev
// tools, must stay lean (packages, bytes, commands), compile with the strictest settings and
// `skipLibCheck: false` under both module resolutions (a program using the client, validate(),
// the webhook receiver, the signer, encryptCardData, the subpaths and startSandbox, and every
// TypeScript example of the README and of docs/ as written), run against an in-process sandbox, also bundled
// with the package inside (esbuild), load from CommonJS, tell exactly what to install for the mock, and, so installed, answer as this
// repository's mock does. Usage: node scripts/check-consumer.mjs
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The bounds of a consumer install. */
const MAX_PACKAGES = 12;
// 10 MB since verify: fast-check and pure-rand, its dependencies, take 1.8 MB (docs/decisions.md, D-126).
const MAX_BYTES = 10_000_000;

let failures = 0;
/** @param {string} what @param {boolean} ok @param {string} [detail] */
function check(what, ok, detail = '') {
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? `: ${detail}` : ''}\n`);
  if (!ok) failures++;
}

/** @param {string} command @param {string[]} args @param {{ cwd: string, env?: NodeJS.ProcessEnv }} options */
function run(command, args, options) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    ...options,
    env: { ...process.env, ...options.env },
  });
  return { status: result.status, out: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

/** Every package directory under a node_modules tree (scoped ones included). @param {string} dir @returns {string[]} */
function packagesIn(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    if (name.startsWith('@')) found.push(...packagesIn(path));
    else {
      found.push(path);
      const nested = join(path, 'node_modules');
      if (statSync(nested, { throwIfNoEntry: false })?.isDirectory()) found.push(...packagesIn(nested));
    }
  }
  return found;
}

/** The bytes of every file under `dir`. @param {string} dir @returns {number} */
function bytesUnder(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** The README and the pages of docs/: the guides whose examples a merchant copies. */
const GUIDES = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The TypeScript code blocks of the guides, each as a module, named after its page. @returns {[string, string][]} */
function guideExamples() {
  return GUIDES.flatMap((guide) => {
    const text = readFileSync(join(root, guide), 'utf8');
    const name = guide
      .replace(/^docs\//, '')
      .replace(/\.md$/, '')
      .toLowerCase();
    return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map(
      (m, i) =>
        /** @type {[string, string]} */ ([`${name}-${String(i + 1).padStart(2, '0')}.ts`, `${m[1]}\nexport {};\n`]),
    );
  });
}

const work = mkdtempSync(join(tmpdir(), 'gateway-contract-consumer-'));
try {
  const packed = run('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: root });
  const tarball = join(work, packed.out.split('\n').pop() ?? '');
  check('npm pack', packed.status === 0, packed.status === 0 ? '' : packed.out.slice(-2000));
  if (packed.status !== 0) process.exit(1);

  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'merchant-app', private: true, type: 'module' }, null, 2)}\n`,
  );
  const installed = run('npm', ['install', '--no-audit', '--no-fund', '--silent', tarball], { cwd: app });
  check(
    'install into a fresh project',
    installed.status === 0,
    installed.status === 0 ? '' : installed.out.slice(-2000),
  );
  if (installed.status !== 0) process.exit(1);

  const modules = join(app, 'node_modules');
  const packages = packagesIn(modules);
  check(
    `at most ${MAX_PACKAGES} packages`,
    packages.length <= MAX_PACKAGES,
    `${packages.length}: ${packages.map((p) => p.slice(modules.length + 1)).join(', ')}`,
  );
  const bytes = bytesUnder(modules);
  check(`at most ${MAX_BYTES / 1e6} MB of node_modules`, bytes <= MAX_BYTES, `${(bytes / 1e6).toFixed(2)} MB`);
  const bin = readdirSync(join(modules, '.bin'));
  check('only its own command in node_modules/.bin', bin.length === 1 && bin[0] === 'gateway-contract', bin.join(', '));

  // The program and the guides' examples, compiled with the repository's TypeScript and Node types.
  const src = join(app, 'src');
  mkdirSync(src);
  cpSync(join(root, 'test/consumer/app.ts'), join(src, 'app.ts'));
  cpSync(join(root, 'test/consumer/readme.globals.d.ts'), join(src, 'readme.globals.d.ts'));
  const examples = guideExamples();
  check(
    'the README and every page of docs/ with code have TypeScript examples',
    examples.some(([file]) => file.startsWith('readme-')) &&
      ['validation', 'client', 'webhooks', 'journeys', 'mock', 'sandbox'].every((page) =>
        examples.some(([file]) => file.startsWith(`${page}-`)),
      ),
    String(examples.length),
  );
  for (const [file, code] of examples) writeFileSync(join(src, file), code);

  // The libraries the guides' examples use beside the package (a Redis or PostgreSQL client,
  // OpenTelemetry's API), at the versions the repository pins, with their types; installed after
  // the size checks above, which count what the package alone brings.
  const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies;
  const packageOf = (/** @type {string} */ specifier) =>
    specifier
      .split('/')
      .slice(0, specifier.startsWith('@') ? 2 : 1)
      .join('/');
  const libraries = [
    ...new Set(
      examples
        .flatMap(([, code]) => [...code.matchAll(/from '([^'.][^']*)'/g)].map((m) => packageOf(m[1] ?? '')))
        .filter((name) => !name.startsWith('node:') && name !== 'gateway-contract'),
    ),
  ].sort();
  const unpinned = libraries.filter((name) => !pinned[name]);
  check('the guides import only libraries the repository pins', unpinned.length === 0, unpinned.join(', '));
  const installs = libraries.flatMap((name) =>
    [name, `@types/${name}`].filter((n) => pinned[n]).map((n) => `${n}@${pinned[n]}`),
  );
  if (installs.length > 0) {
    const added = run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--silent', ...installs], {
      cwd: app,
    });
    check(
      `install what the guides import beside the package (${installs.join(', ')})`,
      added.status === 0,
      added.out.slice(-2000),
    );
  }
  const strictest = {
    target: 'ES2022',
    lib: ['ES2023'],
    strict: true,
    skipLibCheck: false,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    noImplicitReturns: true,
    verbatimModuleSyntax: true,
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
  };
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  for (const [name, options] of /** @type {const} */ ([
    ['nodenext', { module: 'NodeNext', moduleResolution: 'NodeNext', outDir: 'out', rootDir: 'src' }],
    ['bundler', { module: 'ESNext', moduleResolution: 'Bundler', noEmit: true }],
  ])) {
    writeFileSync(
      join(app, `tsconfig.${name}.json`),
      JSON.stringify({ compilerOptions: { ...strictest, ...options }, include: ['src'] }, null, 2),
    );
    const compiled = run(process.execPath, [tsc, '-p', `tsconfig.${name}.json`], { cwd: app });
    check(
      `strict compile, skipLibCheck false, moduleResolution ${name}`,
      compiled.status === 0 && compiled.out === '',
      compiled.out.slice(0, 4000),
    );
  }

  // The web entries compiled as a program without Node's types sees them: the DOM's types, no @types/node.
  const web = join(app, 'web');
  mkdirSync(web);
  cpSync(join(root, 'test/consumer/web.ts'), join(web, 'web.ts'));
  const webOptions = {
    ...strictest,
    lib: ['ES2023', 'DOM'],
    types: [],
    module: 'ESNext',
    moduleResolution: 'Bundler',
    noEmit: true,
  };
  writeFileSync(
    join(app, 'tsconfig.web.json'),
    JSON.stringify({ compilerOptions: webOptions, include: ['web'] }, null, 2),
  );
  const webCompiled = run(process.execPath, [tsc, '-p', 'tsconfig.web.json'], { cwd: app });
  check(
    'the web entries compile without Node types (DOM lib, no @types/node)',
    webCompiled.status === 0 && webCompiled.out === '',
    webCompiled.out.slice(0, 4000),
  );

  const ran = run(process.execPath, ['out/app.js'], { cwd: app });
  check(
    'the program runs against an in-process sandbox',
    ran.status === 0 && ran.out.includes('consumer program: ok'),
    ran.out.slice(-2000),
  );

  // Bundled with the package inside (nothing external): the same run. test/runtimes/ runs such
  // bundles with no node_modules beside them, on every runtime and bundler the README names.
  const { build } = await import('esbuild');
  const bundled = await build({
    absWorkingDir: app,
    entryPoints: ['out/app.js'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: 'bundle/app.mjs',
    logLevel: 'silent',
  }).then(
    () => run(process.execPath, ['bundle/app.mjs'], { cwd: app }),
    (/** @type {Error} */ error) => ({ status: 1, out: error.message }),
  );
  check(
    'bundled with the package inside (esbuild), the program runs',
    bundled.status === 0 && bundled.out.includes('consumer program: ok'),
    bundled.out.slice(-2000),
  );

  writeFileSync(
    join(app, 'require.cjs'),
    "const g = require('gateway-contract');\nif (typeof g.validate !== 'function' || typeof g.createGatewayClient !== 'function') throw new Error('missing exports');\nconsole.log('required');\n",
  );
  const required = run(process.execPath, ['require.cjs'], { cwd: app });
  check('require() from CommonJS', required.status === 0 && required.out === 'required', required.out.slice(0, 2000));

  const mock = run(process.execPath, [join(modules, 'gateway-contract/dist/cli/bin.js'), 'mock', '--port', '1'], {
    cwd: app,
  });
  const lines = mock.out.split('\n');
  check(
    'the mock without Prism says in one line what to install',
    mock.status === 2 && lines.length === 1 && /npm install --save-dev @stoplight\/prism-cli@\S+ /.test(mock.out),
    mock.out.slice(0, 500),
  );

  // Installed with the command it names, the mock answers as this repository's does: malformed
  // JSON is answered at once (newer Prism parts leave it hanging), and the named examples are served.
  const install = /npm install (--save-dev .+)$/.exec(mock.out)?.[1]?.split(' ') ?? [];
  const prism = run('npm', ['install', '--no-audit', '--no-fund', '--silent', ...install], { cwd: app });
  check(
    'Prism installs with the command the mock names',
    install.length > 1 && prism.status === 0,
    prism.out.slice(-1000),
  );
  if (prism.status === 0)
    check(
      'the installed mock answers as the repository mock does',
      await mockAnswers(join(modules, 'gateway-contract/dist/cli/bin.js'), app),
    );
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** A port nothing listens on (it was free a moment ago). @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** Starts `gateway-contract mock` and asks it two questions whose answers tell the Prism versions apart. @param {string} bin @param {string} cwd */
async function mockAnswers(bin, cwd) {
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'mock', '--port', String(port), '--docs-port', '0'], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const started = await new Promise((resolve) => {
      let text = '';
      const timer = setTimeout(() => resolve(false), 60_000);
      child.stdout.on('data', (chunk) => {
        text += chunk;
        if (text.includes('Press Ctrl-C')) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.once('exit', () => resolve(false));
    });
    if (!started) return false;
    const base = `http://127.0.0.1:${port}/aoa-acquiring-biz/v2`;
    const post = (
      /** @type {string} */ path,
      /** @type {string} */ body,
      /** @type {Record<string, string>} */ headers = {},
    ) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...headers },
        signal: AbortSignal.timeout(5_000),
      });
    const malformed = await post('/payment?mid=MERCHANT0001&orderId=ORDER-1001', '{"head":');
    const named = await post(
      '/modifyOrder?mid=MERCHANT0001&orderId=ORDER-1001',
      '{"head":{"tokenType":"TXN_TOKEN","token":"T"},"body":{}}',
      {
        prefer: 'example=modifyOrderInProcess',
      },
    );
    const answer = /** @type {{ body?: { resultInfo?: { resultCode?: string } } }} */ (await named.json());
    return malformed.status === 400 && answer.body?.resultInfo?.resultCode === '1111';
  } catch {
    return false;
  } finally {
    child.kill('SIGTERM');
  }
}
process.stdout.write(
  `check:consumer: ${failures === 0 ? 'the packed package works in a fresh project' : `${failures} check(s) failed`}\n`,
);
process.exit(failures === 0 ? 0 : 1);
