// The requests phase of verify against the package's sandbox: valid requests (boundary values
// included) are carried out, requests that break one rule or carry another credential are refused;
// and against two faulty stand-ins made from it, each fault is found with the rule it names.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { generateSignatureSync, verifySignatureSync } from '../../src/signing/checksumNode.js';
import type { SentOperation } from '../../src/verify/generate.js';
import { requestsPhase, requestsPhaseFor } from '../../src/verify/phases/requests.js';
import { type VerifyResult, verify } from '../../src/verify/run.js';
import { sandboxFixtures } from '../../src/verify/sandboxFixtures.js';

const KEY = 'SandboxTestKey01';
const MID = 'MERCHANT0001';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, checkAnswers: true });
});
afterAll(async () => {
  await sandbox?.stop();
});

const summary = (result: VerifyResult) =>
  result.findings.map((f) => ({
    check: f.check,
    kind: f.kind,
    rule: f.rule,
    operationId: f.operationId,
    pointer: f.pointer,
    message: f.message,
  }));

describe('the requests phase against the sandbox', () => {
  it('finds nothing: valid requests are carried out, broken ones refused', async () => {
    const fixtures = await sandboxFixtures(sandbox.url);
    const result = await verify(
      { gatewayUrl: sandbox.url, routerUrl: sandbox.url, key: KEY, mid: MID, fixtures, seed: 1 },
      [requestsPhase],
    );
    expect(summary(result)).toEqual([]);
    expect(result.notes).toEqual([]);
    expect(result.checks.map((c) => c.name)).toContain('refusal.initiatePayment');
    for (const c of result.coverage.filter((c) => c.operationId !== 'notifyTokenStatus'))
      expect(c.exchanges, c.operationId).toBeGreaterThan(10);
  }, 120_000);
});

/** The envelope a request carries, and what a faulty service makes of it before the sandbox carries it out. */
type Rewrite = (path: string, envelope: { head: Record<string, unknown>; body: any }) => void;

/**
 * A faulty service made from the sandbox: a proxy that checks a request's signature, rewrites the
 * request (`rewrite`), signs its body again with the merchant key where the signature was right (a
 * wrong or missing one stays as it came; with `anySignature`, any signature is taken as right), and forwards it.
 */
