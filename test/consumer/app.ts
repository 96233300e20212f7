// A merchant's program, compiled and run by scripts/check-consumer.mjs in a fresh project where the
// packed package is installed as a dependency: the typed client, validate(), the webhook receiver,
// the signer and encryptCardData from the package entry, startSandbox from the sandbox's, and the
// types, validators and result-codes subpaths. It pays with a wallet, tokenizes a card, receives the token status
// notification on its own webhook and pays with the token, all against an in-process sandbox.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import {
  type CallResult,
  createChecksumSigner,
  createChecksumVerifier,
  createGatewayClient,
  createWebhookReceiver,
  encryptCardData,
  GatewayError,
  type RequestOf,
  SANDBOX_DEFAULT_MERCHANT_KEY,
  SANDBOX_DEFAULT_MID,
  type TokenStatusEvent,
  validate,
} from 'gateway-contract';
import { resultCodes } from 'gateway-contract/result-codes';
import { startSandbox } from 'gateway-contract/sandbox';
import type { components, paths } from 'gateway-contract/types';
import { initiatePaymentRequest } from 'gateway-contract/validators';

const MID = SANDBOX_DEFAULT_MID;

// The merchant's webhook: every accepted notification is kept.
const received: TokenStatusEvent[] = [];
const receiver = createWebhookReceiver({
  verifier: createChecksumVerifier(SANDBOX_DEFAULT_MERCHANT_KEY),
  expectedMid: MID,
});
const webhook = createServer(
  receiver.nodeHandler((event) => {
    received.push(event);
  }),
);
await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
const webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/webhooks/token-status`;

const sandbox = await startSandbox({ port: 0, webhookUrl, checkAnswers: true });
try {
  const client = createGatewayClient({
    gatewayUrl: sandbox.url,
    routerUrl: sandbox.url,
    clientId: sandbox.clientId,
    signer: createChecksumSigner(SANDBOX_DEFAULT_MERCHANT_KEY),
    validate: true,
  });

  // A wallet payment: txnInfo at once.
  const order = sandbox.createOrder({ txnAmount: { value: '100.00' } });
  const paid: CallResult<'initiatePayment'> = await client.initiatePayment({
    txnToken: order.txnToken,
    body: {
      mid: order.mid,
      orderId: order.orderId,
      requestType: 'PAYMENT',
      paymentMode: 'WALLET',
      walletInfo: { paymentFlow: 'PAY' },
    },
  });
  assert.equal(paid.code, '0000');
  assert.equal(paid.outcome, 'success');
  assert.equal(paid.data.body.txnInfo?.status, 'TXN_SUCCESS');

  // Tokenize a card, receive its notification, pay with the token index.
  const encryptedCardData = await encryptCardData(
    { cardNumber: '4111111111111111', expiryMonth: '12', expiryYear: '2030', securityCode: '123' },
    sandbox.publicKeyPem,
  );
  const tokenized = await client.tokenizeCard({
    mid: MID,
    body: {
      cardSource: 'MANUAL_ENTERED',
      encryptedCardData,
      userInfo: { custId: 'CUST_001' },
      tokenizationConsent: { userConsent: 1, createdAt: 'Jan 21, 2026 10:15:30 AM' },
    },
  });
  assert.equal(tokenized.code, '00');
  const tokenIndexNumber = tokenized.data.body.tokenIndexNumber;
  assert.ok(tokenIndexNumber);
  await sandbox.idle();
  assert.deepEqual(
    received.map((e) => [e.body.tokenInfo.tokenIndexNumber, e.body.tokenInfo.tokenStatus]),
    [[tokenIndexNumber, 'ACTIVE']],
  );
  const card: components['schemas']['CardInfo'] = {
    cardFlowType: 'TOKEN_INDEX_NO',
    cardUniqueId: tokenIndexNumber,
    cvv: '123',
  };
  const second = sandbox.createOrder({ txnAmount: { value: '250.00' } });
  const byCard = await client.initiatePayment({
    txnToken: second.txnToken,
    body: { mid: MID, orderId: second.orderId, requestType: 'PAYMENT', paymentMode: 'CREDIT_CARD', cardInfo: card },
  });
  assert.equal(byCard.outcome, 'success');
  assert.equal(byCard.data.body.bankForm?.pageType, 'redirect');

  // validate(): a pay request without its instrument, and the code the service would answer.
  const withoutVpa = { mid: MID, orderId: 'ORDER-9', requestType: 'PAYMENT', paymentMode: 'UPI' };
  const verdict = validate(
    'initiatePayment',
    'request',
    { head: { tokenType: 'TXN_TOKEN', token: 'T' }, body: withoutVpa },
    { query: { mid: MID, orderId: 'ORDER-9' } },
  );
  assert.equal(verdict.valid, false);
  if (!verdict.valid)
    assert.deepEqual(
      verdict.errors.map((e) => e.pointer),
      ['/body/payerAccount'],
    );

  // A call the client refuses to send is a typed error.
  const refused = await client
    .initiatePayment({ txnToken: 'T', body: withoutVpa as unknown as RequestOf<'initiatePayment'>['body'] })
    .catch((error: unknown) => error);
  assert.ok(refused instanceof GatewayError && refused.kind === 'request-invalid');

  // The subpaths: the generated types, the precompiled validators, the result-code catalog and the bundle.
  type PayPost = paths['/aoa-acquiring-biz/v2/payment']['post'];
  const query: PayPost['parameters']['query'] = { mid: MID, orderId: 'ORDER-9' };
  assert.equal(initiatePaymentRequest({ head: {}, body: query }), false);
  assert.ok(resultCodes.initiatePayment.codes.some((c) => c.code === '201'));
  const contract = JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve('gateway-contract/openapi.json'), 'utf8'),
  ) as { info: { version: string } };
  assert.match(contract.info.version, /^\d+\.\d+\.\d+$/);
  assert.deepEqual(sandbox.answerProblems, []);
} finally {
  await sandbox.stop();
  await new Promise((resolve) => webhook.close(resolve));
}
console.log('consumer program: ok');
