// The operation index: for each operationId, its method, host, path, parameters, schemas,
// examples, authentication, named checks and whether it is idempotent, read from the bundled
// document; and, derived from the request schemas, how a call is put together: where each
// parameter's value comes from, which head family builds the head, whether the body is signed and
// which head field carries a token.

import { namedCheckRules } from './namedChecks.mjs';
import { deref, refName } from './refs.mjs';

const HOSTS = /** @type {const} */ ({ base_url: 'gateway', router_url: 'router' });

/**
 * The properties of an object schema and those required in every form of it (through `$ref`,
 * `allOf` and the branches of `oneOf`).
 * @param {any} doc @param {any} schema
 * @returns {{ properties: Set<string>, required: Set<string> }}
 */
export function fieldsOf(doc, schema) {
  const node = deref(doc, schema);
  const properties = new Set(Object.keys(node?.properties ?? {}));
  const required = new Set(/** @type {string[]} */ (node?.required ?? []));
  for (const part of node?.allOf ?? []) {
    const inner = fieldsOf(doc, part);
    for (const p of inner.properties) properties.add(p);
    for (const r of inner.required) required.add(r);
  }
  if (Array.isArray(node?.oneOf)) {
    const branches = node.oneOf.map((/** @type {any} */ b) => fieldsOf(doc, b));
    for (const b of branches) for (const p of b.properties) properties.add(p);
    for (const r of branches[0].required)
      if (branches.every((/** @type {{ required: Set<string> }} */ b) => b.required.has(r))) required.add(r);
  }
  return { properties, required };
}

/**
 * How the client puts a request together, from its schemas: a query parameter that the body
 * requires too is taken from the body (the service wants them equal), one the head requires is
 * the head's value (tokenize's requestId), any other parameter is an argument of the call. A
 * required head `token` is the call's credential: the order's transaction token (`txnToken`) when
 * `tokenType` is `TXN_TOKEN`, otherwise `token`.
 * @param {any} doc @param {any} requestSchema @param {{ name: string, in: string, required: boolean }[]} parameters
 */
function callOf(doc, requestSchema, parameters) {
  const envelope = deref(doc, requestSchema);
  const headSchema = envelope.properties.head;
  const head = fieldsOf(doc, headSchema);
  const body = fieldsOf(doc, envelope.properties.body);
  const sources = parameters.map((p) => ({
    ...p,
    source:
      p.in === 'query' && body.required.has(p.name)
        ? 'body'
        : p.in === 'query' && head.required.has(p.name)
          ? 'head'
          : 'argument',
  }));
  const tokenType = deref(doc, deref(doc, headSchema).properties?.tokenType);
  const tokenTypes = [tokenType?.const, ...(tokenType?.enum ?? [])].filter(Boolean);
  return {
    parameters: sources,
    head: { schema: refName(headSchema.$ref), fields: [...head.properties], required: [...head.required] },
    signature: head.required.has('signature') ? 'required' : head.properties.has('signature') ? 'optional' : 'none',
    credential: head.required.has('token')
      ? { argument: tokenTypes.includes('TXN_TOKEN') ? 'txnToken' : 'token', head: 'token' }
      : null,
  };
}

/** @param {any} doc */
export function operationsOf(doc) {
  const list = [];
  for (const [kind, group] of /** @type {const} */ ([
    ['operation', doc.paths],
    ['webhook', doc.webhooks],
  ])) {
    for (const [key, item] of Object.entries(group ?? {})) {
      const op = /** @type {any} */ (item).post;
      const server = /** @type {any} */ (item).servers?.[0];
      const variable = server ? Object.keys(server.variables ?? {})[0] : null;
      const request = op.requestBody.content['application/json'];
      const response = op.responses['200'].content['application/json'];
      const parameters = (op.parameters ?? []).map((/** @type {any} */ p) => {
        const param = p.$ref ? doc.components.parameters[refName(p.$ref)] : p;
        return {
          name: param.name,
          in: param.in,
          required: Boolean(param.required),
          ...(p.$ref ? { component: refName(p.$ref) } : {}),
        };
      });
      const call = callOf(doc, request.schema, parameters);
      list.push({
        operationId: op.operationId,
        kind,
        method: 'POST',
        host: kind === 'webhook' ? 'merchant' : HOSTS[/** @type {keyof typeof HOSTS} */ (variable)],
        serverVariable: kind === 'webhook' ? null : variable,
        path: kind === 'webhook' ? null : key,
        webhook: kind === 'webhook' ? key : null,
        summary: op.summary,
        tags: op.tags ?? [],
        parameters: call.parameters,
        request: { schema: refName(request.schema.$ref), examples: Object.keys(request.examples ?? {}) },
        response: { schema: refName(response.schema.$ref), examples: Object.keys(response.examples ?? {}) },
        head: call.head,
        signature: call.signature,
        credential: call.credential,
        authentication: op['x-authentication'],
        namedChecks: op['x-named-checks'] ?? [],
        idempotent: op['x-idempotent'] === true,
      });
    }
  }
  return list;
}

/** @param {any} doc @param {string} header */
export function buildOperationIndex(doc, header) {
  // Whether sending the same request twice is harmless: every operation of this contract says so
  // (a released contract read by the change check may predate it). The webhook is the service's call.
  for (const item of Object.values(doc.paths ?? {})) {
    const op = /** @type {any} */ (item).post;
    if (typeof op['x-idempotent'] !== 'boolean')
      throw new Error(`${op.operationId} does not say whether it is idempotent (x-idempotent)`);
  }
  const operations = operationsOf(doc);
  const json = JSON.stringify(operations, null, 2);
  const checks = namedCheckRules();
  for (const op of operations)
    for (const name of op.namedChecks)
      if (!checks[name])
        throw new Error(`${op.operationId} names the check ${name}, which traceability.yaml does not describe`);
  const rules = JSON.stringify(checks, null, 2);
  const rulesDoc =
    '/** Per named check (a rule JSON Schema cannot say), the rule in words and where the description states it. */';
  return {
    // Marked pure, so that a bundle that reads one of the two lists leaves the other out.
    'operations.js': `// ${header}\n/** Every operation and the webhook of the contract. */\nexport const operations = /* @__PURE__ */ Object.freeze(${json});\n${rulesDoc}\nexport const namedCheckRules = /* @__PURE__ */ Object.freeze(${rules});\n`,
    'operations.d.ts': `// ${header}\n/** Every operation and the webhook of the contract. */\nexport declare const operations: readonly ${json};\nexport type OperationInfo = (typeof operations)[number];\nexport type OperationId = OperationInfo['operationId'];\n${rulesDoc}\nexport declare const namedCheckRules: ${rules};\nexport type NamedCheckName = keyof typeof namedCheckRules;\n`,
  };
}
