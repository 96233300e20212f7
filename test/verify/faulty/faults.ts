// The faults of the faulty implementations: each a bug a service team could ship, applied by the
// front (front.ts) to what the sandbox says. Answers a fault rewrites are signed again with the
// merchant key (and txnInfo.checksumHash made again) unless the fault is about the signature, so
// each breaks one rule: the one named `expectedRule`, as verify names it.
import {
  type Envelope,
  envelopeText,
  FRONT_KEY,
  isObject,
  type Json,
  objectAt,
  stringAt,
  WRONG_KEY,
  withChecksum,
} from './envelopes.js';
import type {
  Fault,
  FaultMemory,
  FrontAnswer,
  FrontExchange,
  FrontNotification,
  FrontRequest,
  RequestEdit,
} from './front.js';

/** Answers are checked in every phase: a fault of an answer is found by whichever phase meets it. */
const EVERY = ['requests', 'state'] as const;
const REQUESTS = ['requests'] as const;
const STATE = ['state'] as const;

/** The answer of an exchange with its envelope edited (signed again with `key`), or undefined when it has none. */
function edited(
  exchange: FrontExchange,
  edit: (envelope: Envelope) => boolean,
  key: string = FRONT_KEY,
): FrontAnswer | undefined {
  if (!exchange.answerEnvelope) return undefined;
  const envelope = structuredClone(exchange.answerEnvelope);
  if (!edit(envelope)) return undefined;
  return { ...exchange.answer, text: envelopeText(envelope, key) };
}

/** The request with its envelope edited (signed again with the merchant key where it was signed). */
function editedRequest(request: FrontRequest, edit: (envelope: Envelope) => boolean): RequestEdit | undefined {
  if (!request.envelope) return undefined;
  const envelope = structuredClone(request.envelope);
  if (!edit(envelope)) return undefined;
  return { text: envelopeText(envelope) };
}

/** The answer's result code (resultInfo or, for pre-auth, the body's statusCode). */
const codeOf = (exchange: FrontExchange): string | undefined =>
  stringAt(exchange.answerEnvelope?.body, 'resultInfo', 'resultCode') ??
  stringAt(exchange.answerEnvelope?.body, 'statusCode');

/** The order a request is about: the body's orderId, or the query's. */
const orderOf = (request: FrontRequest): string | undefined =>
  stringAt(request.envelope?.body, 'orderId') ?? request.url.searchParams.get('orderId') ?? undefined;

const setResult = (body: Json, resultCode: string, resultStatus: string, resultMsg: string): boolean => {
  body.resultInfo = { resultCode, resultStatus, resultMsg };
  return true;
};

/** A refusal in the operation's envelope: what a service answers when it wrongly finds a request invalid. */
function refusal(exchange: FrontExchange, code: string, status: string, message: string): FrontAnswer | undefined {
  return edited(exchange, (e) => {
    const kept = Object.fromEntries(Object.entries(e.body).filter(([k]) => k === 'orderId'));
    e.body = kept;
    if (exchange.operationId === 'preAuthorize')
      Object.assign(e.body, { statusCode: code, statusMessage: message, status });
    else setResult(e.body, code, status, message);
    return true;
  });
}

/** Sets a field; true, as an edit that changed something answers. */
const put = (holder: Json, name: string, value: unknown): boolean => {
  holder[name] = value;
  return true;
};

const count = (memory: FaultMemory, key: string): number => {
  const n = (memory.counts.get(key) ?? 0) + 1;
  memory.counts.set(key, n);
  return n;
};

/** Adds 1.00 to an amount of two decimals. */
const plusOne = (amount: string): string => (Math.round(Number(amount) * 100 + 100) / 100).toFixed(2);

// ---- Answers: what every answer must be, whatever was asked ----

