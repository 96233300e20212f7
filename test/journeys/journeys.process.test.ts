// The README's three journeys as Arazzo workflows (openapi/journeys/), run by `redocly respect`
// against the sandbox, directly and through the validating proxy: the sandbox, the proxy and respect
// are processes started as a merchant's CI starts them. Respect must pass every workflow; the
// proxy's report must judge every exchange valid but the one answer the lost-answer journey plants
// (D-100), and cover each operation's codes; the report, the recording and every output hold none of
// the planted sensitive values.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journeyInputs } from '../../openapi/journeys/inputs.mjs';
import { createChecksumVerifier, createWebhookReceiver } from '../../src/index.js';
import { startPrism } from '../../src/mock/launch.js';
import { BIN, type CliResult, collectOutput, runNode } from '../helpers/cli.js';
import { freePort, listenWith } from '../helpers/servers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RESPECT = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
const JOURNEYS = [
  { file: join(ROOT, 'openapi/journeys/save-card-and-pay.arazzo.yaml'), workflowId: 'saveCardAndPay' },
  { file: join(ROOT, 'openapi/journeys/lost-answer.arazzo.yaml'), workflowId: 'lostAnswerThenPayAgain' },
  { file: join(ROOT, 'openapi/journeys/subscription.arazzo.yaml'), workflowId: 'createAndListSubscription' },
];
/** The sandbox's documented test key, test card and funded wallet; a CVV to plant. */
const KEY = 'SandboxTestKey01';
const CARD = { cardNumber: '5555555555554444', expiryMonth: '12', expiryYear: '2030', securityCode: '7391' };
const SSO = 'sso-funded-wallet';
const MID = 'MERCHANT0001';

const dir = mkdtempSync(join(tmpdir(), 'journeys-test-'));
const children: ChildProcess[] = [];
const notified: string[] = [];
let receiver: { url: string; close: () => Promise<void> };

/** Starts `node <args>` and waits for the line of its standard output that names its address. */
async function start(
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<{ url: string; child: ChildProcess; done: Promise<CliResult> }> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const done = collectOutput(child);
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`not ready in 20 s: ${seen.slice(0, 500)}`)), 20_000);
    child.stdout?.on('data', (d: Buffer) => {
      seen += d.toString('utf8');
      const m = ready.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
    child.on('exit', () => reject(new Error(`exited before it was ready: ${seen.slice(0, 500)}`)));
  });
  return { url, child, done };
}

const startSandbox = (port: number, webhookUrl: string) =>
  start([BIN, 'sandbox', '--port', String(port), '--webhook-url', webhookUrl], /Sandbox: (http:\/\/\S+)/);

/** The inputs of every journey against a sandbox at `sandboxUrl`, the signatures and the encrypted card computed (D-99). */
async function inputsFor(sandboxUrl: string, run: string): Promise<Record<string, unknown>> {
  const { publicKeyPem } = (await (await fetch(`${sandboxUrl}/sandbox/card-encryption-key`)).json()) as {
    publicKeyPem: string;
  };
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  const given = {
    sandboxUrl,
    mid: MID,
    custId: `CUST_${run}`,
    requestId: `REQ-${run}-${Date.now()}`,
    requestTimestamp: String(Date.now()),
    cvv: CARD.securityCode,
    orderId: `SUB-${run}-${Date.now()}`,
    startDate: day(7),
    expiryDate: day(372),
    ssoToken: SSO,
  };
  let inputs: Record<string, unknown> = given;
  for (const j of JOURNEYS)
    inputs = {
      ...inputs,
      ...(await journeyInputs(j.file, j.workflowId, inputs, { merchantKey: KEY, card: CARD, publicKeyPem })),
    };
  return inputs;
}

interface RespectRun extends CliResult {
  json: {
    files: Record<
      string,
      {
        executedWorkflows: {
          workflowId: string;
          executedSteps: {
            stepId: string;
            retriesLeft?: number;
            checks: { name: string; passed: boolean; severity: string }[];
          }[];
        }[];
      }
    >;
  };
  jsonText: string;
}

