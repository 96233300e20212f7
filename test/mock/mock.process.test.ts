// The mock gateway of `npm start`: Prism on the bundled contract, driven by the typed client. Every
// named answer of every operation through the `Prefer` header, every request example, invalid
// requests and malformed JSON, which rules Prism enforces (every invalid fixture), docs/mock.md and
// the generated list of named answers against the contract, the docs server, and Ctrl-C on the
// command itself.

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createChecksumSigner,
  createGatewayClient,
  type GatewayClient,
  GatewayHttpError,
  namedChecks,
  operations,
  resultCodes,
} from '../../src/index.js';
import { type MockGateway, startMockGateway } from '../../src/mock/launch.js';
import { BIN } from '../helpers/cli.js';
import { loadFixtures } from '../helpers/fixtures.js';
import { freePort } from '../helpers/servers.js';

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const guide = readFileSync(new URL('../../docs/mock.md', import.meta.url), 'utf8');
const answers = readFileSync(new URL('../../generated/mock-answers.md', import.meta.url), 'utf8');
const MERCHANT_KEY = 'MockTestKey00001';
const MID = 'MERCHANT0001';

type OperationId = Exclude<(typeof operations)[number]['operationId'], 'notifyTokenStatus'>;
const served = operations.filter((o) => o.kind === 'operation') as Extract<
  (typeof operations)[number],
  { kind: 'operation' }
>[];

/** A named example of an operation's request or answers, dereferenced. */
function example(operationId: string, direction: 'request' | 'response', name: string) {
  const info = operations.find((o) => o.operationId === operationId)!;
  const op = doc.paths[info.path!].post;
  const media =
    direction === 'request'
      ? op.requestBody.content['application/json']
      : op.responses['200'].content['application/json'];
  const ref: string = media.examples[name].$ref;
  return structuredClone(doc.components.examples[ref.slice(ref.lastIndexOf('/') + 1)]);
}

/** The result code an answer example carries, where the catalog says it is. */
function codeOf(operationId: OperationId, value: unknown) {
  const entry = resultCodes[operationId];
  const holder = entry.location
    .split('/')
    .filter(Boolean)
    .reduce((node: any, key) => node?.[key], value);
  return { code: holder[entry.fields.code] as string, status: holder[entry.fields.status] as string };
}

const OUTCOME: Record<string, string> = {
  SUCCESS: 'success',
  S: 'success',
  TXN_SUCCESS: 'success',
  PENDING: 'pending',
};

/** One call of the typed client per operation, with a request body and extra headers. */
const call: Record<
  OperationId,
  (
    c: GatewayClient,
    body: any,
    headers?: Record<string, string>,
  ) => Promise<{ outcome: string; code: unknown; data: unknown; httpStatus: number }>
> = {
  tokenizeCard: (c, body, headers) => c.tokenizeCard({ mid: body.mid ?? MID, body, headers }),
  preAuthorize: (c, body, headers) => c.preAuthorize({ body, headers }),
  listSubscriptions: (c, body, headers) => c.listSubscriptions({ token: 'SSO-TOKEN-TEST', body, headers }),
  initiatePayment: (c, body, headers) => c.initiatePayment({ txnToken: 'TXN-TOKEN-TEST', body, headers }),
  modifyOrder: (c, body, headers) =>
    c.modifyOrder({ mid: MID, orderId: 'ORDER-1001', txnToken: 'TXN-TOKEN-TEST', body, headers }),
  createSubscription: (c, body, headers) => c.createSubscription({ body, headers }),
};

let gateway: MockGateway;
let client: GatewayClient;

beforeAll(async () => {
  gateway = await startMockGateway({ host: '127.0.0.1', port: await freePort(), docsPort: 0, log: 'error' });
  // Both hosts on the mock; requests checked before sending and answers on arrival.
  client = createGatewayClient({
    gatewayUrl: gateway.mockUrl,
    routerUrl: gateway.mockUrl,
    signer: createChecksumSigner(MERCHANT_KEY),
    clientId: 'C11',
    version: 'v2',
    validate: true,
  });
});
afterAll(async () => {
  await gateway?.stop();
});

