// What a finding of verify carries, with a phase written here against a double of the service that
// breaks one answer rule: the smallest failing trial kept (fast-check's shrinking), the steps in
// words without a secret, a --replay value that reruns exactly that trial, and a HAR of the
// exchanges that holds no key, token or card value and that `validate --har` reads back.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harFileRecords } from '../../src/inputs/harFile.js';
import { formatReport } from '../../src/report/format.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { validateMany } from '../../src/validation/validateMany.js';
import { runProperty } from '../../src/verify/context.js';
import type { Phase } from '../../src/verify/phases/index.js';
import { verifyReport, writeFindingsHar } from '../../src/verify/report.js';
import { verify } from '../../src/verify/run.js';
import { sandboxFixtures } from '../../src/verify/sandboxFixtures.js';

const KEY = 'FindingsTestKey1';
let sandbox: Sandbox;
let front: Server;
let frontUrl: string;
let dir: string;

/**
 * A double of the service: the sandbox behind a front that answers every pay of an amount of 500 rupees
 * or more with the result message left out (re-signed, so only the schema is broken).
 */
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, merchantKey: KEY });
  dir = mkdtempSync(join(tmpdir(), 'verify-findings-'));
  front = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const upstream = await fetch(`${sandbox.url}${req.url}`, {
      method: req.method,
      headers: { 'content-type': 'application/json' },
      ...(req.method === 'GET' ? {} : { body }),
    });
    let text = await upstream.text();
    if (req.url?.startsWith('/aoa-acquiring-biz/v2/payment')) {
      const sent = JSON.parse(body.toString('utf8'));
      const answer = JSON.parse(text);
      const amount = Number(answer.body?.txnInfo?.txnAmount ?? 0);
      if (amount >= 500 && sent.body) {
        delete answer.body.resultInfo.resultMsg;
        text = JSON.stringify(answer);
      }
    }
    res
      .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
      .end(text);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const address = front.address();
  frontUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise((resolve) => front?.close(resolve));
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Pays a few orders of generated amounts, by wallet: each answer is checked by the trial. */
const payPhase: Phase = {
  name: 'pay',
  async run(ctx) {
    await runProperty(
      ctx,
      'pay.wallet',
      fc.array(fc.integer({ min: 1, max: 2000 }), { minLength: 1, maxLength: 4 }),
      async (amounts, trial) => {
        for (const rupees of amounts) {
          const orderId = ctx.fresh('O');
          const amount = `${rupees}.00`;
          const { txnToken } = await ctx.fixtures.createOrder({ orderId, amount, custId: ctx.fresh('C') });
          await trial.call({
            operationId: 'initiatePayment',
            token: txnToken,
            body: {
              mid: ctx.target.mid,
              orderId,
              requestType: 'PAYMENT',
              paymentMode: 'WALLET',
              walletInfo: { paymentFlow: 'PAY' },
            },
            note: `pay ${amount} by wallet`,
          });
        }
      },
    );
  },
};

async function run(replay?: string) {
  return verify(
    {
      gatewayUrl: frontUrl,
      routerUrl: frontUrl,
      key: KEY,
      mid: 'MERCHANT0001',
      fixtures: await sandboxFixtures(frontUrl),
      seed: 42,
      runs: 30,
      replay,
    },
    [payPhase],
  );
}

describe('a finding of verify', () => {
  it('is shrunk to the smallest failing trial, names its rule and place, and says its steps without a secret', async () => {
    const result = await run();
    expect(result.findings).toHaveLength(1);
    const [finding] = result.findings;
    expect(finding).toMatchObject({
      kind: 'answer',
      rule: 'required',
      operationId: 'initiatePayment',
      check: 'pay.wallet',
    });
    // One payment of the smallest amount that shows it: fast-check shrank both the list and the amount.
    expect(finding?.steps).toHaveLength(1);
    expect(finding?.steps[0]?.note).toBe('pay 500.00 by wallet');
    expect(finding?.replay).toMatch(/^pay\.wallet:[0-9]+(:[0-9]+)*$/);
    const text = formatReport(verifyReport(result, ['--sandbox', frontUrl]), 'text', {
      tool: { name: 't', version: '1' },
    });
    expect(text).toContain('1. initiatePayment (pay 500.00 by wallet) -> HTTP 200, 0000 S');
    expect(text).toContain(`--seed 42 --replay ${finding?.replay}`);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(finding?.steps[0]?.request.head.token as string);
  });

  it('reruns exactly that trial with its --replay value', async () => {
    const first = await run();
    const replayed = await run(first.findings[0]?.replay);
    expect(replayed.findings).toHaveLength(1);
    expect(replayed.findings[0]?.steps.map((s) => s.note)).toEqual(first.findings[0]?.steps.map((s) => s.note));
    expect(replayed.requests).toBeLessThanOrEqual(2);
  });

  it("writes the findings' exchanges as a HAR with no secret in it, which validate --har reads back", async () => {
    const result = await run();
    const file = join(dir, 'findings.har');
    expect(writeFindingsHar(file, result, KEY)).toBe(1);
    const har = readFileSync(file, 'utf8');
    const step = result.findings[0]?.steps[0];
    expect(har).not.toContain(KEY);
    expect(har).not.toContain(step?.request.head.token as string);
    // The answer's signature and checksumHash are the key's work: masked.
    const checksumHash = (step?.answer as any)?.body?.txnInfo?.checksumHash as string;
    expect(checksumHash).toBeTruthy();
    expect(har).not.toContain(checksumHash);
    const replayed = await validateMany(harFileRecords(file, {}));
    expect(replayed.counts.cases).toBe(2);
    const response = replayed.cases.find((c) => c.direction === 'response');
    expect(response?.errors.map((e) => `${e.pointer} ${e.rule}`)).toContain('/body/resultInfo/resultMsg required');
  });
});
