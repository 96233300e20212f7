// The contract's named examples, per operation and direction, with the query and path parameters a
// merchant sends with each request (from its head or body as the operation index says, or the
// examples' merchant and order ids). Plain JavaScript, so that the benchmarks read the same list as
// the tests (test/helpers/examples.ts types it for them).
import { readFileSync } from 'node:fs';
import { operations } from '../../generated/operations.js';

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
/** @type {Record<string, string>} */
const CHOSEN = { mid: 'MERCHANT0001', orderId: 'ORDER-1001' };

/**
 * The query and path parameters of a request payload of an operation.
 * @param {string} operationId @param {any} payload
 * @returns {{ query?: Record<string, string>, path?: Record<string, string> }}
 */
export function parametersOf(operationId, payload) {
  const op = operations.find((o) => o.operationId === operationId);
  /** @type {{ query?: Record<string, string>, path?: Record<string, string> }} */
  const out = {};
  for (const p of op?.parameters ?? []) {
    const from = p.source === 'head' ? payload?.head : payload?.body;
    const value = typeof from?.[p.name] === 'string' ? from[p.name] : CHOSEN[p.name];
    if (value === undefined) continue;
    const where = p.in === 'path' ? 'path' : 'query';
    out[where] = { ...out[where], [p.name]: value };
  }
  return out;
}

/**
 * Every named example: operationId, direction, name, payload, and for requests their parameters.
 * @returns {{ operationId: string, direction: 'request' | 'response', name: string, payload: any, query?: Record<string, string>, path?: Record<string, string> }[]}
 */
export function examples() {
  const list = [];
  for (const op of operations) {
    const item =
      op.kind === 'webhook'
        ? doc.webhooks[/** @type {string} */ (op.webhook)]
        : doc.paths[/** @type {string} */ (op.path)];
    for (const direction of /** @type {const} */ (['request', 'response'])) {
      const side = direction === 'request' ? op.request : op.response;
      const content = (direction === 'request' ? item.post.requestBody : item.post.responses['200']).content[
        'application/json'
      ];
      for (const name of side.examples) {
        const payload = structuredClone(doc.components.examples[content.examples[name].$ref.split('/').pop()].value);
        list.push({
          operationId: op.operationId,
          direction,
          name,
          payload,
          ...(direction === 'request' ? parametersOf(op.operationId, payload) : {}),
        });
      }
    }
  }
  return list;
}
