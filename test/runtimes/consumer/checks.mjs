// @ts-nocheck: this file runs in a fresh project where the packed package is installed; from the
// repository, 'gateway-contract' and its subpaths do not resolve to what a merchant installs.
//
// The consumer program's checks, shared by every target: web-standard code only (no node: import,
// no process, no Deno or Bun global), so that the same module runs unbundled on Node, Bun and Deno,
// bundled by esbuild, webpack, rollup and Next.js, in workerd, in Vercel's edge-runtime and in a
// browser. Each wrapper calls runChecks() and reports its list.
import {
  createChecksumSigner,
  createChecksumVerifier,
  createGatewayClient,
  createWebhookReceiver,
  validate,
} from 'gateway-contract';

/** The key of the signing and webhook checks (16 bytes, for AES-128). */
export const KEY = 'RuntimesKey01234';
/**
 * A signature made once by the package's Node implementation (node:crypto) over VECTOR_TEXT with
 * KEY: every runtime's verifier must accept it, so that a port to SubtleCrypto stays byte-compatible.
 */
export const VECTOR_TEXT = '{"mid":"MERCHANT0001","orderId":"ORDER-1001"}';
export const VECTOR_SIGNATURE =
  'xapr7R8nDSyZun6XQWNEOtedz2xmVPxzGtcuMzkI+Y0mdNl5OMK0rc51+qOeNZlK7pHavWVKfajaWgSxsXTC9KrWmqMkwxJAROnfoOok6kE=';

/** The sandbox's defaults (docs/sandbox.md): the harness starts it with them. */
export const SANDBOX = { mid: 'MERCHANT0001', key: 'SandboxTestKey01', clientId: 'C11' };

const MID = 'MERCHANT0001';
const QUERY = { mid: MID, orderId: 'ORDER-1001' };
/** The contract's PayWithWallet example: a valid pay request. */
export const validPay = {
  head: {
    requestTimeStamp: '1768971330000',
    channelId: 'WEB',
    tokenType: 'TXN_TOKEN',
    token: 'TXN-TOKEN-PLACEHOLDER',
    version: 'v1',
  },
  body: {
    mid: MID,
    orderId: 'ORDER-1001',
    requestType: 'PAYMENT',
    paymentMode: 'WALLET',
    walletInfo: { walletType: 'SVC', paymentFlow: 'PAY' },
  },
};
/** A UPI collect payment without its payer's address: invalid at /body/payerAccount. */
export const invalidPay = {
  head: validPay.head,
  body: { mid: MID, orderId: 'ORDER-1001', requestType: 'PAYMENT', paymentMode: 'UPI' },
};
const MISSING_AT = '/body/payerAccount';

/** The body of the contract's TokenStatusActive example. */
const TOKEN_ACTIVE = {
  mid: MID,
  tokenInfo: {
    tokenIndexNumber: 'TIN7Q2ZB0K4XK1',
    cardScheme: 'VISA',
    tokenExpiry: '122030',
    issuingBankName: 'Example Bank',
    cardSuffix: '1111',
    tokenUniqueReference: 'DNITHE000000000000000001',
    panUniqueReference: 'V0010013000000000000000001',
    cardType: 'CC',
    displayName: 'Example Bank Visa Credit',
    tokenSuffix: '4321',
    tokenStatus: 'ACTIVE',
    tokenBin: '411111',
  },
};

/**
 * A token status notification as the service sends it: the CHECKSUM of the exact body text in
 * head.signature. `tamper` changes the body after signing (a forged notification).
 */
export async function notification({ requestId, key = KEY, tamper = false }) {
  const bodyText = JSON.stringify(TOKEN_ACTIVE);
  const signature = await createChecksumSigner(key).sign(bodyText);
  const head = { version: 'v1', requestTimestamp: String(Date.now()), requestId, signature, signatureType: 'CHECKSUM' };
  const sent = tamper ? bodyText.replace('"tokenStatus":"ACTIVE"', '"tokenStatus":"DEAD"') : bodyText;
  return `{"head":${JSON.stringify(head)},"body":${sent}}`;
}

