// The mock gateway (Prism, as `npm start` runs it) with hostile bodies over HTTP: every body gets
// an HTTP answer (a 4xx: no hang, no crash), and the mock still answers a valid request afterwards.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/index.js';
import { startMockGateway } from '../../src/mock/launch.js';
import { hostileBodies } from '../helpers/hostile.js';
import { freePort } from '../helpers/servers.js';

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
/** Each operation's path with its parameters filled in (the webhook has no route in the mock). */
const paths = operations
  .filter((o) => o.path)
  .map(
    (o) =>
      `${o.path!.replace('{mid}', 'MERCHANT0001')}${
        o.parameters.some((p) => p.in === 'query')
          ? `?${o.parameters
              .filter((p) => p.in === 'query')
              .map((p) => `${p.name}=${p.name === 'mid' ? 'MERCHANT0001' : 'ORDER-1001'}`)
              .join('&')}`
          : ''
      }`,
  );
const PAY = paths.find((p) => p.startsWith('/aoa-acquiring-biz/v2/payment'))!;

type Mock = Awaited<ReturnType<typeof startMockGateway>>;

async function startMock(): Promise<Mock> {
  // As `npm start` runs it: the default log level.
  return startMockGateway({ port: await freePort(), docsPort: await freePort() });
}

async function post(mock: Mock, path: string, bytes: string | Buffer, headers: Record<string, string> = {}) {
  const response = await fetch(`${mock.mockUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: bytes as any,
    signal: AbortSignal.timeout(20_000), // a hang fails here, not at the suite's timeout
  });
  return { status: response.status, text: await response.text() };
}

/** A valid pay request, answered 200 with the named example. */
async function expectAlive(mock: Mock) {
  const answer = await post(mock, PAY, JSON.stringify(doc.components.examples.PayWithUpi.value), {
    prefer: 'example=paySucceeded',
  });
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.text).body.resultInfo.resultCode).toBe('0000');
}

const LARGE = 100_000;

describe('the mock gateway with hostile bodies', () => {
  let mock: Mock;
  beforeAll(async () => {
    mock = await startMock();
  }, 90_000);
  afterAll(async () => {
    await mock?.stop();
  });

  // Bodies nested 10 000 levels deep are among them: Prism 5.14.2 with any log level but `silent`
  // answers them, then dies (its logger recurses on the body), so the mock runs it silent.
  it('answers a valid request first', async () => {
    await expectAlive(mock);
  });

  it.each(hostileBodies().map((b) => [b.what, b] as const))(
    'answers %s with a 4xx, then still answers',
    async (_what, body) => {
      // Large bodies go to one path (Prism lists every error it finds, see below); the others to every operation's path.
      for (const path of body.bytes.length > LARGE ? [PAY] : paths) {
        const answer = await post(mock, path, body.bytes);
        expect(answer.status, path).toBeGreaterThanOrEqual(400);
        expect(answer.status, path).toBeLessThan(500);
      }
      await expectAlive(mock);
    },
  );

  it('answers 20 000 invalid items where the contract describes each item, then still answers', async () => {
    // Prism describes every failing item: the answer grows with the input (about 540 bytes per
    // item), so this stays far below the 200 000 items sent to the pay path above.
    const modify = paths.find((p) => p.startsWith('/aoa-acquiring-biz/v2/modifyOrder'))!;
    const answer = await post(
      mock,
      modify,
      `{"head":{"tokenType":"TXN_TOKEN","token":"T"},"body":{"goodsInfo":[${Array(20_000).fill('{}').join(',')}]}}`,
    );
    expect(answer.status).toBe(422);
    await expectAlive(mock);
  }, 60_000);
});
