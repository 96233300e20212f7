// The six operations at the description's paths: parse, validate with the contract's precompiled
// validators and named checks, answer a failure with the code validate() names (or the operation's
// generic failure code), otherwise run the operation's handler. Every answer is built in the
// operation's own envelope; with checkAnswers on, it is validated against the contract before it goes out.
// An armed fault (faults.ts) closes the connection or answers an HTTP error before anything is
// carried out, or holds the answer back after it (D-59).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../../http/readBody.js';
import { memberText } from '../../json/member.js';
import { parseJson } from '../../json/parse.js';
import { checkRequest } from '../checkRequest.js';
import type { Faults, TakenAnswerFault } from '../faults.js';
import type { HandlerContext, SandboxRequest } from '../handlers/context.js';
import { HANDLERS } from '../handlers/index.js';
import type { SandboxOperation } from '../operationIndex.js';
import type { Timers } from '../timers.js';
import { FAILURE_CODES, failureFields } from './failures.js';
import { type Hold, type Outcome, type RespondContext, respond } from './respond.js';
import type { OperationRoute } from './routes.js';

export type OperationContext = HandlerContext &
  RespondContext & {
    readonly faults: Faults;
    readonly timers: Timers;
  };

/** What a gateway in front of the service answers for an HTTP error (D-59): plain text, never an envelope. */
const HTTP_ERRORS = {
  'http-500': { status: 500, text: 'Internal Server Error', headers: {} },
  'http-503': { status: 503, text: 'Service Unavailable', headers: { 'retry-after': '1' } },
} as const;

/** Answers one request at an operation's path (the server has checked the method). */
export type OperationHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  route: OperationRoute,
  search: string,
) => void;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function createOperationHandler(ctx: OperationContext): OperationHandler {
  const { config, faults, timers } = ctx;

  /** A fault met before anything is carried out: the connection closed, or an HTTP error. */
  function failEarly(
    res: ServerResponse,
    operationId: SandboxOperation,
    fault: 'reset' | 'http-500' | 'http-503',
  ): void {
    config.onLog?.(`${operationId} -> fault ${fault}`);
    if (fault === 'reset') {
      res.socket?.destroy();
      return;
    }
    const { status, text, headers } = HTTP_ERRORS[fault];
    if (res.headersSent) return;
    res.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'x-sandbox-fault': fault,
      connection: 'close',
      ...headers,
    });
    res.end(text);
  }

  /** A fault met after the operation is carried out: the answer never sent, or sent later. */
  function holdFor(res: ServerResponse, operationId: SandboxOperation, fault: TakenAnswerFault): Hold {
    if (fault.fault === 'delay') {
      const { delayMs } = fault;
      return (send) => {
        config.onLog?.(`${operationId} -> fault delay: the answer in ${delayMs} ms`);
        // Real time: the server answers other requests meanwhile; stop() ends the wait.
        timers.later(delayMs, () => {
          if (!res.destroyed && !res.writableEnded) send();
        });
      };
    }
    return () => {
      config.onLog?.(`${operationId} -> fault ${fault.fault}: the operation was carried out, the answer dropped`);
      res.socket?.destroy();
    };
  }

  /** Everything after the body is read, for one operation. */
  function answerBody<O extends SandboxOperation>(
    res: ServerResponse,
    operationId: O,
    path: Readonly<Record<string, string>>,
    search: string,
    text: string,
    hold: Hold | undefined,
  ): void {
    const codes = FAILURE_CODES[operationId];
    const parsed = parseJson(text);
    const payload = parsed.ok ? parsed.value : undefined;
    if (!parsed.ok || payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
      respond(
        ctx,
        res,
        operationId,
        undefined,
        {
          code: codes.badRequest,
          note: parsed.ok ? 'The body is not a JSON object {head, body}.' : `The body is not JSON: ${parsed.message}.`,
        },
        200,
        hold,
      );
      return;
    }
    const requestHead: unknown = 'head' in payload ? payload.head : undefined;
    // The query as received: validate() reads it, a repeated parameter of the contract refused (D-109).
    const checked = checkRequest(operationId, payload, { query: search, path });
    if (!checked.valid) {
      const fields = failureFields(operationId, payload, path, config.mids);
      const issues = checked.errors
        .slice(0, 10)
        .map((e) => ({ in: e.in, pointer: e.pointer, rule: e.rule, message: e.message }));
      const code = checked.resultCode?.code ?? codes.invalid;
      respond(
        ctx,
        res,
        operationId,
        requestHead,
        {
          code,
          message: checked.resultCode?.message,
          fields,
          issues,
          note: 'The request breaks the contract: see x-sandbox-issues.',
        },
        200,
        hold,
      );
      return;
    }
    let outcome: Outcome<O>;
    try {
      // The body's exact text is cut out only for the operations whose signature covers it.
      const request: SandboxRequest<O> = {
        operationId,
        head: checked.request.head,
        body: checked.request.body,
        query: checked.query,
        path: checked.path,
        get rawBody() {
          return memberText(text, 'body');
        },
      };
      outcome = HANDLERS[operationId](ctx, request);
    } catch (error) {
      config.onLog?.(`${operationId}: unexpected error ${error instanceof Error ? error.name : 'thrown'}`);
      outcome = { code: codes.internal, note: 'The sandbox failed unexpectedly; this is a bug of the sandbox.' };
    }
    if (!outcome.fields && outcome.code !== '0000')
      outcome = { ...outcome, fields: failureFields(operationId, payload, path, config.mids) };
    respond(ctx, res, operationId, requestHead, outcome, 200, hold);
  }

  function serve<O extends SandboxOperation>(
    req: IncomingMessage,
    res: ServerResponse,
    operationId: O,
    path: Readonly<Record<string, string>>,
    search: string,
  ): void {
    const codes = FAILURE_CODES[operationId];
    readBody(req, config.maxBodyBytes, (buffer, problem) => {
      if (problem === 'aborted') return;
      // A fault applies to a request that arrived whole.
      const fault = faults.takeAnswerFault(operationId);
      if (fault && fault.fault !== 'delay' && fault.fault !== 'drop-answer') {
        failEarly(res, operationId, fault.fault);
        return;
      }
      const hold = fault ? holdFor(res, operationId, fault) : undefined;
      if (!buffer) {
        respond(
          ctx,
          res,
          operationId,
          undefined,
          { code: codes.badRequest, note: `The body is larger than ${config.maxBodyBytes} bytes.` },
          413,
          hold,
        );
        return;
      }
      let text: string;
      try {
        text = utf8.decode(buffer);
      } catch {
        respond(
          ctx,
          res,
          operationId,
          undefined,
          { code: codes.badRequest, note: 'The body is not valid UTF-8 text.' },
          200,
          hold,
        );
        return;
      }
      answerBody(res, operationId, path, search, text, hold);
    });
  }

  return (req, res, route, search) => serve(req, res, route.operationId, route.path, search);
}