/** `redocly respect` on every journey, the contract's two hosts at `apiUrl`, the inputs through the environment (never on a command line). */
async function respect(
  apiUrl: string,
  inputs: Record<string, unknown>,
  name: string,
  journeys = JOURNEYS,
): Promise<RespectRun> {
  const jsonOutput = join(dir, `${name}.respect.json`);
  const child = spawn(
    process.execPath,
    [
      RESPECT,
      'respect',
      ...journeys.map((j) => j.file),
      '--server',
      `gateway=${apiUrl}`,
      '--server',
      `router=${apiUrl}`,
      // Respect's schema check closes every object; the contract's answers are open (D-101).
      '--severity',
      '{"SCHEMA_CHECK":"warn"}',
      '--max-fetch-timeout',
      '10000',
      '--json-output',
      jsonOutput,
    ],
    {
      env: {
        ...process.env,
        REDOCLY_CLI_RESPECT_INPUT: JSON.stringify(inputs),
        REDOCLY_TELEMETRY: 'off',
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  const result = await collectOutput(child);
  const jsonText = readFileSync(jsonOutput, 'utf8');
  return { ...result, json: JSON.parse(jsonText), jsonText };
}

/** Every step respect counted: the retried attempt of a step is not one (respect's own rule). */
function countedSteps(run: RespectRun) {
  return Object.values(run.json.files).flatMap((f) =>
    f.executedWorkflows.flatMap((w) =>
      w.executedSteps.filter((s) => !s.retriesLeft).map((s) => ({ workflowId: w.workflowId, ...s })),
    ),
  );
}

function expectRespectPassed(run: RespectRun, lostAttempt: string) {
  const failed = Object.values(run.json.files).flatMap((f) =>
    f.executedWorkflows.flatMap((w) =>
      w.executedSteps.flatMap((st) =>
        st.checks
          .filter((c) => !c.passed)
          .map(
            (c) =>
              `${w.workflowId}/${st.stepId}: ${c.name} ${(c as { message?: string }).message?.slice(0, 300) ?? ''}`,
          ),
      ),
    ),
  );
  expect(run.status, failed.join('\n')).toBe(0);
  const workflows = Object.values(run.json.files).flatMap((f) => f.executedWorkflows.map((w) => w.workflowId));
  expect(workflows.sort()).toEqual(JOURNEYS.map((j) => j.workflowId).sort());
  const steps = countedSteps(run);
  expect(steps.length).toBeGreaterThanOrEqual(14);
  for (const step of steps)
    for (const check of step.checks)
      expect(check.passed || check.severity === 'warn', `${step.workflowId}/${step.stepId}: ${check.name}`).toBe(true);
  // The one warning: respect's closed reading of list subscriptions' open answer (D-101).
  const warned = steps
    .filter((s) => s.checks.some((c) => !c.passed))
    .map((s) => `${s.stepId}:${s.checks.filter((c) => !c.passed).map((c) => c.name)}`);
  expect(warned).toEqual(['listSubscriptions:schema check']);
  // The payment whose answer was lost: its first attempt failed, its retry was refused 201.
  const attempts = Object.values(run.json.files)
    .flatMap((f) => f.executedWorkflows.flatMap((w) => w.executedSteps))
    .filter((s) => s.stepId === 'payAgainRefused');
  expect(attempts.map((a) => a.checks.every((c) => c.passed))).toEqual([false, true]);
  expect(attempts[0]?.checks.map((c) => c.name)).toContain(lostAttempt);
}

/** Every value of a sensitive field, from texts that hold them in clear. */
const SENSITIVE =
  /"(cardNumber|securityCode|cvv|encryptedCardData|token|txnToken|svcSsoToken|signature|checksumHash)"\s*:\s*"([^"*]{8,})"/g;
/** The key, the card, the CVV, the wallet's SSO token, and the encrypted card and signatures computed for the run. */
const plantedIn = (inputs: Record<string, unknown>) =>
  new Set([
    KEY,
    CARD.cardNumber,
    CARD.securityCode,
    SSO,
    ...['encryptedCardData', 'tokenizeSignature', 'createSignature', 'listSignature'].map((k) => String(inputs[k])),
  ]);

function expectClean(text: string, where: string, planted: Set<string>) {
  for (const s of planted) {
    const at = text.indexOf(s);
    expect(
      at,
      `${where} holds a planted value of ${s.length} characters: ${text.slice(Math.max(0, at - 80), at)}`,
    ).toBe(-1);
  }
}

beforeAll(async () => {
  const app = createWebhookReceiver({ verifier: createChecksumVerifier(KEY), expectedMid: MID });
  receiver = await listenWith(
    app.nodeHandler(async (event) => {
      notified.push(event.body.tokenInfo.tokenStatus);
    }),
    '/hooks/token',
  );
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the journeys under redocly respect', () => {
  it('pass against the sandbox directly', async () => {
    const sandbox = await startSandbox(0, receiver.url);
    try {
      const inputs = await inputsFor(sandbox.url, 'direct');
      const run = await respect(sandbox.url, inputs, 'direct');
      expectRespectPassed(run, 'failed network request');
      expect(notified).toContain('ACTIVE');
      // Respect masks the inputs marked format: password; the key and the card never reach it.
      const planted = plantedIn(inputs);
      for (const [where, text] of [
        ['respect stdout', run.stdout],
        ['respect stderr', run.stderr],
        ['respect JSON output', run.jsonText],
      ] as const)
        expectClean(text, where, planted);
    } finally {
      sandbox.child.kill('SIGTERM');
      await sandbox.done;
    }
  }, 60_000);

  it('pass through the proxy, which judges every exchange but the planted lost answer valid, covers each operation and keeps no planted value', async () => {
    const sandboxPort = await freePort();
    const upstream = `http://127.0.0.1:${sandboxPort}`;
    const har = join(dir, 'journeys.har');
    const output = join(dir, 'journeys.report.jsonl');
    const proxy = await start(
      [
        BIN,
        'proxy',
        '--gateway-upstream',
        upstream,
        '--router-upstream',
        upstream,
        '--webhook-upstream',
        receiver.url,
        '--webhook-path',
        '/hooks/token',
        '--port',
        '0',
        '--har',
        har,
        '--format',
        'json',
        '--output',
        output,
      ],
      /Proxy: (http:\/\/\S+)/,
      { MERCHANT_KEY: KEY },
    );
    const sandbox = await startSandbox(sandboxPort, `${proxy.url}/hooks/token`);
    let run: RespectRun;
    let inputs: Record<string, unknown>;
    try {
      inputs = await inputsFor(sandbox.url, 'proxy');
      run = await respect(proxy.url, inputs, 'proxy');
    } finally {
      proxy.child.kill('SIGTERM');
      sandbox.child.kill('SIGTERM');
    }
    const stopped = await proxy.done;
    await sandbox.done;
    // Through the proxy the lost answer is a 502 problem: respect's status code check fails that attempt.
    expectRespectPassed(run, 'status code check');

    // The report: JSON lines, one per problem, then one per operation's coverage.
    const lines = readFileSync(output, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const problems = lines.filter((l) => !('coverage' in l));
    expect(problems.map((p) => [p.operationId, p.rule])).toEqual([['initiatePayment', 'upstream-reset']]);
    expect(stopped.status).toBe(1);
    expect(stopped.stdout).toMatch(/1 invalid/);
    const coverage = Object.fromEntries(
      lines.filter((l) => 'coverage' in l).map((l) => [l.coverage.operationId, l.coverage]),
    );
    expect(Object.keys(coverage).sort()).toEqual([
      'createSubscription',
      'initiatePayment',
      'listSubscriptions',
      'notifyTokenStatus',
      'tokenizeCard',
    ]);
    expect(coverage.tokenizeCard.codesMet).toEqual(['100']);
    expect(coverage.initiatePayment.codesMet.sort()).toEqual(['0000', '201']);
    expect(coverage.initiatePayment.exchanges).toBe(3);
    expect(coverage.createSubscription.codesMet).toEqual(['0']);
    expect(coverage.listSubscriptions.codesMet).toEqual(['3006']);
    expect(coverage.notifyTokenStatus.codesMet).toEqual(['00']);

    // No planted value, nor any token, signature or checksum the exchanges carried, in what the proxy wrote.
    const planted = plantedIn(inputs);
    for (const m of run.jsonText.matchAll(SENSITIVE)) planted.add(m[2] as string);
    expect(planted.size).toBeGreaterThan(10);
    const recording = readFileSync(har, 'utf8');
    expect(JSON.parse(recording).log.entries.length).toBe(
      coverage.tokenizeCard.exchanges + 3 + 2 + coverage.notifyTokenStatus.exchanges,
    );
    for (const [where, text] of [
      ['report', readFileSync(output, 'utf8')],
      ['HAR', recording],
      ['proxy stdout', stopped.stdout],
      ['proxy stderr', stopped.stderr],
    ] as const)
      expectClean(text, where, planted);
  }, 60_000);
});

describe('the journeys against canned answers', () => {
  it("fail against the Prism mock: the subscription journey refuses the contract's example subscriptionId", async () => {
    const subscription = JOURNEYS.filter((j) => j.workflowId === 'createAndListSubscription');
    const prism = await startPrism({ port: await freePort() });
    try {
      const given = { mid: MID, ssoToken: SSO };
      const inputs = await journeyInputs(subscription[0]!.file, 'createAndListSubscription', given, {
        merchantKey: KEY,
      });
      // A new customer and order each run, the time as epoch milliseconds.
      expect(inputs.custId).toMatch(/^CUST_[0-9A-F]{12}$/);
      expect(inputs.orderId).toMatch(/^ORDER-[0-9A-F]{12}$/);
      expect(inputs.requestTimestamp).toMatch(/^\d{13}$/);
      const run = await respect(prism.url, inputs, 'prism', subscription);
      expect(run.status).not.toBe(0);
      const failed = Object.values(run.json.files).flatMap((f) =>
        f.executedWorkflows.flatMap((w) =>
          w.executedSteps.flatMap((st) =>
            st.checks.filter((c) => !c.passed && c.severity !== 'warn').map(() => st.stepId),
          ),
        ),
      );
      expect(failed).toContain('createSubscription');
    } finally {
      await prism.stop();
    }
  }, 60_000);
});

describe('openapi/journeys/inputs.mjs as a command', () => {
  const SCRIPT = join(ROOT, 'openapi/journeys/inputs.mjs');
  const inputsFile = join(dir, 'plain-inputs.json');

  it("waits until the sandbox answers, takes its card key, and prints every journey's inputs", async () => {
    writeFileSync(inputsFile, JSON.stringify({ mid: MID, ssoToken: SSO, cvv: CARD.securityCode, card: CARD }));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // The command starts first: the sandbox comes up a moment later, as a background job does.
    const pending = runNode(
      [SCRIPT, inputsFile, ...JOURNEYS.map((j) => j.file), '--sandbox', url, '--wait-ms', '20000'],
      { env: { MERCHANT_KEY: KEY } },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sandbox = await startSandbox(port, receiver.url);
    try {
      const run = await pending;
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const inputs = JSON.parse(run.stdout);
      expect(inputs.sandboxUrl).toBe(url);
      for (const name of [
        'encryptedCardData',
        'tokenizeSignature',
        'createSignature',
        'listSignature',
        'requestId',
        'orderId',
        'custId',
        'startDate',
        'expiryDate',
      ])
        expect(inputs[name], name).toEqual(expect.any(String));
      expect(inputs.card).toBeUndefined();
      expect(run.stdout).not.toContain(CARD.cardNumber);
    } finally {
      sandbox.child.kill('SIGTERM');
      await sandbox.done;
    }
  }, 60_000);

  it('says in one line, with no stack trace, when nothing answers or the key is missing', async () => {
    writeFileSync(inputsFile, JSON.stringify({ mid: MID, ssoToken: SSO }));
    const url = `http://127.0.0.1:${await freePort()}`;
    const silent = await runNode([SCRIPT, inputsFile, JOURNEYS[2]!.file, '--sandbox', url, '--wait-ms', '300'], {
      env: { MERCHANT_KEY: KEY },
    });
    expect(silent.status).toBe(1);
    expect(silent.stderr).toBe(
      `inputs.mjs: ${url}/sandbox/card-encryption-key did not answer within the wait (--wait-ms).\n`,
    );
    const keyless = await runNode([SCRIPT, inputsFile, JOURNEYS[2]!.file], { env: { MERCHANT_KEY: '' } });
    expect(keyless.status).toBe(1);
    expect(keyless.stderr).toBe(
      'inputs.mjs: The step createSubscription is signed: give the merchant key (MERCHANT_KEY).\n',
    );
    const usage = await runNode([SCRIPT, inputsFile]);
    expect(usage.status).toBe(2);
    expect(usage.stderr.split('\n').length).toBe(2);
  }, 30_000);
});
