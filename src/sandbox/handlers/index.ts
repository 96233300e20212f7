// The handler of each operation the sandbox serves: the compiler checks that every operation has
// one and that each takes its own request and answers its own codes.
import type { SandboxOperation } from '../operationIndex.js';
import type { Handler } from './context.js';
import { createSubscription } from './createSubscription.js';
import { listSubscriptions } from './listSubscriptions.js';
import { modifyOrder } from './modifyOrder.js';
import { initiatePayment } from './pay.js';
import { preAuthorize } from './preAuth.js';
import { tokenizeCard } from './tokenize.js';

export const HANDLERS: { readonly [O in SandboxOperation]: Handler<O> } = {
  tokenizeCard,
  preAuthorize,
  listSubscriptions,
  initiatePayment,
  modifyOrder,
  createSubscription,
};
