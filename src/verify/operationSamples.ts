// Each operation of the contract as the generator sees it (its request and answer schemas, its
// parameters, its named checks), and valid samples of it: a payload and, for a request, its query
// and path parameters, the named checks respected. Mutations of a sample live in mutations.ts.
import fc from 'fast-check';
import { type OperationId, operations } from '../../generated/operations.js';
import {
  componentParameter,
  conjuncts,
  isJsonObject,
  type JsonObject,
  type Schema,
  type SchemaObject,
} from './schema.js';
import { valuesOf } from './values.js';

export type Direction = 'request' | 'response';

/** One payload with the query and path parameters of its request. */
export interface Sample {
  payload: unknown;
  query?: Record<string, string>;
  path?: Record<string, string>;
}

/** A single change that breaks one rule, and where a validator must report it. */
export interface Mutation {
  /** The kind of rule broken. */
  kind:
    | 'type'
    | 'required'
    | 'pattern'
    | 'format'
    | 'maxLength'
    | 'minLength'
    | 'enum'
    | 'unknownField'
    | 'propertyNames'
    | 'conditional'
    | 'namedCheck'
    | 'parameter';
  /** Where the broken rule lives in the contract (JSON Pointers into the bundled document; several when schemas that apply together state it), or the named check. */
  rules: string[];
  /** The part of the request the change is in. */
  in: 'body' | 'query' | 'path';
  /** JSON Pointer of the field at fault (a key that is not a field name of the contract is shown as `<unknown key>`). */
  pointer: string;
  /** The change: `set` a value at `at`, or `delete` the member at `at` (`$query`/`$path` first for a parameter). */
  at: string[];
  action: 'set' | 'delete';
  value?: unknown;
}

export interface OperationView {
  operationId: OperationId;
  schema: (direction: Direction) => SchemaObject;
  parameters: { name: string; in: 'query' | 'path'; required: boolean; schema: Schema }[];
  namedChecks: string[];
}

export const operationViews: OperationView[] = operations.map((op) => ({
  operationId: op.operationId,
  schema: (direction: Direction) => ({ $ref: `#/components/schemas/${op[direction].schema}` }),
  parameters: op.parameters.map((p) => {
    const { name, required, schema } = componentParameter(p.component);
    return { name, in: p.in === 'path' ? 'path' : 'query', required, schema };
  }),
  namedChecks: [...op.namedChecks],
}));

/** The view of one operation. */
export function operationView(operationId: OperationId): OperationView {
  const view = operationViews.find((v) => v.operationId === operationId);
  if (!view) throw new Error(`No operation ${operationId}`);
  return view;
}

const AMOUNT = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,2})?$/;
const hundredths = (a: unknown): number | null =>
  typeof a === 'string' && AMOUNT.test(a) ? Math.round(Number(a) * 100) : null;
const bodyOf = (s: Sample): JsonObject | undefined =>
  isJsonObject(s.payload) && isJsonObject(s.payload.body) ? s.payload.body : undefined;
const amountOf = (body: JsonObject): JsonObject | undefined =>
  isJsonObject(body.txnAmount) ? body.txnAmount : undefined;
const INSTALMENT_MODES = ['UPI', 'BANK_MANDATE'];

/**
 * How a generated request is made to respect each named check of src/validation/checks.ts (`fix`,
 * false when it cannot) and how one is made to break it (`break`). A named check of the contract
 * missing here stops the generator, so a new check cannot go unexercised.
 */
