// Named checks: the rules of the description that JSON Schema cannot say (comparisons between
// fields, query or path against body). Each operation lists the checks that apply to it in the
// contract (`x-named-checks`); the traceability record names them too.

/**
 * @typedef {import('./errors.js').ValidationIssue} ValidationIssue
 * @typedef {{ query?: Record<string, string | undefined>, path?: Record<string, string | undefined> }} RequestContext
 * @typedef {object} NamedCheck
 * @property {string} rule the rule, in words
 * @property {string} source where the description states it
 * @property {(payload: any, context: RequestContext, operation: { parameters: readonly { name: string, in: string, required: boolean }[] }) => ValidationIssue[]} run
 */

/** @type {ValidationIssue[]} */
const NONE = [];
const AMOUNT = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,2})?$/;
const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/**
 * An amount string in hundredths, or null when it is not a well-formed amount. At most 12 digits
 * before the point, so the integer stays exact in a double.
 */
function hundredths(/** @type {unknown} */ amount) {
  if (typeof amount !== 'string' || !AMOUNT.test(amount)) return null;
  // At most 12 digits and 2 decimals: the product is within 0.5 of the exact number of hundredths.
  return Math.round(Number(amount) * 100);
}

/** The subscription payment modes whose first payment may not exceed the renewal amount. */
const FIRST_PAYMENT_CAPPED = new Set(['UPI', 'BANK_MANDATE']);

function bodyOf(/** @type {any} */ payload) {
  return payload && typeof payload === 'object' && payload.body && typeof payload.body === 'object' ? payload.body : null;
}

/**
 * @param {'query' | 'path'} where @param {string} name @param {Record<string, string | undefined> | undefined} values
 * @param {any} body @param {string} code @param {string} words
 * @returns {ValidationIssue[]}
 */
function sameAsBody(where, name, values, body, code, words) {
  // A missing parameter is reported by the parameter check of validate(); nothing to compare then.
  if (!values || !body || typeof body[name] !== 'string' || values[name] === undefined || values[name] === body[name]) return NONE;
  return [{ in: 'body', pointer: `/body/${name}`, rule: where === 'query' ? 'queryMatchesBody' : 'tokenizeMidMatchesPath', message: `"${name}" in the body differs from "${name}" in the ${where}: ${words}`, resultCode: code }];
}

/** @type {Record<string, NamedCheck>} */
export const namedChecks = {
  requiredParameters: {
    rule: 'The query and path parameters of the operation are present (when the caller gives the query or the path).',
    source: 'sections 4.2 (mid in the path, requestId in the query), 4.5, 4.6 and 4.7 (mid and orderId in the query)',
    run(payload, context, operation) {
      /** @type {ValidationIssue[]} */
      let issues = NONE;
      for (const param of operation.parameters) {
        const values = param.in === 'query' ? context.query : param.in === 'path' ? context.path : undefined;
        if (!values || !param.required || (typeof values[param.name] === 'string' && values[param.name] !== '')) continue;
        if (issues === NONE) issues = [];
        issues.push({ in: /** @type {'query' | 'path'} */ (param.in), pointer: `/${param.name}`, rule: 'requiredParameters', message: `The ${param.in} parameter "${param.name}" is missing: it is mandatory.` });
      }
      return issues;
    },
  },
  queryMatchesBody: {
    rule: 'The query parameters mid and orderId equal body.mid and body.orderId.',
    source: 'sections 4.5 and 7.5, 7.7 (codes 2013, 2014)',
    run(payload, { query }) {
      const body = bodyOf(payload);
      const mid = sameAsBody('query', 'mid', query, body, '2013', 'both must be the same merchant id.');
      const orderId = sameAsBody('query', 'orderId', query, body, '2014', 'both must be the same order id.');
      return mid === NONE && orderId === NONE ? NONE : [...mid, ...orderId];
    },
  },
  tokenizeMidMatchesPath: {
    rule: 'When the tokenize body carries mid, it equals the mid in the path.',
    source: 'section 4.2 (mid in the path and in the field list); DECISIONS.md D-01',
    run(payload, { path }) {
      return sameAsBody('path', 'mid', path, bodyOf(payload), '407', 'both must be the same merchant id.');
    },
  },
  firstPaymentWithinRenewalAmount: {
    rule: 'For UPI and BANK_MANDATE subscriptions, txnAmount (the first payment) is not greater than renewalAmount (txnAmount when absent).',
    source: 'sections 4.7 (txnAmount) and 8 (first payment)',
    run(payload) {
      const body = bodyOf(payload);
      if (!body || !FIRST_PAYMENT_CAPPED.has(body.subscriptionPaymentMode)) return NONE;
      const first = hundredths(body.txnAmount?.value);
      const renewal = body.renewalAmount === undefined ? first : hundredths(body.renewalAmount);
      if (first === null || renewal === null || first <= renewal) return NONE;
      return [{ in: 'body', pointer: '/body/txnAmount/value', rule: 'firstPaymentWithinRenewalAmount', message: `"value" of the first payment (txnAmount) must not be greater than renewalAmount for ${body.subscriptionPaymentMode} subscriptions.`, resultCode: '1102' }];
    },
  },
  expiryAfterStart: {
    rule: 'subscriptionExpiryDate is after subscriptionStartDate.',
    source: 'section 4.7 (start: first collection; expiry: no collection after it); code 1102 Invalid subscription expiry date',
    run(payload) {
      const body = bodyOf(payload);
      const start = body?.subscriptionStartDate;
      const expiry = body?.subscriptionExpiryDate;
      if (typeof start !== 'string' || typeof expiry !== 'string' || !DATE.test(start) || !DATE.test(expiry) || expiry > start) return NONE;
      return [{ in: 'body', pointer: '/body/subscriptionExpiryDate', rule: 'expiryAfterStart', message: '"subscriptionExpiryDate" must be after "subscriptionStartDate".', resultCode: '1102' }];
    },
  },
};