const answerFaults: Fault[] = [
  {
    name: 'pay-without-resultMsg',
    kind: 'answer',
    expectedRule: 'required',
    what: 'pay answers resultInfo without its required resultMsg',
    phases: EVERY,
    answer: (x) =>
      x.operationId === 'initiatePayment'
        ? edited(x, (e) => delete objectAt(e.body, 'resultInfo').resultMsg)
        : undefined,
  },
  {
    name: 'pay-without-checksumHash',
    kind: 'answer',
    expectedRule: 'checksumHash',
    what: 'pay answers txnInfo without its checksumHash',
    phases: EVERY,
    answer: (x) =>
      x.operationId === 'initiatePayment' && isObject(x.answerEnvelope?.body.txnInfo)
        ? edited(x, (e) => delete objectAt(e.body, 'txnInfo').checksumHash)
        : undefined,
  },
  {
    name: 'preauth-pending-without-txnToken',
    kind: 'answer',
    expectedRule: 'required',
    what: 'pre-auth answers 02 (pending) without the txnToken that pays it',
    phases: EVERY,
    answer: (x) =>
      x.operationId === 'preAuthorize' && codeOf(x) === '02' ? edited(x, (e) => delete e.body.txnToken) : undefined,
  },
  {
    name: 'pay-success-without-outcome',
    kind: 'answer',
    expectedRule: 'payOutcome',
    what: 'pay answers 0000 with neither txnInfo, nor bankForm, nor deepLinkInfo',
    phases: EVERY,
    answer: (x) =>
      x.operationId === 'initiatePayment' && codeOf(x) === '0000'
        ? edited(x, (e) => {
            for (const k of ['txnInfo', 'bankForm', 'deepLinkInfo']) delete e.body[k];
            return true;
          })
        : undefined,
  },
  {
    name: 'modify-code-not-in-table',
    kind: 'answer',
    expectedRule: 'resultCodeTable',
    what: 'modify order answers success with code 0001, which is not in its table',
    phases: EVERY,
    answer: (x) =>
      x.operationId === 'modifyOrder' && codeOf(x) === '0000'
        ? edited(x, (e) => setResult(e.body, '0001', 'S', 'Success'))
        : undefined,
  },
  {
    name: 'list-status-not-with-code',
    kind: 'answer',
    expectedRule: 'resultStatus',
    what: 'list subscriptions answers 3006 with resultStatus FAILURE',
    phases: EVERY,
    answer: (x) =>
      x.operationId === 'listSubscriptions' && codeOf(x) === '3006'
        ? edited(x, (e) => setResult(e.body, '3006', 'FAILURE', 'SUCCESS'))
        : undefined,
  },
  {
    name: 'subscription-wrong-signature',
    kind: 'answer',
    expectedRule: 'signature',
    what: 'create subscription signs its answers with another key',
    phases: EVERY,
    answer: (x) => (x.operationId === 'createSubscription' ? edited(x, () => true, WRONG_KEY) : undefined),
  },
  {
    name: 'pay-wrong-checksumHash',
    kind: 'answer',
    expectedRule: 'checksumHash',
    what: "pay's txnInfo.checksumHash is made with another key",
    phases: EVERY,
    answer: (x) =>
      x.operationId === 'initiatePayment' && isObject(x.answerEnvelope?.body.txnInfo)
        ? edited(x, (e) => {
            e.body.txnInfo = withChecksum(objectAt(e.body, 'txnInfo'), WRONG_KEY);
            return true;
          })
        : undefined,
  },
  {
    name: 'preauth-http-500',
    kind: 'answer',
    expectedRule: 'http-status',
    what: 'pre-auth answers its (good) envelope with HTTP 500 when it refuses',
    phases: EVERY,
    answer: (x) =>
      x.operationId === 'preAuthorize' && codeOf(x) !== '01' && codeOf(x) !== '02'
        ? { ...x.answer, status: 500 }
        : undefined,
  },
  {
    name: 'tokenize-text-plain',
    kind: 'answer',
    expectedRule: 'contentType',
    what: 'tokenize answers its JSON as text/plain',
    phases: EVERY,
    answer: (x) =>
      x.operationId === 'tokenizeCard' ? { ...x.answer, contentType: 'text/plain; charset=utf-8' } : undefined,
  },
  {
    name: 'tokenize-requestId-not-echoed',
    kind: 'answer',
    expectedRule: 'echo',
    what: "tokenize answers a requestId of its own, not the request's",
    phases: EVERY,
    answer: (x) =>
      x.operationId === 'tokenizeCard'
        ? edited(x, (e) => {
            e.head.requestId = globalThis.crypto.randomUUID().replace(/-/g, '');
            return true;
          })
        : undefined,
  },
  {
    name: 'list-version-not-echoed',
    kind: 'answer',
    expectedRule: 'echo',
    what: 'list subscriptions answers version v1 whatever version the request said',
    phases: EVERY,
    answer: (x) =>
      x.operationId === 'listSubscriptions'
        ? edited(x, (e) => {
            e.head.version = stringAt(x.envelope?.head, 'version') === 'v1' ? 'v2' : 'v1';
            return true;
          })
        : undefined,
  },
  {
    name: 'pay-orderID-of-another-order',
    kind: 'answer',
    expectedRule: 'echo',
    what: "pay's txnInfo.orderID is the order paid before (a cache keyed by customer), checksummed",
    phases: EVERY,
    answer: (x, memory) => {
      const orderID = stringAt(x.answerEnvelope?.body, 'txnInfo', 'orderID');
      if (x.operationId !== 'initiatePayment' || orderID === undefined) return undefined;
      const before = memory.values.get('lastOrderID');
      memory.values.set('lastOrderID', orderID);
      return edited(x, (e) => {
        e.body.txnInfo = withChecksum({
          ...objectAt(e.body, 'txnInfo'),
          orderID: before && before !== orderID ? before : `${orderID.slice(0, 49)}X`,
        });
        return true;
      });
    },
  },
];