export const namedCheckRules: Record<string, { fix: (s: Sample) => boolean; break: (s: Sample) => Mutation[] }> = {
  requiredParameters: {
    fix: () => true, // the parameters are generated from their schemas
    break: (s) =>
      (['query', 'path'] as const).flatMap((part) =>
        Object.keys(s[part] ?? {}).map(
          (name): Mutation => ({
            kind: 'parameter',
            rules: ['requiredParameters'],
            in: part,
            pointer: `/${name}`,
            at: [`$${part}`, name],
            action: 'delete',
          }),
        ),
      ),
  },
  queryMatchesBody: {
    fix: (s) => {
      const body = bodyOf(s);
      for (const name of ['mid', 'orderId']) {
        const value = body?.[name];
        if (s.query && typeof value === 'string') s.query[name] = value;
      }
      return true;
    },
    break: (s) => {
      const body = bodyOf(s);
      return ['mid', 'orderId'].flatMap((name): Mutation[] => {
        const value = body?.[name];
        if (typeof value !== 'string' || s.query?.[name] === undefined) return [];
        return [
          {
            kind: 'namedCheck',
            rules: ['queryMatchesBody'],
            in: 'body',
            pointer: `/body/${name}`,
            at: ['$query', name],
            action: 'set',
            value: `${value}-other`,
          },
        ];
      });
    },
  },
  tokenizeMidMatchesPath: {
    fix: (s) => {
      const mid = bodyOf(s)?.mid;
      if (s.path && typeof mid === 'string') s.path.mid = mid;
      return true;
    },
    break: (s) => {
      const mid = bodyOf(s)?.mid;
      if (typeof mid !== 'string' || !s.path) return [];
      return [
        {
          kind: 'namedCheck',
          rules: ['tokenizeMidMatchesPath'],
          in: 'body',
          pointer: '/body/mid',
          at: ['$path', 'mid'],
          action: 'set',
          value: `${mid}-other`,
        },
      ];
    },
  },
  firstPaymentWithinRenewalAmount: {
    fix: (s) => {
      const body = bodyOf(s);
      if (!body || !INSTALMENT_MODES.includes(String(body.subscriptionPaymentMode)) || body.renewalAmount === undefined)
        return true;
      const amount = amountOf(body);
      const first = hundredths(amount?.value);
      const renewal = hundredths(body.renewalAmount);
      if (amount && first !== null && renewal !== null && first > renewal)
        [amount.value, body.renewalAmount] = [body.renewalAmount, amount.value];
      return true;
    },
    break: (s) => {
      const body = bodyOf(s);
      if (
        !body ||
        !INSTALMENT_MODES.includes(String(body.subscriptionPaymentMode)) ||
        body.renewalAmount === undefined ||
        !amountOf(body)
      )
        return [];
      const value = `${(hundredths(body.renewalAmount) ?? 0) / 100 + 1}`;
      return [
        {
          kind: 'namedCheck',
          rules: ['firstPaymentWithinRenewalAmount'],
          in: 'body',
          pointer: '/body/txnAmount/value',
          at: ['body', 'txnAmount', 'value'],
          action: 'set',
          value,
        },
      ];
    },
  },
  expiryAfterStart: {
    fix: (s) => {
      const body = bodyOf(s);
      const start = body?.subscriptionStartDate;
      const expiry = body?.subscriptionExpiryDate;
      if (!body || typeof start !== 'string' || typeof expiry !== 'string') return true;
      if (expiry === start) return false;
      if (expiry < start) [body.subscriptionStartDate, body.subscriptionExpiryDate] = [expiry, start];
      return true;
    },
    break: (s) => {
      const start = bodyOf(s)?.subscriptionStartDate;
      if (typeof start !== 'string') return [];
      return [
        {
          kind: 'namedCheck',
          rules: ['expiryAfterStart'],
          in: 'body',
          pointer: '/body/subscriptionExpiryDate',
          at: ['body', 'subscriptionExpiryDate'],
          action: 'set',
          value: start,
        },
      ];
    },
  },
};

/** Valid samples of one operation and direction: the payload, and for requests its parameters. */
export function sampleArbitrary(view: OperationView, direction: Direction): fc.Arbitrary<Sample> {
  const payload = valuesOf(conjuncts(view.schema(direction)));
  if (direction === 'response') return payload.map((p) => ({ payload: structuredClone(p) }));
  const params: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of view.parameters) params[`${p.in}:${p.name}`] = valuesOf(conjuncts(p.schema));
  for (const name of view.namedChecks)
    if (!namedCheckRules[name])
      throw new Error(`No generator rule for the named check ${name}: add it to namedCheckRules.`);
  return fc
    .tuple(payload, fc.record(params, { requiredKeys: Object.keys(params) }))
    .map(([p, values]) => {
      const sample: Sample = { payload: structuredClone(p) };
      for (const param of view.parameters) {
        const part = sample[param.in] ?? {};
        sample[param.in] = part;
        part[param.name] = String(values[`${param.in}:${param.name}`]);
      }
      return sample;
    })
    .filter((sample) => view.namedChecks.every((name) => namedCheckRules[name]?.fix(sample) ?? false));
}