/** A fresh id per run, so that notifications of two runs against one server are not replays. */
export const runId = () => `RT-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** The result code of a webhook reply (a Response), or a description of what came instead. */
export async function replyCode(response) {
  const text = await response.text();
  try {
    return JSON.parse(text)?.body?.resultInfo?.resultCode ?? `no resultCode in ${text.slice(0, 200)}`;
  } catch {
    return `HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`;
  }
}

const pointersOf = (verdict) => (verdict?.valid === false ? (verdict.errors ?? []).map((e) => e.pointer) : []);

/** Throws with `message` and what was seen when `ok` is false. */
function expect(ok, message, seen) {
  if (!ok)
    throw new Error(
      seen === undefined ? message : `${message} (got ${typeof seen === 'string' ? seen : JSON.stringify(seen)})`,
    );
}

/** (a) validate() of the root entry: a valid pay request, and an invalid one with its JSON Pointer. */
export async function checkValidate() {
  const valid = validate('initiatePayment', 'request', validPay, { query: QUERY });
  expect(valid?.valid === true, 'a valid pay request is valid', valid);
  const invalid = validate('initiatePayment', 'request', invalidPay, { query: QUERY });
  expect(invalid?.valid === false, 'a UPI pay without payerAccount is invalid', invalid);
  const pointers = pointersOf(invalid);
  expect(
    pointers.every((p) => typeof p === 'string' && (p === '' || p.startsWith('/'))),
    'every error has a JSON Pointer',
    pointers,
  );
  expect(pointers.includes(MISSING_AT), `an error at ${MISSING_AT}`, pointers);
  return `valid, and invalid at ${pointers.join(', ')}`;
}

/** (b) The per-operation entry gives the verdicts validate() gives. */
export async function checkPerOperation() {
  // A module of its own, imported here, so that a package without the entry fails this check alone
  // when unbundled; a bundler resolves it at build time (and fails the build if it is missing).
  const { validateRequest } = await import('./perOperation.mjs');
  const valid = await validateRequest(validPay, { query: QUERY });
  expect(valid?.valid === true, 'validateRequest: a valid pay request is valid', valid);
  const invalid = await validateRequest(invalidPay, { query: QUERY });
  const expected = pointersOf(validate('initiatePayment', 'request', invalidPay, { query: QUERY }));
  expect(invalid?.valid === false, 'validateRequest: the invalid pay request is invalid', invalid);
  expect(
    JSON.stringify(pointersOf(invalid)) === JSON.stringify(expected),
    `validateRequest: the pointers of validate() ${JSON.stringify(expected)}`,
    pointersOf(invalid),
  );
  return 'same verdicts as validate()';
}

/** (c) Sign and verify; a tampered text fails; the Node-made signature verifies here. */
export async function checkSigning() {
  const signer = createChecksumSigner(KEY);
  const verifier = createChecksumVerifier(KEY);
  const text = JSON.stringify(validPay.body);
  const signature = await signer.sign(text);
  expect(typeof signature === 'string' && signature.length === 108, 'a signature of 108 characters', signature);
  expect((await verifier.verify(text, signature)) === true, 'verify() accepts the signature');
  expect(
    (await verifier.verify(text.replace('WALLET', 'UPI'), signature)) === false,
    'verify() refuses a tampered text',
  );
  expect(
    (await verifier.verify(VECTOR_TEXT, VECTOR_SIGNATURE)) === true,
    'verify() accepts the signature made by the Node implementation',
  );
  return '108 characters, verified, tampered text refused, Node-made signature verified';
}

/** (d) The webhook receiver's fetch handler: 00 once, 1001 forged, 406 replayed. */
export async function checkWebhook() {
  const events = [];
  const handle = createWebhookReceiver({ verifier: createChecksumVerifier(KEY) }).fetchHandler((event) => {
    events.push(event);
  });
  const post = (text) =>
    handle(
      new Request('http://merchant.example/webhooks/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      }),
    );
  const id = runId();
  const good = await notification({ requestId: `${id}-1` });
  const first = await replyCode(await post(good));
  expect(first === '00', 'a correctly signed notification is answered 00', first);
  expect(
    events.length === 1 && events[0]?.body?.tokenInfo?.tokenStatus === 'ACTIVE',
    'onEvent ran once with the event',
    events.length,
  );
  const forged = await replyCode(await post(await notification({ requestId: `${id}-2`, tamper: true })));
  expect(forged === '1001', 'a forged signature is answered 1001', forged);
  const replay = await replyCode(await post(good));
  expect(replay === '406', 'the same notification again is answered 406', replay);
  expect(events.length === 1, 'onEvent ran once in all', events.length);
  return '00 (onEvent once), forged 1001, replay 406';
}

/** (e) The typed client against the sandbox: a signed list call, and a UPI intent pay of a new order. */
export async function checkClient(sandboxUrl) {
  const client = createGatewayClient({
    gatewayUrl: sandboxUrl,
    routerUrl: sandboxUrl,
    clientId: SANDBOX.clientId,
    signer: createChecksumSigner(SANDBOX.key),
    validate: true,
  });
  const listed = await client.listSubscriptions({
    token: 'SSO-TOKEN',
    body: { mid: SANDBOX.mid, custId: 'CUST_RUNTIMES' },
  });
  expect(listed?.code === '200', 'listSubscriptions answers 200 (none found)', listed?.code);
  // Orders are made through the sandbox's control API, outside the contract.
  const created = await fetch(`${sandboxUrl}/sandbox/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ txnAmount: { value: '12.00' } }),
  });
  expect(created.ok, 'the sandbox creates an order', created.status);
  const order = await created.json();
  const paid = await client.initiatePayment({
    txnToken: order.txnToken,
    body: {
      mid: order.mid,
      orderId: order.orderId,
      requestType: 'PAYMENT',
      paymentMode: 'UPI_INTENT',
      osType: 'ANDROID',
    },
  });
  expect(
    paid?.code === '0000' && typeof paid.data?.body?.deepLinkInfo?.url === 'string',
    'a UPI intent pay answers 0000 with a deep link',
    paid?.code,
  );
  return `listSubscriptions ${listed.code}, initiatePayment ${paid.code}`;
}

