// What every part of `verify` shares: the service under test, the run's bounds, one exchange as it
// was sent and answered, and a finding (a rule of the contract that the service broke, with the
// shortest sequence of exchanges that shows it). Nothing here sends or checks anything.
import type { OperationId } from '../../generated/operations.js';

/** The running service under test. */
export interface Target {
  /** `{base_url}`: tokenize, pre-auth, list subscriptions. */
  gatewayUrl: string;
  /** `{router_url}`: pay, modify order, create subscription. */
  routerUrl: string;
  /** The merchant key: signs requests, checks the answers' signatures and `txnInfo.checksumHash`. Never printed. */
  key: string;
  /** The merchant id. */
  mid: string;
  /** The clientId of the key (pre-auth needs one). */
  clientId: string;
  /** How long one answer may take (ms). */
  timeoutMs: number;
  /** The largest answer read (bytes). */
  maxAnswerBytes: number;
}

/** The kinds of check, as reports group them. */
export type CheckKind = 'answer' | 'refusal' | 'acceptance' | 'state' | 'notification';

/** One request as verify builds it, before it is signed and sent. */
export interface RequestSpec {
  operationId: Exclude<OperationId, 'notifyTokenStatus'>;
  /** Head fields; the head of the operation's family is built around them (these win), and signed where the operation is. */
  head?: Record<string, unknown> | undefined;
  /** Head fields to leave out of the built head (a request that breaks a rule of the head). */
  omitHead?: readonly string[] | undefined;
  body: unknown;
  /** The query (pay, modify order, create subscription: mid and orderId; tokenize: requestId). Default: from the body and head. */
  query?: Record<string, string> | undefined;
  /** Tokenize: the path's mid (default: the target's). */
  pathMid?: string | undefined;
  /** Pay, modify order: the order's transaction token; list subscriptions: the SSO token. */
  token?: string | undefined;
  /** Sign the body (default: where the operation is signed). `false` sends the head's own `signature`, if any. */
  sign?: boolean | undefined;
  /** Sign with this key instead of the target's (a request a service must refuse). */
  signWith?: string | undefined;
  /** What this request is for, in a few words (a step of a finding). */
  note: string;
}

/** One exchange, as sent and as answered; what a finding shows, masked when printed. */
export interface Exchange {
  operationId: Exclude<OperationId, 'notifyTokenStatus'>;
  note: string;
  url: string;
  requestHeaders: Record<string, string>;
  /** The envelope's exact text, as signed and sent. */
  requestText: string;
  /** The request's envelope, parsed back. */
  request: { head: Record<string, unknown>; body: unknown };
  started: number;
  durationMs: number;
  /** The HTTP status, or 0 when no answer came (`failure` says why). */
  status: number;
  answerHeaders: Record<string, string>;
  /** The answer's text (bounded), or '' when none came. */
  answerText: string;
  /** The answer parsed, when it was JSON. */
  answer?: unknown;
  /** Why no answer could be read: a time-out, a refused connection, an answer too large. */
  failure?: string | undefined;
}

/** A rule the service broke. */
export interface Finding {
  kind: CheckKind;
  /** The rule's name (`resultCodeTable`, `signature`, `paidTwice`, ...): docs/verify.md lists them. */
  rule: string;
  operationId: OperationId;
  /** Where, as a JSON Pointer into the answer (or the notification), when a field is at fault. */
  pointer?: string | undefined;
  /** What is wrong, in words; never a value of a secret. */
  message: string;
  /** The shortest sequence of exchanges that shows it, the last one at fault. */
  steps: Exchange[];
}

/** What a run may spend: requests and time. */
export interface Budget {
  readonly maxRequests: number;
  /** `Date.now()` after which nothing more is sent. */
  readonly deadline: number;
  sent: number;
}

/** Thrown by `send` when the run's budget is spent: the phase in progress ends there. */
export class BudgetSpent extends Error {
  constructor() {
    super('The run reached its bound (--max-requests or --time-limit).');
  }
}

export const budgetLeft = (budget: Budget): boolean => budget.sent < budget.maxRequests && Date.now() < budget.deadline;
