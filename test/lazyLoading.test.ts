// What the built package loads, seen from a child process: importing the entry and validating a
// payload loads the validators of that one operation and direction, never the sandbox, the mock
// launcher, the webhook sender, the client, the readers, the reports or node:crypto; a helper's
// module is loaded when the helper is first called, and works then (DECISIONS.md, D-63, D-64).
// Speed is the benchmark's (bench/startup.mjs), never asserted here.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runNode } from './helpers/cli.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const HOOK = fileURLToPath(new URL('./helpers/moduleLog.mjs', import.meta.url));

/** What a program run against dist/ loaded: ES modules, CommonJS modules (and those required), built-in modules, and its output. */
async function loadedBy(program: string): Promise<{ modules: string[]; builtins: string[]; output: any }> {
  const code = `import { createRequire } from 'node:module';
const entry = await import('./dist/index.js');
const output = await (async () => { ${program} })();
const cache = Object.keys(createRequire(import.meta.url).cache);
process.stdout.write(JSON.stringify({ output, cache, builtins: process.moduleLoadList }));`;
  const { status, stdout, stderr } = await runNode(['--import', HOOK, '--input-type=module', '-e', code], { cwd: root });
  expect(status, stderr).toBe(0);
  const { output, cache, builtins } = JSON.parse(stdout);
  const esm = [...stderr.matchAll(/^module: (file:.*)$/gm)].map((m) => fileURLToPath(m[1] as string));
  const local = (p: string) => (p.startsWith(root) ? p.slice(root.length) : p);
  const fromNodeModules = (p: string) => p.includes('/node_modules/');
  const modules = [...new Set([...esm, ...(cache as string[])].filter((p) => p.startsWith('/')).map((p) => (fromNodeModules(p) ? p : local(p))))];
  return { modules, builtins: (builtins as string[]).filter((b) => b.startsWith('NativeModule ')).map((b) => b.slice(13)), output };
}

const VALID_PAY = {
  head: { requestTimeStamp: '1768971330000', channelId: 'WEB', tokenType: 'TXN_TOKEN', token: 'T', version: 'v1' },
  body: { mid: 'MERCHANT0001', orderId: 'ORDER-1001', requestType: 'PAYMENT', paymentMode: 'UPI_INTENT' },
};
const QUERY = { query: { mid: 'MERCHANT0001', orderId: 'ORDER-1001' } };

describe('loading on first use', () => {
  it('importing the entry and validating a payload loads that operation only, and none of the helpers', async () => {
    const { modules, builtins, output } = await loadedBy(
      `return entry.validate('initiatePayment', 'request', ${JSON.stringify(VALID_PAY)}, ${JSON.stringify(QUERY)}).valid;`,
    );
    expect(output).toBe(true);
    expect(modules).toContain('dist/validation/validate.js');
    expect(modules.filter((m) => m.startsWith('generated/validators'))).toEqual(['generated/validators/initiatePaymentRequest.js']);
    for (const unwanted of [
      /^dist\/sandbox\/(?!config\.js$)/,
      /^dist\/mock\//,
      /^dist\/webhook\/(send|suite|receive|adapters)\.js$/,
      /^dist\/client\//,
      /^dist\/inputs\//,
      /^dist\/report\/(?!format\.js$)/,
      /^dist\/validation\/(errors|validateMany)\.js$/,
      /^generated\/validators\.js$/,
      /^generated\/openapi\.json$/,
      /openapi-fetch/,
    ]) {
      expect(
        modules.filter((m) => unwanted.test(m)),
        String(unwanted),
      ).toEqual([]);
    }
    expect(builtins).not.toContain('crypto');
  });

  it('an invalid payload loads the validators that describe every problem, of that operation only', async () => {
    const { modules, output } = await loadedBy(`return entry.validate('tokenizeCard', 'response', {}).valid;`);
    expect(output).toBe(false);
    expect(modules.filter((m) => m.startsWith('generated/validators')).sort()).toEqual([
      'generated/validators/tokenizeCardResponse.js',
      'generated/validators/tokenizeCardResponse.detailed.js',
    ]);
    expect(modules).toContain('dist/validation/errors.js');
  });

  it('a run of many small payloads loads one validator module per operation and direction, and the wording of problems only for a problem', async () => {
    const record = (payload: unknown) => ({ operationId: 'initiatePayment', direction: 'request', payload, ...QUERY });
    const valid = await loadedBy(`return (await entry.validateMany([${JSON.stringify(record(VALID_PAY))}, ${JSON.stringify(record(VALID_PAY))}])).counts;`);
    expect(valid.output).toMatchObject({ valid: 2, invalid: 0 });
    expect(valid.modules.filter((m) => m.startsWith('generated/validators'))).toEqual(['generated/validators/initiatePaymentRequest.detailed.js']);
    expect(valid.modules).not.toContain('dist/validation/errors.js');
    const invalid = await loadedBy(`return (await entry.validateMany([${JSON.stringify(record({ head: VALID_PAY.head }))}])).counts;`);
    expect(invalid.output).toMatchObject({ valid: 0, invalid: 1 });
    expect(invalid.modules.filter((m) => m.startsWith('generated/validators'))).toEqual(['generated/validators/initiatePaymentRequest.detailed.js']);
    expect(invalid.modules).toContain('dist/validation/errors.js');
  });

  it('each helper loads its module when first called, and works', async () => {
    const { modules, output } = await loadedBy(`
      const out = {};
      const sandbox = await entry.startSandbox({ port: 0 });
      out.sandbox = typeof sandbox.url;
      await sandbox.stop();
      out.client = Object.keys(entry.createGatewayClient({ gatewayUrl: 'http://127.0.0.1:9', routerUrl: 'http://127.0.0.1:9' })).length;
      out.receiver = typeof entry.createWebhookReceiver({ verifier: entry.createChecksumVerifier(entry.SANDBOX_DEFAULT_MERCHANT_KEY) }).receive;
      out.har = [...entry.harRecords(JSON.stringify({ log: { entries: [] } }), {})].length;
      const lines = [];
      for await (const r of entry.ndjsonRecords(['{"operationId":"initiatePayment","direction":"request","payload":{}}\\n'], { file: 'records.ndjson' })) lines.push(r);
      out.ndjson = lines.length;
      const run = await entry.validateMany(lines);
      out.report = entry.formatReport({ title: 't', ...run }, 'junit', { tool: { name: 't', version: '1' } }).startsWith('<?xml');
      out.result = entry.resultOf('tokenizeCard', { head: {}, body: { resultInfo: { resultCode: '00', resultStatus: 'SUCCESS' } } }, 200).code;
      out.checksum = entry.txnInfoChecksumText({ b: '2', a: '1' });
      out.sender = typeof (await entry.postNotification({ url: 'http://127.0.0.1:9/', body: '{}' }).catch((e) => e));
      return out;`);
    expect(output).toEqual({
      sandbox: 'string',
      client: 6,
      receiver: 'function',
      har: 0,
      ndjson: 1,
      report: true,
      result: '00',
      checksum: '1|2',
      sender: 'object',
    });
    for (const loaded of [
      'dist/sandbox/startSandbox.js',
      'dist/client/createGatewayClient.js',
      'dist/webhook/receive.js',
      'dist/inputs/har.js',
      'dist/inputs/ndjson.js',
      'dist/validation/validateMany.js',
      'dist/report/junit.js',
      'dist/transport/result.js',
      'dist/sandbox/txnChecksum.js',
      'dist/webhook/send.js',
    ])
      expect(modules).toContain(loaded);
  });
});