describe('the mock serves every operation to the typed client', () => {
  for (const info of served) {
    const id = info.operationId as OperationId;
    const [firstRequest] = info.request.examples;

    it(`${id}: every named answer through Prefer: example=<name>, narrowed by its code`, async () => {
      const body = example(id, 'request', firstRequest).value.body;
      const outcomes = new Set<string>();
      for (const name of info.response.examples) {
        const expected = example(id, 'response', name).value;
        const result = await call[id](client, structuredClone(body), { Prefer: `example=${name}` });
        const { code, status } = codeOf(id, expected);
        expect(result.httpStatus, name).toBe(200);
        expect(result.data, name).toEqual(expected);
        expect(result.code, name).toBe(code);
        expect(result.outcome, name).toBe(OUTCOME[status] ?? 'failure');
        outcomes.add(result.outcome);
      }
      // Each operation shows at least a success and a failure.
      expect(outcomes).toContain('success');
      expect(outcomes).toContain('failure');
    });

    it(`${id}: without Prefer, the first named answer`, async () => {
      const result = await call[id](client, example(id, 'request', firstRequest).value.body);
      expect(result.data).toEqual(example(id, 'response', info.response.examples[0]).value);
    });

    it(`${id}: every request example of the contract is accepted`, async () => {
      for (const name of info.request.examples) {
        const result = await call[id](client, example(id, 'request', name).value.body);
        expect(result.httpStatus, name).toBe(200);
      }
    });
  }

  it('narrows the result types by outcome and code', async () => {
    const paid = await client.initiatePayment({
      txnToken: 'TXN-TOKEN-TEST',
      body: example('initiatePayment', 'request', 'payWithUpi').value.body,
      headers: { Prefer: 'example=payOrderPaid' },
    });
    expect(paid.outcome).toBe('failure');
    expect(paid.code).toBe('201');
    if (paid.code === '201') {
      expectTypeOf(paid.status).toEqualTypeOf<'F'>();
      expectTypeOf(paid.outcome).toEqualTypeOf<'failure'>();
    }
    const pending = await client.preAuthorize({
      body: example('preAuthorize', 'request', 'preAuthUpiRequest').value.body,
      headers: { Prefer: 'example=preAuthPending' },
    });
    expect(pending.outcome).toBe('pending');
    if (pending.outcome === 'pending') {
      expectTypeOf(pending.code).toEqualTypeOf<'02'>();
      expect(pending.data.body.txnToken).toBeTypeOf('string');
    }
    const created = await client.createSubscription({
      body: example('createSubscription', 'request', 'createFixedUpiSubscription').value.body,
    });
    expect(created.outcome).toBe('success');
    if (created.outcome === 'success') {
      expectTypeOf(created.code).toEqualTypeOf<'0'>();
      expect(created.data.body.subscriptionId).toBeTypeOf('string');
    }
  });

  it('answers an unknown example name with 404, a GatewayHttpError', async () => {
    const error = await client
      .modifyOrder({
        mid: MID,
        orderId: 'ORDER-1001',
        txnToken: 'T',
        body: {},
        headers: { Prefer: 'example=noSuchAnswer' },
      })
      .catch((e) => e);
    expect(error).toBeInstanceOf(GatewayHttpError);
    expect(error.status).toBe(404);
  });
});

