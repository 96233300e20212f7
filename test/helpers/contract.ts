// The contract as tests see it: bundled fresh from openapi/ (not from generated/), so tests judge
// the sources themselves.

import { fileURLToPath } from 'node:url';
import { bundle, loadConfig } from '@redocly/openapi-core';
import { createAjv, DOCUMENT_ID } from '../../scripts/lib/ajvBuild.mjs';

export const root = fileURLToPath(new URL('../../', import.meta.url));

let cached: Promise<any> | undefined;

/** The bundled contract (components referenced by name). */
export function bundledContract(): Promise<any> {
  cached ??= (async () => {
    const config = await loadConfig({ configPath: `${root}redocly.yaml` });
    const result = await bundle({ ref: `${root}openapi/openapi.yaml`, config, dereference: false });
    if (result.problems.length)
      throw new Error(`bundle problems: ${result.problems.map((p: any) => p.message).join('; ')}`);
    return result.bundle.parsed;
  })();
  return cached;
}

/** A strict 2020-12 AJV holding the contract; `validator('InitiatePaymentRequest')` compiles one schema. */
export async function contractAjv() {
  const doc = await bundledContract();
  const ajv = createAjv(doc);
  return { doc, ajv, validator: (name: string) => ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`)! };
}

export interface OperationView {
  operationId: string;
  kind: 'operation' | 'webhook';
  path: string;
  op: any;
  servers: any[] | undefined;
}

/** Every operation and the webhook, with their path item's servers. */
export function operationsOf(doc: any): OperationView[] {
  const list: OperationView[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths))
    list.push({ operationId: item.post.operationId, kind: 'operation', path, op: item.post, servers: item.servers });
  for (const [name, item] of Object.entries<any>(doc.webhooks))
    list.push({
      operationId: item.post.operationId,
      kind: 'webhook',
      path: name,
      op: item.post,
      servers: item.servers,
    });
  return list;
}

/** Resolves a local `$ref` (`#/components/...`). */
export function resolve(doc: any, ref: string): any {
  return ref
    .slice(2)
    .split('/')
    .reduce((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

/** Calls `visit` for every object node of the document with its JSON Pointer. */
export function walk(node: any, visit: (node: any, pointer: string) => void, pointer = ''): void {
  if (!node || typeof node !== 'object') return;
  if (!Array.isArray(node)) visit(node, pointer);
  for (const [key, value] of Object.entries(node))
    walk(value, visit, `${pointer}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`);
}