// ---- Refusals: a request that breaks a rule is carried out ----

const refusalFaults: Fault[] = [
  {
    name: 'pay-query-body-mismatch-accepted',
    kind: 'refusal',
    expectedRule: 'invalidRequestAccepted',
    what: "pay reads mid and orderId from the body and ignores the query's (queryMatchesBody)",
    phases: REQUESTS,
    request(r) {
      if (r.operationId !== 'initiatePayment' || !r.envelope) return undefined;
      const search = new URLSearchParams(r.url.searchParams);
      for (const name of ['mid', 'orderId']) {
        const value = stringAt(r.envelope.body, name);
        if (value !== undefined) search.set(name, value);
      }
      return { search: `?${search}` };
    },
  },
  {
    name: 'preauth-any-signature-accepted',
    kind: 'refusal',
    expectedRule: 'badCredentialAccepted',
    what: "pre-auth does not check the request's signature",
    phases: REQUESTS,
    request: (r) =>
      r.operationId === 'preAuthorize' ? editedRequest(r, (e) => put(e.head, 'signature', '')) : undefined,
  },
  {
    name: 'subscription-any-signature-accepted',
    kind: 'refusal',
    expectedRule: 'badCredentialAccepted',
    what: "create subscription does not check the request's signature",
    phases: REQUESTS,
    request: (r) =>
      r.operationId === 'createSubscription' ? editedRequest(r, (e) => put(e.head, 'signature', '')) : undefined,
  },
  {
    name: 'preauth-long-orderId-truncated',
    kind: 'refusal',
    expectedRule: 'invalidRequestAccepted',
    what: 'pre-auth cuts an orderId longer than 50 characters to 50 instead of refusing it (332)',
    phases: REQUESTS,
    request: (r) =>
      r.operationId === 'preAuthorize' && (stringAt(r.envelope?.body, 'orderId')?.length ?? 0) > 50
        ? editedRequest(r, (e) => put(e.body, 'orderId', String(e.body.orderId).slice(0, 50)))
        : undefined,
    // It echoes the orderId it was sent, so that only the acceptance is at fault.
    answer(x) {
      const sent = stringAt(x.envelope?.body, 'orderId');
      return x.operationId === 'preAuthorize' && sent !== undefined && sent.length > 50
        ? edited(x, (e) => put(e.body, 'orderId', sent))
        : undefined;
    },
  },
  {
    name: 'subscription-websiteName-defaulted',
    kind: 'refusal',
    expectedRule: 'invalidRequestAccepted',
    what: 'create subscription takes a default websiteName when the request has none (1007 expected)',
    phases: REQUESTS,
    request: (r) =>
      r.operationId === 'createSubscription' && r.envelope && r.envelope.body.websiteName === undefined
        ? editedRequest(r, (e) => put(e.body, 'websiteName', 'WEBSTAGING'))
        : undefined,
  },
  {
    name: 'pay-paymentMode-any-case',
    kind: 'refusal',
    expectedRule: 'invalidRequestAccepted',
    what: 'pay reads paymentMode and requestType in any case, and an unknown requestType as PAYMENT',
    phases: REQUESTS,
    request: (r) =>
      r.operationId === 'initiatePayment'
        ? editedRequest(r, (e) => {
            const { paymentMode, requestType } = e.body;
            let changed = false;
            if (typeof paymentMode === 'string' && paymentMode !== paymentMode.toUpperCase()) {
              e.body.paymentMode = paymentMode.toUpperCase();
              changed = true;
            }
            if (
              typeof requestType === 'string' &&
              !['PAYMENT', 'NATIVE_SUBSCRIPTION', 'SUBSCRIPTION'].includes(requestType)
            ) {
              e.body.requestType = 'PAYMENT';
              changed = true;
            }
            return changed;
          })
        : undefined,
  },
];

