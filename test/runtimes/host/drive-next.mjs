// @ts-nocheck: runs in a fresh project where the packed package is installed (see consumer/checks.mjs).
//
// Drives the Next.js app's standalone server over HTTP, as the service and a merchant's page would:
// the webhook route gets a signed notification (00, and the handler ran once), a forged one (1001)
// and the first again (406); the validate route a valid and an invalid pay request; the checks
// route runs the whole consumer program inside the server. Usage: drive-next.mjs <app url> [sandbox url]
// Prints one line, CHECKS and the results as JSON, like consumer/main.mjs.
import { describe, invalidPay, notification, replyCode, runId, validPay } from '../consumer/checks.mjs';

const [app, sandboxUrl] = process.argv.slice(2);
const QUERY = { mid: 'MERCHANT0001', orderId: 'ORDER-1001' };

async function post(path, body) {
  return fetch(`${app}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}

function expect(ok, message, seen) {
  if (!ok)
    throw new Error(
      seen === undefined ? message : `${message} (got ${typeof seen === 'string' ? seen : JSON.stringify(seen)})`,
    );
}

async function webhookRoute() {
  const id = runId();
  const accepted = async () => {
    const response = await fetch(`${app}/api/webhook`);
    const text = await response.text();
    expect(response.ok, 'GET /api/webhook answers 200', `${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text).accepted;
  };
  const before = await accepted();
  const good = await notification({ requestId: `${id}-1` });
  const first = await replyCode(await post('/api/webhook', good));
  expect(first === '00', 'a correctly signed notification is answered 00', first);
  expect((await accepted()) === before + 1, 'the handler ran once', (await accepted()) - before);
  const forged = await replyCode(
    await post('/api/webhook', await notification({ requestId: `${id}-2`, tamper: true })),
  );
  expect(forged === '1001', 'a forged signature is answered 1001', forged);
  const replay = await replyCode(await post('/api/webhook', good));
  expect(replay === '406', 'the same notification again is answered 406', replay);
  expect((await accepted()) === before + 1, 'the handler ran once in all', (await accepted()) - before);
  return 'POST /api/webhook: 00 (handler once), forged 1001, replay 406';
}

async function validateRoute() {
  const verdictOf = async (payload) => {
    const response = await post('/api/validate', JSON.stringify({ payload, query: QUERY }));
    expect(
      response.ok,
      'the validate route answers 200',
      `${response.status} ${(await response.clone().text()).slice(0, 300)}`,
    );
    return response.json();
  };
  const valid = await verdictOf(validPay);
  expect(valid.valid === true, 'a valid pay request is valid', valid);
  const invalid = await verdictOf(invalidPay);
  const pointers = (invalid.errors ?? []).map((e) => e.pointer);
  expect(
    invalid.valid === false && pointers.includes('/body/payerAccount'),
    'the invalid pay request is invalid at /body/payerAccount',
    invalid,
  );
  return `POST /api/validate: valid, and invalid at ${pointers.join(', ')}`;
}

async function checksRoute() {
  const response = await fetch(`${app}/api/checks${sandboxUrl ? `?sandbox=${encodeURIComponent(sandboxUrl)}` : ''}`);
  const text = await response.text();
  expect(response.ok, 'the checks route answers 200', `${response.status} ${text.slice(0, 600)}`);
  return JSON.parse(text);
}

const results = [];
for (const [id, name, run] of [
  ['route-d', 'webhook route over HTTP', webhookRoute],
  ['route-a', 'validate route over HTTP', validateRoute],
]) {
  try {
    results.push({ id, name, ok: true, detail: await run() });
  } catch (error) {
    results.push({ id, name, ok: false, detail: describe(error) });
  }
}
try {
  results.push(...(await checksRoute()));
} catch (error) {
  results.push({
    id: 'route',
    name: 'checks route (the consumer program in the server)',
    ok: false,
    detail: describe(error),
  });
}
process.stdout.write(`CHECKS ${JSON.stringify(results)}\n`, () => process.exit(0));
