// @ts-nocheck: runs in a fresh project where the packed package is installed (see checks.mjs).
//
// The subpath entries, imported as a merchant writes them (loaded on its own by checks.mjs, like
// perOperation.mjs), and the functions each must give.
import * as client from 'gateway-contract/client';
import * as signing from 'gateway-contract/signing';
import * as validation from 'gateway-contract/validation';
import * as webhook from 'gateway-contract/webhook';

export const loaded = {
  'gateway-contract/client': client,
  'gateway-contract/signing': signing,
  'gateway-contract/validation': validation,
  'gateway-contract/webhook': webhook,
};

export const expected = {
  'gateway-contract/client': ['createGatewayClient'],
  'gateway-contract/signing': ['createChecksumSigner', 'createChecksumVerifier'],
  'gateway-contract/validation': ['validate'],
  'gateway-contract/webhook': ['createWebhookReceiver'],
};