// ---- Acceptance: a valid request is refused ----

const acceptanceFaults: Fault[] = [
  {
    name: 'pay-refuses-txnNote',
    kind: 'acceptance',
    expectedRule: 'validRequestRefused',
    what: 'pay refuses a request that carries the optional txnNote (1001)',
    phases: REQUESTS,
    answer: (x) =>
      x.operationId === 'initiatePayment' && x.envelope?.body.txnNote !== undefined
        ? refusal(x, '1001', 'F', 'Request parameters are not valid')
        : undefined,
  },
  {
    name: 'preauth-refuses-50-character-orderId',
    kind: 'acceptance',
    expectedRule: 'validRequestRefused',
    what: 'pre-auth refuses an orderId of exactly 50 characters, the longest allowed (332)',
    phases: REQUESTS,
    answer: (x) =>
      x.operationId === 'preAuthorize' && stringAt(x.envelope?.body, 'orderId')?.length === 50
        ? refusal(x, '332', 'TXN_FAILURE', 'Invalid order id')
        : undefined,
  },
  {
    name: 'list-refuses-status-filter',
    kind: 'acceptance',
    expectedRule: 'validRequestRefused',
    what: 'list subscriptions refuses the optional subsStatusFilter (400)',
    phases: REQUESTS,
    answer: (x) =>
      x.operationId === 'listSubscriptions' && x.envelope?.body.subsStatusFilter !== undefined
        ? refusal(x, '400', 'FAILURE', 'Bad request')
        : undefined,
  },
  {
    name: 'tokenize-refuses-authRefId',
    kind: 'acceptance',
    expectedRule: 'validRequestRefused',
    what: 'tokenize refuses a request that carries the optional authRefId (400)',
    phases: REQUESTS,
    answer: (x) =>
      x.operationId === 'tokenizeCard' && x.envelope?.body.authRefId !== undefined
        ? refusal(x, '400', 'FAILED', 'Bad request')
        : undefined,
  },
];

// ---- State across calls ----

const success = (x: FrontExchange): FrontAnswer | undefined =>
  edited(x, (e) => setResult(e.body, '0000', 'S', 'Success'));

