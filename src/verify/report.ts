// What a run of verify reports: one case per check (a property of a phase), failed by the findings
// it kept, each finding in words with the steps that show it and the command that reruns them;
// coverage of operations, result codes and state changes; and the exchanges of the findings as a
// HAR that `validate --har` replays. Nothing shown carries the value of a secret: steps name the
// operation, what the request was for and the code answered; the HAR is masked by the contract's
// allow-list and scrubbed of the key (the proxy's recording, docs/decisions.md D-102 to D-104).
import { operations } from '../../generated/operations.js';
import { HarWriter, type RecordedExchange } from '../proxy/harWriter.js';
import { Secrets } from '../proxy/redact.js';
import type { CaseIssue, CaseResult, Report } from '../report/model.js';
import { codeOf } from './checks.js';
import type { VerifyFinding, VerifyResult } from './run.js';
import type { Exchange } from './types.js';

/** Steps shown of a finding (the shrunk sequence is usually one to four). */
const STEPS_SHOWN = 10;

/** One step in words: the operation, what the request was for, what came back. */
export function stepLine(exchange: Exchange, index: number): string {
  const { code, status } = codeOf(exchange.operationId, exchange.answer);
  const answered =
    exchange.failure !== undefined
      ? exchange.failure
      : `HTTP ${exchange.status}${code === undefined ? '' : `, ${code}${status === undefined ? '' : ` ${status}`}`}`;
  return `${index + 1}. ${exchange.operationId} (${exchange.note}) -> ${answered}`;
}

/** The steps of a finding in words, bounded. */
export function stepLines(finding: VerifyFinding): string[] {
  const lines = finding.steps.slice(0, STEPS_SHOWN).map(stepLine);
  if (finding.steps.length > STEPS_SHOWN) lines.push(`... ${finding.steps.length - STEPS_SHOWN} more step(s)`);
  return lines;
}

/** How a person reruns a run, or one finding's trial: the command with the seed, the key left to the environment. */
export function rerunCommand(base: readonly string[], seed: number, replay?: string): string {
  return [
    'MERCHANT_KEY=...',
    'npx gateway-contract verify',
    ...base,
    `--seed ${seed}`,
    ...(replay ? [`--replay ${replay}`] : []),
  ].join(' ');
}

function issueOf(finding: VerifyFinding, rerun: string): CaseIssue {
  const steps = stepLines(finding).join('; ');
  const times = finding.occurrences > 1 ? ` Seen in ${finding.occurrences} trials.` : '';
  return {
    in: 'body',
    pointer: finding.pointer ?? '',
    rule: finding.rule,
    message: `${finding.message}${times} Steps: ${steps}. Rerun: ${rerun}`,
  };
}

/** What a check is about: its operation (`acceptance.initiatePayment`) or its subject (`state.order`). */
const subjectOf = (check: string) => check.slice(check.indexOf('.') + 1);

/** The report of a run, for the report formats. `base` is the command's target options, without secrets. */
export function verifyReport(result: VerifyResult, base: readonly string[]): Report {
  const cases: CaseResult[] = result.checks.map((check, index) => {
    const findings = result.findings.filter((f) => f.check === check.name);
    const errors = findings.map((f) => issueOf(f, rerunCommand(base, result.seed, f.replay)));
    return {
      index,
      name: check.name,
      operationId: subjectOf(check.name),
      direction: check.phase,
      valid: errors.length === 0,
      errors,
      errorCount: errors.length,
    };
  });
  const invalid = cases.filter((c) => !c.valid).length;
  return {
    title: 'gateway-contract verify',
    noun: 'check',
    verdicts: { ok: 'kept', failed: 'broken' },
    listAll: true,
    cases,
    skipped: [],
    counts: { cases: cases.length, valid: cases.length - invalid, invalid, skipped: 0 },
    truncated: false,
    coverage: result.coverage,
    stateChanges: result.stateChanges,
    notes: [
      `${result.requests} request(s), ${result.notifications} notification(s), ${Math.round(result.durationMs / 100) / 10} s, seed ${result.seed}${result.bounded ? '; the run met its bound (--max-requests or --time-limit)' : ''}`,
      ...result.notes,
    ],
  };
}

const headers = (record: Record<string, string>) => ({ ...record });

/** An exchange of verify as the recording takes it. */
function recorded(exchange: Exchange, key: string, comment: string): RecordedExchange {
  const op = operations.find((o) => o.operationId === exchange.operationId);
  const requestSize = new TextEncoder().encode(exchange.requestText).length;
  return {
    started: exchange.started,
    durationMs: exchange.durationMs,
    method: 'POST',
    url: exchange.url,
    operationId: exchange.operationId,
    template: op?.path ?? null,
    request: {
      headers: headers(exchange.requestHeaders),
      text: exchange.requestText,
      parsed: { ok: true, value: exchange.request },
      size: requestSize,
    },
    response: {
      headers: headers(exchange.answerHeaders),
      text: exchange.answerText,
      parsed: exchange.answer === undefined ? { ok: false } : { ok: true, value: exchange.answer },
      size: new TextEncoder().encode(exchange.answerText).length,
      status: exchange.status,
      statusText: '',
    },
    secrets: new Secrets(key),
    comment,
  };
}

/** Writes the exchanges of every finding, once each, in order, as a HAR file masked like the proxy's. */
export function writeFindingsHar(file: string, result: VerifyResult, key: string): number {
  const writer = new HarWriter(file);
  const seen = new Set<Exchange>();
  try {
    for (const finding of result.findings)
      for (const exchange of finding.steps) {
        if (seen.has(exchange) || exchange.failure !== undefined) continue;
        seen.add(exchange);
        writer.write(recorded(exchange, key, `${finding.check}: ${finding.rule}`));
      }
  } finally {
    writer.close();
  }
  return seen.size;
}
