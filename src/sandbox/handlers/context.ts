// What every operation handler receives and returns. A handler gets a request that is already
// valid against the contract, typed as the contract says, and answers with a result code of its
// operation's table, the other body fields, and a note for integrators (sent in the x-sandbox-note
// header, never in the body).
import type { ResultCodeCatalog } from '../../../generated/resultCodes.js';
import type { BodyOf, HeadOf, PathOf, QueryOf, ResponseOf, ResultCodeOf } from '../../types.js';
import type { CardKeyPair } from '../cardKeys.js';
import type { CardTokens } from '../cardTokens.js';
import type { ParametersOf } from '../checkRequest.js';
import type { Clock } from '../clock.js';
import type { SandboxConfig } from '../config.js';
import type { Instruments } from '../instruments.js';
import type { SandboxOperation } from '../operationIndex.js';
import type { Orders } from '../orders.js';
import type { Payments } from '../payments/index.js';
import type { Store } from '../store.js';

export type { SandboxOperation } from '../operationIndex.js';

export interface HandlerContext {
  readonly config: SandboxConfig;
  readonly store: Store;
  readonly clock: Clock;
  readonly instruments: Instruments;
  readonly orders: Orders;
  readonly payments: Payments;
  readonly cardTokens: CardTokens;
  readonly cardKey: CardKeyPair;
}

export interface SandboxRequest<O extends SandboxOperation> {
  readonly operationId: O;
  readonly head: HeadOf<O>;
  readonly body: BodyOf<O>;
  /** The exact text of the body as sent (what a signature covers). */
  readonly rawBody: string | undefined;
  readonly query: ParametersOf<QueryOf<O>>;
  readonly path: ParametersOf<PathOf<O>>;
}

/**
 * The body fields that carry an operation's result, as its catalog entry places them: `resultInfo`
 * for most, the result's own fields (statusCode, status, statusMessage) for pre-auth.
 */
export type ResultFieldsOf<O extends SandboxOperation> = ResultCodeCatalog[O]['location'] extends '/body/resultInfo'
  ? 'resultInfo'
  : ResultCodeCatalog[O]['fields'][keyof ResultCodeCatalog[O]['fields']];

type OtherFields<O extends SandboxOperation> = Omit<ResponseOf<O>['body'], Extract<ResultFieldsOf<O>, string>>;

/** The other fields of an answer's body: what a handler adds to the result (none for modify order). */
export type AnswerFields<O extends SandboxOperation> = [keyof OtherFields<O>] extends [never]
  ? Readonly<Record<string, never>>
  : OtherFields<O>;

export interface HandlerResult<O extends SandboxOperation> {
  /** A result code of the operation's table. */
  code: ResultCodeOf<O>;
  /** One of the table's messages, when the code has several (or a text the sandbox builds for it). */
  message?: string;
  /** The other fields of the answer's body. */
  fields?: AnswerFields<O>;
  /** Why, in words, for the x-sandbox-note header. */
  note?: string;
}

export type Handler<O extends SandboxOperation> = (ctx: HandlerContext, req: SandboxRequest<O>) => HandlerResult<O>;