const stateFaults: Fault[] = [
  {
    name: 'paid-twice',
    kind: 'state',
    expectedRule: 'paidTwice',
    what: 'pay of an order paid or in process answers its first success again (201 or 324 expected)',
    phases: STATE,
    answer(x, memory) {
      const orderId = orderOf(x);
      if (x.operationId !== 'initiatePayment' || orderId === undefined) return undefined;
      const code = codeOf(x);
      if (code === '0000') memory.answers.set(orderId, x.answer);
      return code === '201' || code === '324' ? memory.answers.get(orderId) : undefined;
    },
  },
  {
    name: 'modified-while-payment-in-process',
    kind: 'state',
    expectedRule: 'modifiedAfterPayment',
    what: 'modify order answers success while a payment of the order is in process (1111 expected)',
    phases: STATE,
    answer(x, memory) {
      const orderId = orderOf(x);
      if (orderId === undefined) return undefined;
      if (x.operationId === 'initiatePayment' && isObject(x.answerEnvelope?.body.bankForm)) memory.marks.add(orderId);
      return x.operationId === 'modifyOrder' && codeOf(x) === '1111' && memory.marks.has(orderId)
        ? success(x)
        : undefined;
    },
  },
  {
    name: 'modified-once-paid',
    kind: 'state',
    expectedRule: 'modifiedAfterPayment',
    what: 'modify order answers success for an order already paid (201 expected)',
    phases: STATE,
    answer: (x) => (x.operationId === 'modifyOrder' && codeOf(x) === '201' ? success(x) : undefined),
  },
  {
    name: 'modified-once-closed',
    kind: 'state',
    expectedRule: 'closedOrderAccepted',
    what: 'modify order answers success for an order that was closed (410 expected)',
    phases: STATE,
    answer: (x) => (x.operationId === 'modifyOrder' && codeOf(x) === '410' ? success(x) : undefined),
  },
  {
    name: 'block-of-another-amount',
    kind: 'state',
    expectedRule: 'amountNotConserved',
    what: 'pre-auth answers a blockedAmount one rupee above the amount asked',
    phases: STATE,
    answer: (x) =>
      x.operationId === 'preAuthorize' && codeOf(x) === '01'
        ? edited(x, (e) => {
            const held = e.body.blockedAmount;
            if (typeof held !== 'string') return false;
            e.body.blockedAmount = (Number(held) + 1).toFixed(2);
            return true;
          })
        : undefined,
  },
  {
    name: 'sixth-modification-accepted',
    kind: 'state',
    expectedRule: 'modificationLimit',
    what: 'modify order accepts a sixth modification (1111 expected)',
    phases: STATE,
    answer(x, memory) {
      const orderId = orderOf(x);
      if (orderId === undefined) return undefined;
      if (x.operationId === 'initiatePayment') memory.marks.add(orderId);
      if (x.operationId !== 'modifyOrder') return undefined;
      const n = count(memory, orderId);
      return codeOf(x) === '1111' && n > 5 && !memory.marks.has(orderId) ? success(x) : undefined;
    },
  },
  {
    name: 'duplicate-block-accepted',
    kind: 'state',
    expectedRule: 'duplicateBlockAccepted',
    what: 'a second pre-auth of an order answers the first block again (SR_1004 expected)',
    phases: STATE,
    answer(x, memory) {
      const orderId = orderOf(x);
      if (x.operationId !== 'preAuthorize' || orderId === undefined) return undefined;
      const code = codeOf(x);
      if (code === '01' || code === '02') memory.answers.set(orderId, x.answer);
      return code === 'SR_1004' ? memory.answers.get(orderId) : undefined;
    },
  },
  {
    name: 'amount-not-conserved',
    kind: 'state',
    expectedRule: 'amountNotConserved',
    what: "pay's txnInfo says 1.00 more was paid than the order asked (checksummed)",
    phases: STATE,
    answer: (x) => {
      const amount = stringAt(x.answerEnvelope?.body, 'txnInfo', 'txnAmount');
      if (x.operationId !== 'initiatePayment' || amount === undefined) return undefined;
      return edited(x, (e) => {
        e.body.txnInfo = withChecksum({ ...objectAt(e.body, 'txnInfo'), txnAmount: plusOne(amount) });
        return true;
      });
    },
  },
  {
    name: 'first-payment-above-renewal',
    kind: 'state',
    expectedRule: 'renewalAmount',
    what: 'create subscription takes a first payment above the renewal amount (2007 expected), charging the renewal amount instead',
    phases: STATE,
    request(r) {
      const renewal = stringAt(r.envelope?.body, 'renewalAmount');
      const first = stringAt(r.envelope?.body, 'txnAmount', 'value');
      if (
        r.operationId !== 'createSubscription' ||
        renewal === undefined ||
        first === undefined ||
        !(Number(first) > Number(renewal))
      )
        return undefined;
      return editedRequest(r, (e) => {
        objectAt(e.body, 'txnAmount').value = renewal;
        return true;
      });
    },
  },
  {
    name: 'subscription-missing-from-list',
    kind: 'state',
    expectedRule: 'subscriptionList',
    what: "the subscription list leaves out the customer's newest subscription",
    phases: STATE,
    answer: (x) =>
      x.operationId === 'listSubscriptions' && codeOf(x) === '3006' ? edited(x, (e) => dropNewest(e.body)) : undefined,
  },
  {
    name: 'subscription-extra-in-list',
    kind: 'state',
    expectedRule: 'subscriptionList',
    what: 'the subscription list holds a subscription the customer never created',
    phases: STATE,
    answer: (x) =>
      x.operationId === 'listSubscriptions' && codeOf(x) === '3006' ? edited(x, (e) => addStranger(e.body)) : undefined,
  },
];

