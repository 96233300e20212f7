// Which of an operation's own result codes the service answers for a request that breaks a rule,
// where the description gives one (section 7). First matching rule wins. A code given here must
// be in the operation's table: test/resultCodeRules.test.ts checks it against the catalog.

/**
 * @typedef {{ pointer?: RegExp, rule?: string[], in?: string, code: string, message?: string }} CodeRule
 */

const TOKEN_SERVICE = /** @type {CodeRule[]} */ ([
  { pointer: /^\/head$/, rule: ['required', 'type'], code: '1006' },
  { pointer: /^\/head\/signatureType$/, rule: ['required'], code: '1005' },
  { pointer: /^\/head\/signatureType$/, code: '1400' },
  { pointer: /^(\/head)?\/requestId$/, code: '406' },
  { pointer: /^\/mid$/, rule: ['requiredParameters'], code: '1004' },
  { pointer: /^\/body\/mid$/, rule: ['required'], code: '1004' },
  { pointer: /^\/body\/mid$/, code: '407' },
  { rule: ['required'], code: '410' },
  { code: '400' },
]);

/** @type {Record<string, CodeRule[]>} */
export const resultCodeRules = {
  notifyTokenStatus: [
    { pointer: /^\/body\/tokenInfo\/tokenIndexNumber$/, rule: ['pattern', 'minLength', 'type'], code: '405' },
    ...TOKEN_SERVICE,
  ],
  tokenizeCard: TOKEN_SERVICE,
  preAuthorize: [
    { pointer: /^\/head(\/signature)?$/, rule: ['required'], code: '804' },
    { pointer: /^\/body\/mid$/, code: '303' },
    { pointer: /^\/body\/orderId$/, rule: ['required'], code: '802' },
    { pointer: /^\/body\/orderId$/, rule: ['maxLength'], code: '332' },
    { pointer: /^\/body\/orderId$/, code: '334' },
    { pointer: /^\/body\/txnAmount$/, rule: ['required'], code: '803' },
    { pointer: /^\/body\/txnAmount$/, code: '240' },
    { pointer: /^\/body\/svcSsoToken$/, rule: ['required'], code: '801' },
    { pointer: /^\/body\/websiteName$/, rule: ['required'], code: '805' },
    { pointer: /^\/body\/userInfo(\/custId)?$/, rule: ['required'], code: '806' },
    { pointer: /^\/body\/cardPreAuthType$/, code: '703' },
  ],
  listSubscriptions: [{ code: '400' }],
  initiatePayment: [
    { pointer: /^(\/body)?$/, rule: ['type'], code: '2222' },
    { rule: ['required', 'requiredParameters'], code: '1007' },
    { pointer: /^\/body\/cardInfo(\/|$)/, code: '312' },
    { pointer: /^\/body\/paymentMode$/, code: '317' },
    { rule: ['enum', 'const', 'discriminator'], code: '1001' },
    { code: '1011' },
  ],
  modifyOrder: [
    { pointer: /^(\/body)?$/, rule: ['type'], code: '2222' },
    { pointer: /^\/head\/token$/, rule: ['minLength', 'type'], code: '1006' },
    { rule: ['required', 'requiredParameters'], code: '1012' },
    // Section 7.6 names currency among the fields of 1001 "Invalid <field>".
    { pointer: /^\/body\/txnAmount\/currency$/, code: '1001' },
    { pointer: /^\/body\/txnAmount(\/|$)/, code: '2007' },
    { rule: ['enum', 'const', 'discriminator'], code: '1001' },
    { code: '1011' },
  ],
  createSubscription: [
    { rule: ['required', 'requiredParameters'], code: '1007' },
    { pointer: /^\/body\/txnAmount(\/|$)/, code: '2007' },
    { pointer: /^\/body\/mid$/, code: '2006' },
    { pointer: /^\/body\/subscriptionMaxAmount$/, code: '4001', message: 'Invalid Max Amount' },
    { pointer: /^\/body\/subscriptionFrequency(Unit)?$/, code: '4001', message: 'Invalid Subscription Frequency' },
    { pointer: /^\/body\/requestType$/, code: '4001', message: 'Invalid Request Type' },
    { pointer: /^\/body\/subscriptionAmountType$/, code: '4001', message: 'Invalid Subscription Amount Type' },
    { pointer: /^\/body\/userInfo\/custId$/, code: '4001', message: 'Invalid Customer Id' },
    { pointer: /^\/body\/subscriptionExpiryDate$/, code: '1102', message: 'Invalid subscription expiry date' },
    { pointer: /^\/body\/subscriptionStartDate$/, code: '1102', message: 'Invalid subscription start date' },
    { pointer: /^\/body\/subscriptionGraceDays$/, code: '1102', message: 'Invalid grace days for subscription' },
    { pointer: /^\/body\/subscriptionPaymentMode$/, code: '1102', message: 'Unsupported subscription payment mode' },
    { pointer: /^\/body\/renewalAmount$/, code: '1102', message: 'Invalid renewal amount' },
    { pointer: /^\/body\/subscriptionEnableRetry$/, code: '1102', message: 'Invalid subscriptionEnableRetry value' },
    { pointer: /^\/body\/subscriptionRetryCount$/, code: '1102', message: 'Invalid subscription retry count value' },
  ],
};

/**
 * The result code for one issue of a request, or undefined when the description gives none.
 * @param {string} operationId @param {{ pointer: string, rule: string, resultCode?: string }} issue
 * @returns {{ code: string, message?: string } | undefined}
 */
export function resultCodeFor(operationId, issue) {
  if (issue.resultCode) return { code: issue.resultCode };
  for (const r of resultCodeRules[operationId] ?? []) {
    if (r.pointer && !r.pointer.test(issue.pointer)) continue;
    if (r.rule && !r.rule.includes(issue.rule)) continue;
    return { code: r.code, ...(r.message ? { message: r.message } : {}) };
  }
  return undefined;
}
