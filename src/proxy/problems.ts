// The proxy's own answers: RFC 9457 problems (application/problem+json, never the service's
// envelope: docs/decisions.md, D-89), each with a type under the proxy's URN, and as the ledger
// records them (the proxy's own problem keeps its members in the recording: D-103).
import type { ServerResponse } from 'node:http';
import type { RecordedAnswer } from './ledger.js';

/** The prefix of every problem type the proxy answers. */
export const PROBLEM = 'urn:gateway-contract:proxy:';

/** Writes an RFC 9457 problem, unless an answer has begun; its text either way. */
export function sendProblem(res: ServerResponse, status: number, problem: Record<string, unknown>): string {
  const text = JSON.stringify({ status, ...problem });
  if (!res.headersSent) {
    res.writeHead(status, {
      'content-type': 'application/problem+json',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
    });
    res.end(text);
  }
  return text;
}

/** Answers a problem, and the answer as the ledger records it. */
export function answerProblem(res: ServerResponse, status: number, problem: Record<string, unknown>): RecordedAnswer {
  const text = sendProblem(res, status, problem);
  return {
    headers: { 'content-type': 'application/problem+json' },
    text,
    parsed: { ok: true, value: JSON.parse(text) },
    ownProblem: true,
    size: Buffer.byteLength(text),
    status,
    statusText: '',
  };
}

/** A path that is none of the contract's (nor the webhook's): 404, not an exchange. */
export function answerNoOperation(res: ServerResponse): void {
  sendProblem(res, 404, {
    type: `${PROBLEM}no-operation`,
    title: 'No operation of the contract at this path',
    detail:
      "The proxy serves the contract's paths of the gateway and the order router, and the webhook path it was given.",
  });
}

/** A method other than POST at an operation's path: 405, not an exchange. */
export function answerMethodNotAllowed(res: ServerResponse): void {
  sendProblem(res, 405, {
    type: `${PROBLEM}method`,
    title: 'Method not allowed',
    detail: "The contract's operations are POST.",
  });
}