describe('invalid input', () => {
  it('rejects an invalid request with 422 application/problem+json naming the field', async () => {
    // A credit-card payment without cardInfo, sent by a client that does not validate first.
    const lax = createGatewayClient({ gatewayUrl: gateway.mockUrl, routerUrl: gateway.mockUrl });
    const body = example('initiatePayment', 'request', 'payWithSavedCard').value.body;
    delete body.cardInfo;
    const error = await lax.initiatePayment({ txnToken: 'TXN-TOKEN-TEST', body }).catch((e) => e);
    expect(error).toBeInstanceOf(GatewayHttpError);
    expect(error.status).toBe(422);
    expect(error.data.validation.some((v: any) => v.location.join('.') === 'body.body')).toBe(true);

    const res = await fetch(`${gateway.mockUrl}/aoa-acquiring-biz/v2/payment?mid=${MID}&orderId=ORDER-1001`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ head: { tokenType: 'TXN_TOKEN', token: 'T' }, body: { ...body, osType: 'WINDOWS' } }),
    });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = await res.json();
    expect(problem.status).toBe(422);
    expect(problem.validation).toEqual(
      expect.arrayContaining([expect.objectContaining({ location: ['body', 'body', 'osType'] })]),
    );
  });

  it('answers malformed JSON with 400 at once, on every path', async () => {
    for (const info of served) {
      const path = info.path.replace('{mid}', MID);
      const res = await fetch(`${gateway.mockUrl}${path}?mid=${MID}&orderId=ORDER-1001&requestId=R-1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"head": {"tokenType": "TXN_TOKEN",',
        signal: AbortSignal.timeout(10_000), // a hanging connection fails here, not at the test timeout
      });
      expect(res.status, info.operationId).toBe(400);
      expect(await res.json()).toEqual({ error: { code: 'invalid_json', message: 'Invalid JSON' } });
    }
  });

  it('refuses bad per-call headers before sending anything', async () => {
    const body = example('initiatePayment', 'request', 'payWithUpi').value.body;
    await expect(
      client.initiatePayment({ txnToken: 'T', body, headers: { 'Content-Type': 'text/plain' } }),
    ).rejects.toThrow(/Content-Type header is always application\/json/);
    await expect(client.initiatePayment({ txnToken: 'T', body, headers: { 'Bad Name': 'x' } })).rejects.toThrow(
      /not a valid HTTP header name/,
    );
    await expect(
      client.initiatePayment({ txnToken: 'T', body, headers: { Prefer: 'a\r\nX-Injected: 1' } }),
    ).rejects.toThrow(TypeError);
  });
});

describe('which rules the mock enforces', () => {
  // Every invalid request payload of test/fixtures for the six operations, sent as is.
  const fixtures = loadFixtures().filter((f) => f.direction === 'request' && f.operationId !== 'notifyTokenStatus');
  const isCheck = (rule: string) => rule in namedChecks;

  /** What Prism answers: 422 for a schema rule or a missing required parameter (matched regardless of case). */
  function prismVerdict(f: (typeof fixtures)[number]) {
    if (f.expect.some((e) => !isCheck(e.rule))) return 422;
    const info = operations.find((o) => o.operationId === f.operationId)!;
    const given = Object.keys({ ...f.query, ...f.path }).map((k) => k.toLowerCase());
    const missing = info.parameters.some((p) => p.required && !given.includes(p.name.toLowerCase()));
    return missing ? 422 : 200;
  }

  it('answers 422 to every schema rule and 200 to the named checks it does not run', async () => {
    const notRun = new Set<string>();
    const wrong: string[] = [];
    for (const f of fixtures) {
      const info = operations.find((o) => o.operationId === f.operationId)!;
      const path = info.path!.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(f.path?.[name] ?? MID));
      const query = new URLSearchParams(f.query ?? {}).toString();
      const res = await fetch(`${gateway.mockUrl}${path}${query ? `?${query}` : ''}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(f.payload),
      });
      await res.arrayBuffer();
      if (res.status !== prismVerdict(f)) wrong.push(`${f.file}: ${res.status}, expected ${prismVerdict(f)}`);
      if (res.status === 200) for (const e of f.expect) notRun.add(e.rule);
    }
    expect(wrong).toEqual([]);
    expect(fixtures.length).toBeGreaterThan(100);
    // docs/mock.md names every named check the mock does not run.
    const section = guide.slice(0, guide.indexOf('## The reference docs'));
    for (const rule of notRun) if (rule !== 'requiredParameters') expect(section, rule).toContain(`\`${rule}\``);
    // And only those: a named check listed as not enforced really is not.
    const listed = [...section.slice(section.indexOf('**Not enforced**, answered `200`')).matchAll(/`(\w+)` \(/g)]
      .map((m) => m[1])
      .filter(isCheck);
    expect(new Set(listed)).toEqual(new Set([...notRun].filter((r) => r !== 'requiredParameters')));
  });

  it('matches query parameter names regardless of case (documented)', async () => {
    const body = example('tokenizeCard', 'request', 'tokenizeCardRequest').value;
    const url = `${gateway.mockUrl}/coft-center/coft/merchant/${MID}/tokenize`;
    const post = (q: string) =>
      fetch(`${url}${q}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('?requestid=R-1')).status).toBe(200);
    expect((await post('')).status).toBe(422);
    expect(guide).toContain('`?requestid=` passes for `requestId`');
  });
});

describe('the list of named answers (generated/mock-answers.md, linked by docs/mock.md) holds what the contract holds', () => {
  const section = answers;
  const rows = (header: RegExp) => {
    const start = section.search(header);
    expect(start).toBeGreaterThan(0);
    const lines = section.slice(start).split('\n').slice(2);
    return lines
      .slice(
        0,
        lines.findIndex((l) => !l.startsWith('|')),
      )
      .map((l) =>
        l
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim()),
      );
  };

  it("every named answer with its code, in the contract's order", () => {
    const listed = rows(/\| operation \| `Prefer: example=` \|/).map(([op, name, code]) =>
      [op, name, code].map((c) => c.replace(/`/g, '')),
    );
    const expected = served.flatMap((info) =>
      info.response.examples.map((name) => [
        info.operationId,
        name,
        codeOf(info.operationId as OperationId, example(info.operationId, 'response', name).value).code,
      ]),
    );
    expect(listed).toEqual(expected);
  });

  it('is the page docs/mock.md links', () => {
    expect(guide).toContain('](../generated/mock-answers.md)');
  });

  it('every request example', () => {
    const listed = rows(/\| operation \| request examples \|/).map(([op, names]) => [
      op.replace(/`/g, ''),
      names.split(',').map((n) => n.trim().replace(/`/g, '')),
    ]);
    expect(listed).toEqual(served.map((info) => [info.operationId, [...info.request.examples]]));
  });
});

