// The shape of the contract itself: operations at the description's paths on their own hosts,
// authentication in the head, every component titled and described, every enum value documented.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { bundledContract, operationsOf, root, walk } from '../helpers/contract.js';

const doc = await bundledContract();

describe('document', () => {
  it('is OpenAPI 3.1.0 with the 2020-12 dialect', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('has the six operations at the exact paths, each on its own host, and the webhook', () => {
    const seen = Object.fromEntries(
      operationsOf(doc).map((o) => [o.operationId, { path: o.path, server: o.servers?.[0]?.url ?? null }]),
    );
    expect(seen).toEqual({
      tokenizeCard: { path: '/coft-center/coft/merchant/{mid}/tokenize', server: '{base_url}' },
      preAuthorize: { path: '/order/v2/preAuth', server: '{base_url}' },
      listSubscriptions: { path: '/subscription/list/all', server: '{base_url}' },
      initiatePayment: { path: '/aoa-acquiring-biz/v2/payment', server: '{router_url}' },
      modifyOrder: { path: '/aoa-acquiring-biz/v2/modifyOrder', server: '{router_url}' },
      createSubscription: { path: '/aoa-subscription/api/v2/subscription/create', server: '{router_url}' },
      notifyTokenStatus: { path: 'tokenStatusNotification', server: null },
    });
  });

  it('names each path file after its operation (openapi/paths/<operationId>.yaml)', () => {
    const files = readdirSync(`${root}openapi/paths`).sort();
    const named = files.map(
      (file) => `${parseYaml(readFileSync(`${root}openapi/paths/${file}`, 'utf8')).post.operationId}.yaml`,
    );
    expect(files).toEqual(named);
    expect(files).toHaveLength(6);
  });

  it('declares the query and path parameters of the description', () => {
    const params = (id: string) =>
      operationsOf(doc)
        .find((o) => o.operationId === id)!
        .op.parameters?.map((p: any) => {
          const param = p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p;
          return `${param.in}:${param.name}${param.required ? '' : '?'}`;
        }) ?? [];
    expect(params('tokenizeCard')).toEqual(['path:mid', 'query:requestId']);
    for (const id of ['initiatePayment', 'modifyOrder', 'createSubscription'])
      expect(params(id)).toEqual(['query:mid', 'query:orderId']);
    for (const id of ['preAuthorize', 'listSubscriptions', 'notifyTokenStatus']) expect(params(id)).toEqual([]);
  });

  it('keeps authentication in the JSON head: no HTTP security scheme, every operation says how it authenticates', () => {
    expect(doc.components.securitySchemes).toBeUndefined();
    expect(doc.security).toBeUndefined();
    for (const { operationId, op } of operationsOf(doc)) {
      expect(op.security, operationId).toEqual([]);
      expect(op['x-authentication']?.in, operationId).toBe('head');
      expect(op['x-authentication'].fields.length, operationId).toBeGreaterThan(0);
    }
  });

  it('models every outcome as HTTP 200 (status codes are not shown in the description)', () => {
    for (const { operationId, op } of operationsOf(doc))
      expect(Object.keys(op.responses), operationId).toEqual(['200']);
  });
});

describe('components', () => {
  it('every component schema has a title and a description', () => {
    for (const [name, schema] of Object.entries<any>(doc.components.schemas)) {
      expect(schema.title, name).toBeTruthy();
      expect(schema.description, name).toBeTruthy();
    }
  });

  it('names each envelope <OperationId>Request and <OperationId>Response; an old name is a deprecated alias (D-79)', () => {
    const upper = (id: string) => id[0].toUpperCase() + id.slice(1);
    for (const { operationId, kind, op } of operationsOf(doc)) {
      if (kind === 'webhook') continue;
      expect(op.requestBody.content['application/json'].schema.$ref, operationId).toBe(
        `#/components/schemas/${upper(operationId)}Request`,
      );
      expect(op.responses['200'].content['application/json'].schema.$ref, operationId).toBe(
        `#/components/schemas/${upper(operationId)}Response`,
      );
    }
    const aliases = Object.entries<any>(doc.components.schemas).filter(([, schema]) => schema.$ref !== undefined);
    expect(Object.fromEntries(aliases.map(([name, schema]) => [name, schema.$ref]))).toEqual({
      PaymentRequest: '#/components/schemas/InitiatePaymentRequest',
      PaymentResponse: '#/components/schemas/InitiatePaymentResponse',
      PreAuthRequest: '#/components/schemas/PreAuthorizeRequest',
      PreAuthResponse: '#/components/schemas/PreAuthorizeResponse',
    });
    for (const [name, schema] of aliases) {
      expect(Object.keys(schema).sort(), name).toEqual(['$ref', 'deprecated', 'description', 'title']);
      expect(schema.deprecated, name).toBe(true);
      expect(schema.description, name).toContain('next major version of the contract');
    }
  });

  it('every resource of section 2 is a component of its own', () => {
    const resources = [
      'ResultInfo',
      'TokenInfo',
      'CardData',
      'UserInfoCoft',
      'TokenizationConsent',
      'CoftConsent',
      'UserInfoPreAuth',
      'CardInfo',
      'CardTokenInfo',
      'WalletInfo',
      'AddMoneyPaymentDetails',
      'EMIinfo',
      'TransactionInfo',
      'BankForm',
      'FormDetail',
      'Money',
      'GoodsInfo',
      'ShippingInfo',
      'SubscriptionUserInfo',
      'MandateAccountDetails',
      'SubscriptionDetails',
      'SubscriptionId',
    ];
    for (const name of resources) expect(doc.components.schemas[name], name).toBeDefined();
  });

  it('documents every enum value where the enum is defined', () => {
    const undocumented: string[] = [];
    walk(doc, (node, pointer) => {
      if (!Array.isArray(node.enum) || pointer.includes('/oneOf/') || pointer.includes('/if/')) return;
      const text = String(node.description ?? '');
      for (const value of node.enum) if (!text.includes(`\`${value}\``)) undocumented.push(`${pointer}: ${value}`);
    });
    expect(undocumented).toEqual([]);
  });

  it('closes request objects and leaves response objects open', () => {
    for (const { operationId, op } of operationsOf(doc)) {
      const request = doc.components.schemas[op.requestBody.content['application/json'].schema.$ref.split('/').pop()];
      const response =
        doc.components.schemas[op.responses['200'].content['application/json'].schema.$ref.split('/').pop()];
      if (operationId !== 'notifyTokenStatus') expect(request.additionalProperties, operationId).toBe(false);
      expect(response.additionalProperties, operationId).toBeUndefined();
    }
  });

  it('marks every field that holds a secret as sensitive', () => {
    const sensitive = new Set<string>();
    walk(doc.components.schemas, (node) => {
      if (!node.properties) return;
      for (const [name, prop] of Object.entries<any>(node.properties)) {
        const target = prop?.$ref ? doc.components.schemas[prop.$ref.split('/').pop()] : prop;
        if (target?.['x-sensitive'] === true) sensitive.add(name);
      }
    });
    for (const name of [
      'cardNumber',
      'securityCode',
      'cardUniqueId',
      'cvv',
      'mpin',
      'encryptedCardData',
      'token',
      'TAVV',
      'cardToken',
      'svcSsoToken',
      'signature',
      'txnToken',
    ]) {
      expect(sensitive.has(name), name).toBe(true);
    }
  });
});