/** (f) The subpath entries load and give the functions of the root entry. */
export async function checkSubpaths() {
  const entries = await import('./subpaths.mjs');
  const missing = Object.entries(entries.expected)
    .flatMap(([entry, names]) =>
      names.filter((name) => typeof entries.loaded[entry]?.[name] !== 'function').map((name) => `${entry}: ${name}`),
    )
    .join(', ');
  expect(missing === '', 'every subpath gives its functions', missing);
  return Object.keys(entries.expected).join(', ');
}

/**
 * Runs every check and returns one entry per check: { id, name, ok, detail } or, for a check the
 * target cannot run, { id, name, ok: true, skipped: reason }. Never throws.
 * @param {{ sandboxUrl?: string, skipClient?: string }} options sandboxUrl where the runtime can reach
 *   the harness's sandbox; otherwise skipClient says why the client is not checked.
 */
export async function runChecks({ sandboxUrl, skipClient } = {}) {
  const checks = [
    ['a', 'validate', checkValidate],
    ['b', 'validators/initiatePayment', checkPerOperation],
    ['c', 'sign and verify', checkSigning],
    ['d', 'webhook fetchHandler', checkWebhook],
    ['e', 'client against the sandbox', sandboxUrl ? () => checkClient(sandboxUrl) : null],
    ['f', 'subpath entries', checkSubpaths],
  ];
  const results = [];
  for (const [id, name, run] of checks) {
    if (!run) {
      results.push({ id, name, ok: true, skipped: skipClient ?? 'no sandbox given' });
      continue;
    }
    try {
      results.push({ id, name, ok: true, detail: await run() });
    } catch (error) {
      results.push({ id, name, ok: false, detail: describe(error) });
    }
  }
  return results;
}

/** An error as one line: its name, code and message (no stack: the line goes into a report). */
export function describe(error) {
  if (!(error instanceof Error)) return String(error);
  const code = error.code ? ` [${error.code}]` : '';
  return `${error.name}${code}: ${error.message}`.split('\n').slice(0, 3).join(' ').slice(0, 600);
}
