// Named checks: the rules of the description that JSON Schema cannot say (comparisons between
// fields, query or path against body). Each operation lists the checks that apply to it in the
// contract (`x-named-checks`); their words come from the traceability record, through the
// generated operation index.
import { type NamedCheckName, namedCheckRules } from '../../generated/operations.js';
import { amountInPaise } from './amount.js';
import type { ValidationIssue } from './errors.js';

/** The query and path parameters of a request, for the checks that compare them with the body. */
export interface RequestContext {
  query?: Record<string, string | undefined> | undefined;
  path?: Record<string, string | undefined> | undefined;
  /** `false`: missing parameters are not reported (the payload alone is judged). */
  parameters?: boolean | undefined;
}

/** A rule JSON Schema cannot say, with its words and its check. */
export interface NamedCheck {
  /** The rule, in words. */
  readonly rule: string;
  /** Where the interface description states it. */
  readonly source: string;
  run(
    payload: unknown,
    context: RequestContext,
    operation: {
      readonly parameters: readonly { readonly name: string; readonly in: string; readonly required: boolean }[];
    },
  ): ValidationIssue[];
}

const NONE: ValidationIssue[] = [];

/** Whether a string has the shape of a date, `YYYY-MM-DD` (its format says whether it is a real day). */
const DATE_SHAPED = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/**
 * The subscription payment modes whose first payment may not exceed the renewal amount. Compared
 * one by one: a set would hash the payload's string at every call (a string a payload brings has
 * no hash yet), several times the cost of two comparisons (bench/validation.mjs: a valid
 * createSubscription request in at most 0.5x JSON.parse of its text).
 */
const firstPaymentCapped = (mode: unknown): boolean => mode === 'UPI' || mode === 'BANK_MANDATE';

type Fields = Record<string, unknown>;

function bodyOf(payload: unknown): Fields | null {
  const body = payload && typeof payload === 'object' ? (payload as Fields).body : undefined;
  return body && typeof body === 'object' ? (body as Fields) : null;
}

function sameAsBody(
  where: 'query' | 'path',
  name: string,
  values: Record<string, string | undefined> | undefined,
  body: Fields | null,
  code: string,
  words: string,
): ValidationIssue[] {
  // A missing parameter is reported by the parameter check of validate(); nothing to compare then.
  if (!values || !body || typeof body[name] !== 'string' || values[name] === undefined || values[name] === body[name])
    return NONE;
  return [
    {
      in: 'body',
      pointer: `/body/${name}`,
      rule: where === 'query' ? 'queryMatchesBody' : 'tokenizeMidMatchesPath',
      message: `"${name}" in the body differs from "${name}" in the ${where}: ${words}`,
      resultCode: code,
    },
  ];
}

/** The rules JSON Schema cannot say, by name. */
export const namedChecks: Readonly<Record<NamedCheckName, NamedCheck>> = {
  requiredParameters: {
    ...namedCheckRules.requiredParameters,
    run(_payload, context, operation) {
      // Not given is missing (docs/decisions.md, D-48): a request without its URL's parameters cannot be sent.
      if (context.parameters === false) return NONE;
      let issues = NONE;
      for (const param of operation.parameters) {
        if (!param.required || (param.in !== 'query' && param.in !== 'path')) continue;
        const value = (param.in === 'query' ? context.query : context.path)?.[param.name];
        if (typeof value === 'string' && value !== '') continue;
        if (issues === NONE) issues = [];
        issues.push({
          in: param.in as 'query' | 'path',
          pointer: `/${param.name}`,
          rule: 'requiredParameters',
          message: `The ${param.in} parameter "${param.name}" is missing: it is mandatory.`,
        });
      }
      return issues;
    },
  },
  queryMatchesBody: {
    ...namedCheckRules.queryMatchesBody,
    run(payload, { query }) {
      const body = bodyOf(payload);
      // The usual case first: both given and equal.
      if (query && body && query.mid === body.mid && query.orderId === body.orderId) return NONE;
      const mid = sameAsBody('query', 'mid', query, body, '2013', 'both must be the same merchant id.');
      const orderId = sameAsBody('query', 'orderId', query, body, '2014', 'both must be the same order id.');
      return mid === NONE && orderId === NONE ? NONE : [...mid, ...orderId];
    },
  },
  tokenizeMidMatchesPath: {
    ...namedCheckRules.tokenizeMidMatchesPath,
    run(payload, { path }) {
      return sameAsBody('path', 'mid', path, bodyOf(payload), '407', 'both must be the same merchant id.');
    },
  },
  firstPaymentWithinRenewalAmount: {
    ...namedCheckRules.firstPaymentWithinRenewalAmount,
    run(payload) {
      const body = bodyOf(payload);
      if (!body || !firstPaymentCapped(body.subscriptionPaymentMode)) return NONE;
      const txnAmount = body.txnAmount as Fields | undefined;
      const first = amountInPaise(txnAmount?.value);
      const renewal = body.renewalAmount === undefined ? first : amountInPaise(body.renewalAmount);
      if (first === null || renewal === null || first <= renewal) return NONE;
      return [
        {
          in: 'body',
          pointer: '/body/txnAmount/value',
          rule: 'firstPaymentWithinRenewalAmount',
          message: `"value" of the first payment (txnAmount) must not be greater than renewalAmount for ${body.subscriptionPaymentMode} subscriptions.`,
          // 7.7's row for the field that is wrong (DECISIONS.md, D-56).
          resultCode: '2007',
        },
      ];
    },
  },
  expiryAfterStart: {
    ...namedCheckRules.expiryAfterStart,
    run(payload) {
      const body = bodyOf(payload);
      const start = body?.subscriptionStartDate;
      const expiry = body?.subscriptionExpiryDate;
      // Later is the usual case, whatever the shapes; only two well-formed dates can be out of order.
      if (
        typeof start !== 'string' ||
        typeof expiry !== 'string' ||
        expiry > start ||
        !DATE_SHAPED.test(start) ||
        !DATE_SHAPED.test(expiry)
      )
        return NONE;
      return [
        {
          in: 'body',
          pointer: '/body/subscriptionExpiryDate',
          rule: 'expiryAfterStart',
          message: '"subscriptionExpiryDate" must be after "subscriptionStartDate".',
          resultCode: '1102',
        },
      ];
    },
  },
};