async function faulty(
  rewrite: Rewrite,
  { anySignature = false } = {},
): Promise<{ url: string; stop: () => Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let text = Buffer.concat(chunks).toString('utf8');
    try {
      const envelope = JSON.parse(text);
      const signature = envelope.head?.signature;
      const signedWell = verifySignatureSync(JSON.stringify(envelope.body), KEY, signature);
      rewrite(req.url ?? '', envelope);
      const body = JSON.stringify(envelope.body);
      if (signedWell || (anySignature && signature !== undefined))
        envelope.head.signature = generateSignatureSync(body, KEY);
      else if (signature === undefined) delete envelope.head.signature;
      else envelope.head.signature = signature;
      text = `{"head":${JSON.stringify(envelope.head)},"body":${body}}`;
    } catch {
      // not an envelope: forwarded as it came
    }
    const answer = await fetch(`${sandbox.url}${req.url}`, {
      method: req.method,
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function verifyAgainst(rewrite: Rewrite, operationId: SentOperation): Promise<VerifyResult> {
  const double = await faulty(rewrite);
  try {
    const fixtures = await sandboxFixtures(sandbox.url);
    return await verify({ gatewayUrl: double.url, routerUrl: double.url, key: KEY, mid: MID, fixtures, seed: 1 }, [
      requestsPhaseFor([operationId]),
    ]);
  } finally {
    await double.stop();
  }
}

describe('the requests phase against faulty services', () => {
  it('finds a service that checks the signature of a request but none of its rules: invalidRequestAccepted, naming the field', async () => {
    // Every well-signed request is carried out as the one valid request of this merchant.
    const result = await verifyAgainst((_path, envelope) => {
      envelope.head = {
        clientId: 'C11',
        requestTimestamp: String(Math.floor(Date.now() / 1000)),
        tokenType: 'AES',
        token: 'sso-funded-wallet',
      };
      envelope.body = { mid: MID, custId: 'CUSTOMER1' };
    }, 'listSubscriptions');
    // The sweep sends every rule broken once: each place is a finding of its own, of one exchange.
    const swept = result.findings.filter((f) => f.check === 'refusals.listSubscriptions');
    expect(swept.length).toBeGreaterThan(3);
    for (const f of swept)
      expect(f).toMatchObject({ kind: 'refusal', rule: 'invalidRequestAccepted', steps: [expect.anything()] });
    expect(summary(result).filter((f) => f.check === 'refusal.listSubscriptions')).toEqual([
      {
        check: 'refusal.listSubscriptions',
        kind: 'refusal',
        rule: 'invalidRequestAccepted',
        operationId: 'listSubscriptions',
        pointer: expect.stringMatching(/^\/(head|body)\//),
        message: expect.stringMatching(
          /^A listSubscriptions request with [a-zA-Z]+ \(.+\) at \/(head|body)\/.+ was answered with success \(code (200|3006)\): it must be refused\.$/,
        ),
      },
    ]);
    const drawn = result.findings.find((f) => f.check === 'refusal.listSubscriptions');
    expect(drawn?.steps).toHaveLength(1);
    expect(drawn?.replay).toMatch(/^refusal\.listSubscriptions:[0-9:]+$/);
  }, 120_000);

  it('finds a service that takes a request signed with another key: badCredentialAccepted', async () => {
    const double = await faulty(() => {}, { anySignature: true });
    try {
      const fixtures = await sandboxFixtures(sandbox.url);
      const result = await verify(
        { gatewayUrl: double.url, routerUrl: double.url, key: KEY, mid: MID, fixtures, seed: 1 },
        [requestsPhaseFor(['preAuthorize'])],
      );
      const found = result.findings.filter((f) => f.rule === 'badCredentialAccepted');
      expect(found.map((f) => [f.check, f.kind, f.pointer])).toEqual([
        ['refusal.preAuthorize', 'refusal', '/head/signature'],
      ]);
    } finally {
      await double.stop();
    }
  }, 120_000);

  it('finds a service that refuses amounts written with two decimals: validRequestRefused', async () => {
    const result = await verifyAgainst((_path, envelope) => {
      const amount = envelope.body?.txnAmount;
      if (typeof amount?.value === 'string' && /\.[0-9]{2}$/.test(amount.value)) amount.value = '0';
    }, 'createSubscription');
    const found = result.findings.filter((f) => f.rule === 'validRequestRefused');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      kind: 'acceptance',
      check: 'acceptance.createSubscription',
      operationId: 'createSubscription',
    });
    expect(found[0]?.steps).toHaveLength(1);
    expect(found[0]?.replay).toMatch(/^acceptance\.createSubscription:/);
  }, 120_000);

  it('finds a service that refuses a subscription id of its maximum length (64 characters): validRequestRefused', async () => {
    const result = await verifyAgainst((_path, envelope) => {
      const id = envelope.body?.subscriptionId;
      if (typeof id === 'string' && [...id].length === 64) envelope.body.mid = 'NOT-THIS-MERCHANT';
    }, 'listSubscriptions');
    const found = result.findings.filter((f) => f.rule === 'validRequestRefused');
    expect(found.map((f) => [f.check, f.kind, f.operationId])).toEqual([
      ['acceptance.listSubscriptions', 'acceptance', 'listSubscriptions'],
    ]);
    expect(found[0]?.message).toMatch(
      /^A valid listSubscriptions request was refused \(code 400\): the contract takes it\.$/,
    );
    expect(found[0]?.steps).toHaveLength(1);
    expect(found[0]?.steps[0]?.request.body).toMatchObject({ subscriptionId: expect.stringMatching(/^.{64}$/u) });
  }, 120_000);
});
