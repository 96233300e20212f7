// Every named example of the contract, per operation and direction, with the query and path
// parameters a merchant would send with it (taken from the head or the body as the operation
// index says, or the examples' merchant and order ids for parameters the caller chooses).
import { readFileSync } from 'node:fs';
import { operations } from '../../generated/operations.js';

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));

export interface ContractExample {
  operationId: (typeof operations)[number]['operationId'];
  direction: 'request' | 'response';
  /** The example's name in the operation (`payWithUpi`). */
  name: string;
  payload: any;
  query?: Record<string, string>;
  path?: Record<string, string>;
}

const CHOSEN: Record<string, string> = { mid: 'MERCHANT0001', orderId: 'ORDER-1001' };

/** The query and path parameters of a request example, or none for an operation without any. */
export function parametersOf(operationId: string, payload: any): { query?: Record<string, string>; path?: Record<string, string> } {
  const op = operations.find((o) => o.operationId === operationId)!;
  const out: { query?: Record<string, string>; path?: Record<string, string> } = {};
  for (const p of op.parameters) {
    const from = p.source === 'head' ? payload?.head : payload?.body;
    const value = typeof from?.[p.name] === 'string' ? from[p.name] : CHOSEN[p.name];
    if (value === undefined) continue;
    const where = p.in === 'path' ? 'path' : 'query';
    out[where] = { ...out[where], [p.name]: value };
  }
  return out;
}

export function contractExamples(): ContractExample[] {
  const list: ContractExample[] = [];
  for (const op of operations) {
    const item = (op.kind === 'webhook' ? doc.webhooks[op.webhook!] : doc.paths[op.path!]).post;
    for (const direction of ['request', 'response'] as const) {
      const side = direction === 'request' ? op.request : op.response;
      const content = (direction === 'request' ? item.requestBody : item.responses['200']).content['application/json'];
      for (const name of side.examples) {
        const payload = structuredClone(doc.components.examples[content.examples[name].$ref.split('/').pop()].value);
        list.push({ operationId: op.operationId, direction, name, payload, ...(direction === 'request' ? parametersOf(op.operationId, payload) : {}) });
      }
    }
  }
  return list;
}
