// The package's entry points as a program loads them from the built package, in a Node process of
// its own: each entry is a static import graph that loads what its part needs and nothing else
// (one operation's validators for `validators/<operationId>`, no client for the webhook receiver,
// nothing Node-only from a web entry), and no file of the package loads another in a way a bundler
// cannot follow. Speed is the benchmark's (bench/startup.mjs), never asserted here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runNode } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const HOOK = fileURLToPath(new URL('../helpers/moduleLog.mjs', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  files: string[];
};

/** The modules each bundled file of dist/ holds, as the build wrote them. */
const bundled = JSON.parse(readFileSync(join(root, 'dist/modules.json'), 'utf8')) as Record<string, string[]>;

/** What a program importing `specifier` (resolved by the package's own name) and running `program` loaded, and its output. */
async function loadedBy(
  specifier: string,
  program = 'return Object.keys(entry).length > 0;',
): Promise<{ files: string[]; modules: string[]; builtins: string[]; output: any }> {
  const code = `const entry = await import(${JSON.stringify(specifier)});
const output = await (async () => { ${program} })();
process.stdout.write(JSON.stringify({ output, builtins: process.moduleLoadList }));`;
  const { status, stdout, stderr } = await runNode(['--import', HOOK, '--input-type=module', '-e', code], {
    cwd: root,
  });
  expect(status, stderr).toBe(0);
  const { output, builtins } = JSON.parse(stdout);
  const files = [
    ...new Set([...stderr.matchAll(/^module: (file:.*)$/gm)].map((m) => fileURLToPath(m[1] as string))),
  ].map((p) =>
    p.includes('/node_modules/')
      ? p.slice(p.lastIndexOf('/node_modules/') + 1)
      : p.startsWith(root)
        ? p.slice(root.length)
        : p,
  );
  // A file the build bundled stands for the modules it holds (dist/modules.json, scripts/lib/bundle.mjs).
  const modules = [...new Set(files.flatMap((file) => bundled[file] ?? [file]))];
  const nodeBuiltins = (builtins as string[])
    .filter((b) => b.startsWith('NativeModule '))
    .map((b) => b.slice(13))
    .filter((b) => !b.startsWith('internal/'));
  return { files, modules, builtins: nodeBuiltins, output };
}

const VALID_PAY = {
  head: { requestTimeStamp: '1768971330000', channelId: 'WEB', tokenType: 'TXN_TOKEN', token: 'T', version: 'v1' },
  body: { mid: 'MERCHANT0001', orderId: 'ORDER-1001', requestType: 'PAYMENT', paymentMode: 'UPI_INTENT' },
};
const QUERY = { query: { mid: 'MERCHANT0001', orderId: 'ORDER-1001' } };

/** Modules a web entry must never load: the Node-only parts and what reads files. */
const NODE_ONLY = [
  /^dist\/proxy\//,
  /^dist\/sandbox\/(?!config\.js$)/,
  /^dist\/mock\//,
  /^dist\/cli\//,
  /^dist\/verify\//,
  /^dist\/inputs\/(read|files|glob|harFile|ndjsonFile)\.js$/,
];
/** Built-in modules a web entry must never load beyond those Node loads for any program. */
const NODE_BUILTINS = [
  'fs',
  'fs/promises',
  'path',
  'http',
  'https',
  'net',
  'crypto',
  'child_process',
  'zlib',
  'module',
  'stream',
  'url',
];
/** What Node itself loads for a program that imports nothing. */
let baseline: string[] = [];
const beyondBaseline = (builtins: string[]) =>
  builtins.filter((b) => NODE_BUILTINS.includes(b) && !baseline.includes(b));

const matching = (modules: string[], patterns: RegExp[]) => modules.filter((m) => patterns.some((p) => p.test(m)));

