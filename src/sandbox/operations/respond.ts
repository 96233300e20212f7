// Sends an operation's answer: the envelope of its result code, the sandbox's notes in response
// headers (never in the body), and, with checkAnswers on, a check of the answer against the
// contract first (an answer that breaks it is answered HTTP 500 and recorded).
import type { ServerResponse } from 'node:http';
import type { ResultCodeOf } from '../../types.js';
import type { ValidationIssue } from '../../validation/index.js';
import { validate } from '../../validation/index.js';
import type { Clock } from '../clock.js';
import type { SandboxConfig } from '../config.js';
import { headerSafe, sendJson, sendText } from '../http.js';
import type { SandboxOperation } from '../operationIndex.js';
import { bodyWith, envelope, resultFor } from './envelope.js';

/** An answer that broke the contract (recorded with checkAnswers). */
export interface AnswerProblem {
  operationId: string;
  code: string;
  issues: { pointer: string; rule: string; message: string }[];
}

/** What an answer says: a code of the operation's table, the other body fields, and notes for integrators. */
export interface Outcome<O extends SandboxOperation> {
  code: ResultCodeOf<O>;
  message?: string | undefined;
  /** The body fields besides the result. */
  fields?: object | undefined;
  /** Why, in words, for the x-sandbox-note header. */
  note?: string | undefined;
  /** Where the request breaks the contract, for the x-sandbox-issues header (never a value). */
  issues?: Pick<ValidationIssue, 'in' | 'pointer' | 'rule' | 'message'>[] | undefined;
}

/**
 * What happens to an answer once it is built: sent at once (the default), later (the fault delay)
 * or never (the fault drop-answer).
 */
export type Hold = (send: () => void) => void;

const sendNow: Hold = (send) => send();

export interface RespondContext {
  readonly config: SandboxConfig;
  readonly clock: Clock;
  readonly answerProblems: AnswerProblem[];
  /** The service's signature over an answer's body. */
  readonly sign: (text: string) => string;
}

/** Sends the answer of `outcome` in the operation's envelope. */
export function respond<O extends SandboxOperation>(
  ctx: RespondContext,
  res: ServerResponse,
  operationId: O,
  requestHead: unknown,
  outcome: Outcome<O>,
  httpStatus = 200,
  hold: Hold = sendNow,
): void {
  const { config } = ctx;
  const result = resultFor(operationId, outcome.code, outcome.message);
  const body = bodyWith(operationId, result, outcome.fields);
  const env = envelope(operationId, requestHead, body, {
    now: ctx.clock.now(),
    clientId: config.clientId,
    sign: ctx.sign,
  });
  if (config.checkAnswers) {
    const verdict = validate(operationId, 'response', { head: env.head, body: env.body });
    if (!verdict.valid) {
      const issues = verdict.errors.map((e) => ({ pointer: e.pointer, rule: e.rule, message: e.message }));
      // The first ones are kept: a bug of the sandbox shows in its first invalid answer, and the record stays bounded.
      if (ctx.answerProblems.length < config.retention)
        ctx.answerProblems.push({ operationId, code: outcome.code, issues });
      config.onLog?.(
        `ANSWER INVALID ${operationId} ${outcome.code}: ${issues.map((i) => `${i.pointer} ${i.rule}`).join('; ')}`,
      );
      hold(() =>
        sendJson(res, 500, {
          error: {
            code: 'answer-invalid',
            message: 'The sandbox built an answer that breaks the contract.',
            operationId,
            issues,
          },
        }),
      );
      return;
    }
  }
  const headers: Record<string, string> = {};
  if (outcome.note) headers['x-sandbox-note'] = headerSafe(outcome.note);
  if (outcome.issues) headers['x-sandbox-issues'] = headerSafe(JSON.stringify(outcome.issues));
  if (httpStatus !== 200) headers.connection = 'close';
  config.onLog?.(`${operationId} -> ${result.code} ${result.status}${outcome.note ? `: ${outcome.note}` : ''}`);
  hold(() => sendText(res, httpStatus, env.text, headers));
}

/** The answer to a method other than POST at an operation's path. */
export function notPost(res: ServerResponse, method: string): void {
  sendJson(
    res,
    405,
    { error: { code: 'method-not-allowed', message: `The operations answer POST only (got ${method.slice(0, 10)}).` } },
    { allow: 'POST' },
  );
}
