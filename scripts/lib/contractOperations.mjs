// The operations and webhooks of a bundled contract, by operationId, with their pointers, and
// how a change of one is named for a reader (request/response, or notification/reply).
import { pointerOf } from './pointers.mjs';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * @typedef {object} OperationRef
 * @property {string} operationId
 * @property {'operation' | 'webhook'} kind
 * @property {string} pointer the operation object in the bundle, e.g. `/paths/~1order~1v2~1preAuth/post`
 * @property {string} name the path or the webhook's name
 * @property {string} method
 * @property {any} op
 */

/** Every operation and webhook, in the order of the document. @param {any} doc @returns {OperationRef[]} */
export function operationRefs(doc) {
  /** @type {OperationRef[]} */
  const list = [];
  for (const [kind, group, root] of /** @type {const} */ ([
    ['operation', doc?.paths, 'paths'],
    ['webhook', doc?.webhooks, 'webhooks'],
  ])) {
    for (const [name, item] of Object.entries(group ?? {})) {
      for (const method of HTTP_METHODS) {
        const op = /** @type {any} */ (item)?.[method];
        if (!op || typeof op !== 'object') continue;
        const pointer = pointerOf([root, name, method]);
        list.push({
          operationId: typeof op.operationId === 'string' ? op.operationId : `${method.toUpperCase()} ${name}`,
          kind,
          pointer,
          name,
          method,
          op,
        });
      }
    }
  }
  return list;
}

/**
 * How a reader calls one side of an operation: the merchant's request and the service's response;
 * for a webhook the service's notification and the merchant's reply.
 * @param {'operation' | 'webhook'} kind @param {'request' | 'response'} direction
 */
export function sideLabel(kind, direction) {
  if (kind === 'webhook') return direction === 'request' ? 'notification' : 'reply';
  return direction;
}

/**
 * Who sends one side of an operation: the merchant sends requests and webhook replies; the
 * service sends responses and notifications. What breaks a merchant depends on it.
 * @param {'operation' | 'webhook'} kind @param {'request' | 'response'} direction @returns {'merchant' | 'service'}
 */
export function senderOf(kind, direction) {
  return (direction === 'request') === (kind === 'operation') ? 'merchant' : 'service';
}
