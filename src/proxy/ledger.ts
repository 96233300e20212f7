// The proxy's ledger: every exchange ends here once, as one `Exchange`. It becomes a case of the
// report (the first 100 000 kept, the rest counted), a line of the coverage, a log line (never a
// value) and, with a recording, a HAR entry masked by allow-list (harWriter.ts, docs/decisions.md
// D-88, D-91, D-102 to D-104).
import type { IncomingMessage } from 'node:http';
import type { OperationInfo } from '../../generated/operations.js';
import { resultCodes } from '../../generated/resultCodes.js';
import type { CaseIssue, CaseResult, Report } from '../report/model.js';
import type { ExchangeIssue, Parsed } from './check.js';
import { Coverage } from './coverage.js';
import type { HarWriter, RecordedMessage } from './harWriter.js';
import type { Secrets } from './redact.js';

/** Exchanges kept for the report; past it they are counted, not kept (every output is bounded). */
const MAX_CASES = 100_000;
/** Problems kept per case, and named in a HAR entry's comment. */
const MAX_CASE_ERRORS = 100;
const MAX_COMMENT_ISSUES = 10;

/** The answer of an exchange as the client got it: the upstream's, or the proxy's own problem. */
export type RecordedAnswer = RecordedMessage & { status: number; statusText: string };

/** One exchange as it ended: what the ledger counts, covers, logs and records. */
export interface Exchange {
  /** The operation it was routed to (a notification's: notifyTokenStatus). */
  op: OperationInfo;
  /** The client's request: its method and address for the report and the recording. An exchange ends once per request. */
  req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>;
  /** When the request came, epoch milliseconds. */
  started: number;
  /** The problems of the request and of the answer. */
  issues: readonly ExchangeIssue[];
  /** The operation's result code the service would answer for the request's first problem that has one. */
  resultCode?: string | undefined;
  /** The code of the operation's table the answer carried, with its status. */
  met?: string | undefined;
  /** The named checks that found a problem in the request. */
  fired?: readonly string[] | undefined;
  /** A word after the case's name: `refused` when enforce answered instead of the service. */
  note?: string | undefined;
  request: RecordedMessage;
  response: RecordedAnswer;
  /** The exchange's secrets, scrubbed from its HAR entry last. */
  secrets: Secrets;
}

export interface LedgerOptions {
  /** The recording, if any: only then is a body's text kept. */
  har?: HarWriter | undefined;
  /** After this many exchanges `finished` resolves. */
  maxExchanges?: number | undefined;
  /** One line per exchange: operation, verdict, code, time. */
  onLog?: ((line: string) => void) | undefined;
}

/** The exchanges of a run: its cases, its coverage, its log lines and its recording. */
export class ExchangeLedger {
  /** Resolves once `maxExchanges` exchanges have ended. */
  readonly finished: Promise<void>;
  readonly #options: LedgerOptions;
  readonly #finish: () => void;
  readonly #cases: CaseResult[] = [];
  readonly #coverage = new Coverage();
  /** The requests whose exchange has ended. */
  readonly #ended = new WeakSet<object>();
  #exchanges = 0;
  #invalid = 0;

  constructor(options: LedgerOptions) {
    this.#options = options;
    const { promise, resolve } = settledBy();
    this.finished = promise;
    this.#finish = resolve;
  }

  /** One side of an exchange for the ledger: without a recording, no text of it is kept. */
  message(
    headers: RecordedMessage['headers'],
    bytes: Uint8Array | null,
    text: string | null,
    parsed?: Parsed,
  ): RecordedMessage {
    return {
      headers,
      text: this.#options.har ? text : null,
      parsed: parsed?.ok ? parsed : { ok: false },
      size: bytes?.byteLength ?? 0,
    };
  }

  /** Ends an exchange: its case, its coverage, its log line, its recording. A request's exchange ends once. */
  record(x: Exchange): void {
    // One cut off at shutdown is not recorded again when its upstream call fails.
    if (this.#ended.has(x.req)) return;
    this.#ended.add(x.req);
    const n = ++this.#exchanges;
    const valid = x.issues.length === 0;
    if (!valid) this.#invalid++;
    this.#coverage.add(x.op, x.met, x.fired ?? []);
    const name = `exchange ${n} ${x.req.method ?? ''} ${x.op.operationId}${x.note ? ` (${x.note})` : ''}`;
    if (this.#cases.length < MAX_CASES) this.#cases.push(caseOf(x, n - 1, name));
    const durationMs = Date.now() - x.started;
    const { onLog, har, maxExchanges } = this.#options;
    onLog?.(
      `${name}: ${valid ? 'valid' : `${x.issues.length} problem(s)`}, HTTP ${x.response.status}${x.met ? `, code ${x.met}` : ''}, ${durationMs} ms`,
    );
    har?.write({
      started: x.started,
      durationMs,
      method: x.req.method ?? 'GET',
      url: `http://${x.req.headers.host ?? 'proxy'}${x.req.url ?? '/'}`,
      operationId: x.op.operationId,
      template: x.op.path,
      request: x.request,
      response: x.response,
      secrets: x.secrets,
      comment: commentOf(x.issues),
    });
    if (maxExchanges !== undefined && this.#exchanges >= maxExchanges) this.#finish();
  }

  /** The run so far: one case per exchange, and the coverage per operation. */
  report(): Report {
    const exchanges = this.#exchanges;
    const invalid = this.#invalid;
    return {
      title: 'gateway-contract proxy',
      noun: 'exchange',
      cases: [...this.#cases],
      skipped: [],
      counts: { cases: exchanges, valid: exchanges - invalid, invalid, skipped: 0 },
      truncated: exchanges > this.#cases.length,
      coverage: this.#coverage.report(),
    };
  }

  /** Ends the recording: the HAR file is whole. */
  close(): void {
    this.#options.har?.close();
  }
}

function settledBy(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** The report's case of an exchange: its problems, each saying its side, and the result code the service would answer. */
function caseOf(x: Exchange, index: number, name: string): CaseResult {
  const errors: CaseIssue[] = x.issues.map(({ side, ...issue }) => ({
    ...issue,
    message: `${side === 'request' ? 'Request' : 'Answer'}: ${issue.message}`,
  }));
  const codeOf = x.resultCode ? resultCodes[x.op.operationId].codes.find((c) => c.code === x.resultCode) : undefined;
  return {
    index,
    name,
    operationId: x.op.operationId,
    direction: 'exchange',
    valid: x.issues.length === 0,
    errors: errors.slice(0, MAX_CASE_ERRORS),
    errorCount: errors.length,
    ...(codeOf ? { resultCode: { code: codeOf.code, status: codeOf.status, message: codeOf.messages[0] ?? '' } } : {}),
  };
}

/** The verdict a reader of the HAR file sees: valid, or the first problems by side, pointer and rule (never a value). */
function commentOf(issues: readonly ExchangeIssue[]): string {
  if (issues.length === 0) return 'valid';
  const named = issues
    .slice(0, MAX_COMMENT_ISSUES)
    .map((i) => `${i.side} ${i.pointer || '(the payload)'} ${i.rule}`)
    .join('; ');
  return `${issues.length} problem(s): ${named}`;
}
