// Which of an operation's own result codes the service answers for a request that breaks a rule,
// where the description gives one (section 7). First matching rule wins. A code given here must
// be in the operation's table: the type of `resultCodeRules` makes the compiler check it.
import type { OperationId, ResultCodeOf } from '../types.js';

/** Which code answers an issue: the first rule whose pointer and rule match wins. */
export interface CodeRule<C extends string = string> {
  pointer?: RegExp;
  rule?: string[];
  code: C;
  /** One of the code's messages, for codes whose table gives several. */
  message?: string;
}

const TOKEN_SERVICE: CodeRule<ResultCodeOf<'tokenizeCard'> & ResultCodeOf<'notifyTokenStatus'>>[] = [
  { pointer: /^\/head$/, rule: ['required', 'type'], code: '1006' },
  { pointer: /^\/head\/signatureType$/, rule: ['required'], code: '1005' },
  { pointer: /^\/head\/signatureType$/, code: '1400' },
  { pointer: /^(\/head)?\/requestId$/, code: '406' },
  { pointer: /^\/mid$/, rule: ['requiredParameters'], code: '1004' },
  { pointer: /^\/body\/mid$/, rule: ['required'], code: '1004' },
  { pointer: /^\/body\/mid$/, code: '407' },
  { rule: ['required'], code: '410' },
  { code: '400' },
];

/** Per operation, which result code answers a request that breaks a rule (first match wins). */
export const resultCodeRules: { readonly [O in OperationId]?: readonly CodeRule<ResultCodeOf<O>>[] } = {
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

/** An operation's rules by the rule an issue breaks, each list in the table's order. */
export interface CodeRuleIndex {
  /** The rules for each rule a rule of the table names (with those that name none, in order). */
  readonly named: ReadonlyMap<string, readonly CodeRule[]>;
  /** The rules for any other rule: those that name none. */
  readonly other: readonly CodeRule[];
}

/** The index of an operation's rules by the rule an issue breaks (built once per operation). */
export function codeRuleIndex(operationId: string): CodeRuleIndex {
  const rules: readonly CodeRule[] = Object.hasOwn(resultCodeRules, operationId)
    ? (resultCodeRules[operationId as OperationId] ?? [])
    : [];
  const named = new Map<string, readonly CodeRule[]>();
  for (const name of new Set(rules.flatMap((r) => r.rule ?? [])))
    named.set(
      name,
      rules.filter((r) => !r.rule || r.rule.includes(name)),
    );
  return { named, other: rules.filter((r) => !r.rule) };
}

/** The first rule of an operation's table (its index) that matches an issue's pointer and rule, or undefined. */
export function codeRuleFor(index: CodeRuleIndex, pointer: string, rule: string): CodeRule | undefined {
  for (const r of index.named.get(rule) ?? index.other) if (!r.pointer || r.pointer.test(pointer)) return r;
  return undefined;
}

const indexes = new Map<string, CodeRuleIndex>();

/** The result code for one issue of a request, or undefined when the description gives none. */
export function resultCodeFor(
  operationId: string,
  issue: { pointer: string; rule: string; resultCode?: string | undefined },
): { code: string; message?: string } | undefined {
  if (issue.resultCode) return { code: issue.resultCode };
  let index = indexes.get(operationId);
  if (!index) {
    index = codeRuleIndex(operationId);
    // Only the operations of the table are kept: resultCodeFor is public, its callers name any.
    if (Object.hasOwn(resultCodeRules, operationId)) indexes.set(operationId, index);
  }
  const r = codeRuleFor(index, issue.pointer, issue.rule);
  return r && { code: r.code, ...(r.message ? { message: r.message } : {}) };
}