describe('each entry point loads its part and no other', () => {
  beforeAll(async () => {
    baseline = (await loadedBy('data:text/javascript,export default 1')).builtins;
  });

  it('validators/<operationId> loads that operation’s validators only, and validates', async () => {
    const { modules, builtins, output } = await loadedBy(
      'gateway-contract/validators/initiatePayment',
      `return [entry.validateRequest(${JSON.stringify(VALID_PAY)}, ${JSON.stringify(QUERY)}).valid, entry.validateRequest({}).errors.length > 0];`,
    );
    expect(output).toEqual([true, true]);
    expect(modules.filter((m) => m.startsWith('generated/validators/')).sort()).toEqual([
      'generated/validators/initiatePaymentRequest.js',
      'generated/validators/initiatePaymentResponse.js',
    ]);
    expect(
      matching(modules, [
        ...NODE_ONLY,
        /^dist\/client\//,
        /^dist\/webhook\//,
        /openapi-fetch/,
        /^generated\/validators\.js$/,
        /^generated\/openapi\.json$/,
        /^generated\/contract\.js$/,
      ]),
    ).toEqual([]);
    expect(beyondBaseline(builtins)).toEqual([]);
  });

  it('validation and the root are each one file (with the error classes they share), the client imports validation’s', async () => {
    const use = `entry.validate('initiatePayment', 'request', ${JSON.stringify(VALID_PAY)}, ${JSON.stringify(QUERY)}).valid`;
    const alone = await loadedBy('gateway-contract/validation', `return ${use};`);
    expect(alone.output).toBe(true);
    expect(alone.files).toEqual(['dist/validation/index.js']);
    // The root holds every part's code itself, but imports the modules whose classes a program
    // may compare across entries (D-146), and the client library.
    const root = await loadedBy('gateway-contract', `return ${use};`);
    expect(root.output).toBe(true);
    const rootHolds = bundled['dist/index.js'] ?? [];
    expect(rootHolds).toContain('generated/validators/initiatePaymentRequest.js');
    expect(rootHolds).toContain('dist/webhook/receive.js');
    for (const once of ['dist/transport/errors.js', 'dist/webhook/replayStore.js', 'dist/card/encryptCardData.js']) {
      expect(root.files).toContain(once);
      expect(rootHolds).not.toContain(once);
    }
    expect(root.files.filter((f) => f.startsWith('dist/')).sort()).toEqual([
      'dist/card/encryptCardData.js',
      'dist/index.js',
      'dist/transport/errors.js',
      'dist/webhook/replayStore.js',
    ]);
    const client = await loadedBy('gateway-contract/client');
    expect(client.files).toContain('dist/validation/index.js');
    expect(
      client.files
        .filter((f) => f !== 'dist/validation/index.js')
        .flatMap((f) => bundled[f] ?? [f])
        .filter((m) => m.startsWith('generated/validators/')),
    ).toEqual([]);
  });

  it('a class is the same class from the root and from every entry that exports it', async () => {
    // Every entry of code but the root and the per-operation pattern (whose modules hold no class).
    const entries = Object.entries(manifest.exports)
      .filter(([key, value]) => key !== '.' && !key.includes('*') && String((value as any)?.default).endsWith('.js'))
      .map(([key]) => `gateway-contract${key.slice(1)}`);
    const { output } = await loadedBy(
      'gateway-contract',
      `const compared = [];
       for (const specifier of ${JSON.stringify(entries)}) {
         const other = await import(specifier);
         for (const [name, value] of Object.entries(other))
           if (typeof value === 'function' && /^class\\b/.test(Function.prototype.toString.call(value)) && name in entry)
             compared.push([specifier, name, entry[name] === value]);
       }
       return compared;`,
    );
    const compared = output as [string, string, boolean][];
    expect(compared.filter(([, , same]) => !same)).toEqual([]);
    // What is compared: the client's errors, the card's and the replay store's.
    const names = new Set(compared.map(([, name]) => name));
    for (const name of [
      'GatewayError',
      'GatewayNetworkError',
      'ResponseValidationError',
      'CardDataError',
      'ReplayStoreFullError',
    ])
      expect(names).toContain(name);
  });

  it('the webhook receiver loads the notification’s validators only, and no client', async () => {
    const { modules, builtins, output } = await loadedBy(
      'gateway-contract/webhook',
      `const { createChecksumVerifier } = await import('gateway-contract/signing');
       const receiver = entry.createWebhookReceiver({ verifier: createChecksumVerifier('SandboxTestKey01') });
       return (await receiver.receive('{}')).accepted;`,
    );
    expect(output).toBe(false);
    // The notification's module alone: the receiver validates no reply.
    expect(modules.filter((m) => m.startsWith('generated/validators/'))).toEqual([
      'generated/validators/notifyTokenStatusRequest.js',
    ]);
    expect(
      matching(modules, [...NODE_ONLY, /^dist\/client\//, /openapi-fetch/, /^dist\/webhook\/(send|suite)\.js$/]),
    ).toEqual([]);
    expect(beyondBaseline(builtins)).toEqual([]);
  });

  it('the replay stores and their test kit load no client library and nothing Node-only', async () => {
    for (const entry of [
      'gateway-contract/webhook/redis',
      'gateway-contract/webhook/postgres',
      'gateway-contract/webhook/store-test-kit',
    ]) {
      const { modules, builtins, output } = await loadedBy(entry, 'return Object.keys(entry).sort();');
      expect(output.length, entry).toBeGreaterThan(0);
      expect(
        matching(modules, [
          ...NODE_ONLY,
          /^dist\/client\//,
          /^node_modules\/(redis|@redis|ioredis|pg)\//,
          /^generated\//,
        ]),
        entry,
      ).toEqual([]);
      expect(beyondBaseline(builtins), entry).toEqual([]);
    }
  });

  it('the root loads the web-standard core and nothing Node-only', async () => {
    const { modules, builtins, output } = await loadedBy(
      'gateway-contract',
      `return [entry.validate('initiatePayment', 'request', ${JSON.stringify(VALID_PAY)}, ${JSON.stringify(QUERY)}).valid, typeof entry.createGatewayClient, typeof entry.startSandbox];`,
    );
    expect(output).toEqual([true, 'function', 'undefined']);
    expect(matching(modules, NODE_ONLY)).toEqual([]);
    expect(beyondBaseline(builtins)).toEqual([]);
  });

  it('the client loads and calls where the runtime has no diagnostics_channel: its tracing is simply absent', async () => {
    // As in a browser or on workerd without nodejs_compat: no process.getBuiltinModule at all.
    const { output } = await loadedBy(
      'data:text/javascript,delete process.getBuiltinModule; export default 1',
      `const { createGatewayClient } = await import('gateway-contract/client');
       const client = createGatewayClient({ gatewayUrl: 'http://127.0.0.1:9', routerUrl: 'http://127.0.0.1:9' });
       const error = await client.initiatePayment({ txnToken: 'T', body: { mid: 'M', orderId: 'O' } }).catch((e) => e);
       return [typeof process.getBuiltinModule, error.name, error.operationId];`,
    );
    expect(output).toEqual(['undefined', 'GatewayNetworkError', 'initiatePayment']);
  });

  it('the Node-only entries work: the sandbox starts, the readers read', async () => {
    const { output } = await loadedBy(
      'gateway-contract/sandbox',
      `const sandbox = await entry.startSandbox({ port: 0 });
       const url = typeof sandbox.url;
       await sandbox.stop();
       const inputs = await import('gateway-contract/inputs');
       return [url, typeof inputs.harFileRecords, typeof inputs.expandPaths];`,
    );
    expect(output).toEqual(['string', 'function', 'function']);
  });
});

describe('every load of the package is one a bundler follows', () => {
  const packaged = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && /\.(js|mjs|cjs)$/.test(e.name))
      .map((e) => join(e.parentPath, e.name));
  const shipped = [...packaged('dist'), ...packaged('generated')];

  /**
   * The modules of a shipped file and their code: a file the build bundled holds several, each
   * after the comment naming it (`// dist/cli/guides.js`), as esbuild writes them.
   */
  const sectionsOf = (where: string, text: string): [string, string][] => {
    if (!bundled[where]) return [[where, text]];
    const parts = text.split(/^\/\/ ((?:dist|generated)\/\S+\.js)$/m);
    const sections: [string, string][] = [];
    for (let i = 1; i < parts.length; i += 2) sections.push([parts[i] as string, parts[i + 1] as string]);
    return sections;
  };

  it('bundles each entry with the modules it holds, the code of each named where it starts', () => {
    for (const [file, held] of Object.entries(bundled)) {
      const text = readFileSync(join(root, file), 'utf8');
      const named = sectionsOf(file, text).map(([module]) => module);
      // A module of re-exports alone leaves no code of its own (and esbuild its helpers under no name).
      expect(
        named.filter((module) => !held.includes(module)),
        file,
      ).toEqual([]);
    }
  });

  it('no createRequire, require(), computed import() or read of its own files', () => {
    const found: string[] = [];
    for (const file of shipped) {
      for (const [where, text] of sectionsOf(file.slice(root.length), readFileSync(file, 'utf8'))) {
        if (/\bcreateRequire\b/.test(text)) found.push(`${where}: createRequire`);
        if (/(^|[^.\w$])require\s*\(/.test(text)) found.push(`${where}: require()`);
        // import() only with a literal string: a bundler follows those.
        // The user's own module named on the command line (verify's --fixtures) is the one load whose path is computed.
        const userModule = where === 'dist/cli/userModule.js';
        for (const m of text.matchAll(/\bimport\(\s*([^)]{0,80})/g))
          if (!/^['"][^'"]+['"]\s*$/.test(m[1] as string) && !userModule) found.push(`${where}: import(${m[1]})`);
        if (/import\.meta\.url/.test(text) && /readFileSync|readFile\(/.test(text) && !where.startsWith('dist/mock/'))
          found.push(`${where}: reads its own files`);
      }
    }
    expect(found).toEqual([]);
  });

  it('exports an entry for each part, each file of which is packed', () => {
    expect(Object.keys(manifest.exports)).toEqual(
      expect.arrayContaining([
        '.',
        './validation',
        './validators/*',
        './client',
        './signing',
        './webhook',
        './webhook/sender',
        './webhook/redis',
        './webhook/postgres',
        './webhook/store-test-kit',
        './card',
        './sandbox',
        './inputs',
        './verify',
      ]),
    );
  });
});
