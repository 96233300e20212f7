// The operation index: for each operationId, its method, host, path, parameters, schemas,
// examples, authentication and named checks, read from the bundled document.
import { refName } from './refs.mjs';
import { namedCheckRules } from './namedChecks.mjs';

const HOSTS = /** @type {const} */ ({ base_url: 'gateway', router_url: 'router' });

/** @param {any} doc */
export function operationsOf(doc) {
  const list = [];
  for (const [kind, group] of /** @type {const} */ ([['operation', doc.paths], ['webhook', doc.webhooks]])) {
    for (const [key, item] of Object.entries(group ?? {})) {
      const op = /** @type {any} */ (item).post;
      const server = /** @type {any} */ (item).servers?.[0];
      const variable = server ? Object.keys(server.variables ?? {})[0] : null;
      const request = op.requestBody.content['application/json'];
      const response = op.responses['200'].content['application/json'];
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
        parameters: (op.parameters ?? []).map((/** @type {any} */ p) => {
          const param = p.$ref ? doc.components.parameters[refName(p.$ref)] : p;
          return { name: param.name, in: param.in, required: Boolean(param.required) };
        }),
        request: { schema: refName(request.schema.$ref), examples: Object.keys(request.examples ?? {}) },
        response: { schema: refName(response.schema.$ref), examples: Object.keys(response.examples ?? {}) },
        authentication: op['x-authentication'],
        namedChecks: op['x-named-checks'] ?? [],
      });
    }
  }
  return list;
}

/** @param {any} doc @param {string} header */
export function buildOperationIndex(doc, header) {
  const operations = operationsOf(doc);
  const json = JSON.stringify(operations, null, 2);
  const checks = namedCheckRules();
  for (const op of operations) for (const name of op.namedChecks) if (!checks[name]) throw new Error(`${op.operationId} names the check ${name}, which traceability.yaml does not describe`);
  const rules = JSON.stringify(checks, null, 2);
  const rulesDoc = '/** Per named check (a rule JSON Schema cannot say), the rule in words and where the description states it. */';
  return {
    'operations.js': `// ${header}\n/** Every operation and the webhook of the contract. */\nexport const operations = Object.freeze(${json});\n${rulesDoc}\nexport const namedCheckRules = Object.freeze(${rules});\n`,
    'operations.d.ts': `// ${header}\n/** Every operation and the webhook of the contract. */\nexport declare const operations: readonly ${json};\nexport type OperationInfo = (typeof operations)[number];\nexport type OperationId = OperationInfo['operationId'];\n${rulesDoc}\nexport declare const namedCheckRules: ${rules};\nexport type NamedCheckName = keyof typeof namedCheckRules;\n`,
  };
}