describe('the docs server', () => {
  it('serves the reference page and the bundled contract', async () => {
    const page = await fetch(`${gateway.docsUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toBe(readFileSync(new URL('../../generated/docs/index.html', import.meta.url), 'utf8'));
    expect(html).toContain('<title>Merchant payments gateway: reference</title>');
    const json = await fetch(`${gateway.docsUrl}/openapi.json`);
    expect(await json.json()).toEqual(doc);
    expect((await fetch(`${gateway.docsUrl}/nothing-here.txt`)).status).toBe(404);
    expect((await fetch(`${gateway.docsUrl}/`, { method: 'POST' })).status).toBe(405);
  });
});

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function listening(port: number) {
  return new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('the mock command (npm start)', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    // Only if the test failed before the child stopped: end its process group.
    if (child && child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  });

  it('takes HOST, PORT and DOCS_PORT, prints both addresses, and stops both servers on Ctrl-C', async () => {
    expect(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts.start).toBe(
      'node dist/cli/bin.js mock',
    );
    const port = await freePort();
    const docsPort = await freePort();
    // Its own process group, like a terminal's foreground job: Ctrl-C signals the whole group.
    child = spawn(process.execPath, [BIN, 'mock'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DOCS_PORT: String(docsPort) },
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    const closed = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child!.once('close', (code, signal) => resolve({ code, signal })),
    );
    await new Promise<void>((resolve, reject) => {
      child!.stdout!.on('data', (d) => {
        stdout += d;
        if (stdout.includes('Press Ctrl-C to stop.')) resolve();
      });
      child!.once('exit', () => reject(new Error(`the mock exited early: ${stderr}`)));
    });
    expect(stdout).toContain(`Mock gateway: http://127.0.0.1:${port}`);
    expect(stdout).toContain(`Reference docs: http://127.0.0.1:${docsPort}`);
    for (const info of served)
      expect(stdout).toContain(`POST http://127.0.0.1:${port}${info.path}  (${info.operationId})`);
    expect((await fetch(`http://127.0.0.1:${docsPort}/`)).status).toBe(200);
    const answer = await fetch(
      `http://127.0.0.1:${port}/aoa-acquiring-biz/v2/modifyOrder?mid=${MID}&orderId=ORDER-1001`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', prefer: 'example=modifyOrderInProcess' },
        body: JSON.stringify({ head: { tokenType: 'TXN_TOKEN', token: 'T' }, body: {} }),
      },
    );
    expect((await answer.json()).body.resultInfo.resultCode).toBe('1111');

    process.kill(-child.pid!, 'SIGINT');
    const end = await closed;
    expect(end).toEqual({ code: 0, signal: null });
    expect(stdout).toMatch(/Stopped\.\n$/);
    expect(await listening(port)).toBe(false);
    expect(await listening(docsPort)).toBe(false);
  });
});
