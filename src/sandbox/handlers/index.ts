// The handler of each operation the sandbox serves: the compiler checks that every operation has
// one and that each takes its own request and answers its own codes.
import type { SandboxOperation } from '../operationIndex.js';
import type { Handler } from './context.js';
import { createSubscription } from './createSubscription.js';
import { initiatePayment } from './initiatePayment.js';
import { listSubscriptions } from './listSubscriptions.js';
import { modifyOrder } from './modifyOrder.js';
import { preAuthorize } from './preAuthorize.js';
import { tokenizeCard } from './tokenizeCard.js';

export const HANDLERS: { readonly [O in SandboxOperation]: Handler<O> } = {
  tokenizeCard,
  preAuthorize,
  listSubscriptions,
  initiatePayment,
  modifyOrder,
  createSubscription,
};