/** The list's entries (`subscriptionDetails.subscriptions`). */
const entriesOf = (body: Json): Json[] | undefined => {
  const details = body.subscriptionDetails;
  const list = isObject(details) ? details.subscriptions : undefined;
  return Array.isArray(list) && list.every(isObject) ? list : undefined;
};

/** Leaves out the last entry; with none left, the answer the description gives for an empty list. */
function dropNewest(body: Json): boolean {
  const entries = entriesOf(body);
  if (!entries || entries.length === 0) return false;
  entries.pop();
  if (entries.length === 0) {
    delete body.subscriptionDetails;
    return setResult(body, '200', 'SUCCESS', 'NO CONTENT FOUND');
  }
  return true;
}

/** Adds a copy of the first entry under another subscriptionId. */
function addStranger(body: Json): boolean {
  const entries = entriesOf(body);
  const first = entries?.[0];
  if (!entries || !first) return false;
  entries.push({ ...first, subscriptionId: `SUB${String(Date.now()).slice(-12)}7` });
  return true;
}

// ---- Token notifications ----

/** A notification edited and signed again (with `key`), or undefined when it is not one. */
function notificationEdited(
  n: FrontNotification,
  edit: (envelope: Envelope) => void,
  key: string = FRONT_KEY,
): string[] | undefined {
  if (!n.envelope) return undefined;
  const envelope = structuredClone(n.envelope);
  edit(envelope);
  return [envelopeText(envelope, key)];
}

const notificationFaults: Fault[] = [
  {
    name: 'notification-wrong-signature',
    kind: 'notification',
    expectedRule: 'notificationSignature',
    what: 'token notifications are signed with another key',
    phases: STATE,
    notification: (n) => notificationEdited(n, () => undefined, WRONG_KEY),
  },
  {
    name: 'notification-without-tokenStatus',
    kind: 'notification',
    expectedRule: 'notificationSchema',
    what: 'token notifications leave out tokenInfo.tokenStatus',
    phases: STATE,
    notification: (n) => notificationEdited(n, (e) => delete objectAt(e.body, 'tokenInfo').tokenStatus),
  },
  {
    name: 'notification-wrong-mid',
    kind: 'notification',
    expectedRule: 'notificationMid',
    what: "token notifications carry another merchant's mid",
    phases: STATE,
    notification: (n) => notificationEdited(n, (e) => put(e.body, 'mid', 'MERCHANT0002')),
  },
  {
    name: 'notification-dead-then-active',
    kind: 'notification',
    expectedRule: 'tokenTransition',
    what: 'a token notified DEAD is notified ACTIVE again (a transition the state table forbids)',
    phases: STATE,
    notification(n) {
      if (stringAt(n.envelope?.body, 'tokenInfo', 'tokenStatus') !== 'DEAD') return undefined;
      const active = notificationEdited(n, (e) => {
        objectAt(e.body, 'tokenInfo').tokenStatus = 'ACTIVE';
        e.head.requestId = globalThis.crypto.randomUUID().replace(/-/g, '');
      });
      return [n.text, ...(active ?? [])];
    },
  },
  {
    name: 'notification-never-sent',
    kind: 'notification',
    expectedRule: 'notificationMissing',
    what: 'token status changes are never notified',
    phases: STATE,
    notification: () => [],
  },
];

export const FAULTS: readonly Fault[] = [
  ...answerFaults,
  ...refusalFaults,
  ...acceptanceFaults,
  ...stateFaults,
  ...notificationFaults,
];
