// The proxy's ledger as a unit (src/proxy/ledger.ts, coverage.ts): an exchange ends once per request
// whatever ends it again; counts, cases and coverage agree with the exchanges ended, in any order;
// log lines and the report hold no value of a message; a body's text is kept only for a recording;
// the cases are bounded; `finished` resolves after maxExchanges.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type OperationInfo, operations } from '../../generated/operations.js';
import { resultCodes } from '../../generated/resultCodes.js';
import type { ExchangeIssue } from '../../src/proxy/check.js';
import { HarWriter } from '../../src/proxy/harWriter.js';
import { type Exchange, ExchangeLedger } from '../../src/proxy/ledger.js';
import { Secrets } from '../../src/proxy/redact.js';
import { fcParameters } from '../helpers/arbitraries.js';

const dir = mkdtempSync(join(tmpdir(), 'proxy-ledger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function operation(operationId: string): OperationInfo {
  const op = operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return op;
}

const tableOf = (op: OperationInfo) => resultCodes[op.operationId].codes.map((c) => c.code as string);

type Request = Exchange['req'];
const request = (host = 'proxy.test', url = '/order/v2/preAuth'): Request => ({
  method: 'POST',
  url,
  headers: { host },
});

const issue = (rule: string, side: ExchangeIssue['side'] = 'request'): ExchangeIssue => ({
  side,
  in: 'body',
  pointer: '/body/mid',
  rule,
  message: `broken ${rule}`,
});

/** An exchange that ended with HTTP 200 and no body kept. */
function ended(ledger: ExchangeLedger, op: OperationInfo, req: Request, more: Partial<Exchange> = {}): Exchange {
  return {
    op,
    req,
    started: Date.now(),
    issues: [],
    request: ledger.message({ 'content-type': 'application/json' }, null, null),
    response: { ...ledger.message({ 'content-type': 'application/json' }, null, null), status: 200, statusText: 'OK' },
    secrets: new Secrets(),
    ...more,
  };
}

/** What one exchange of a run does: its operation, its request (of a few), its problems, the code its answer met, the checks that fired. */
const step = fc.record({
  op: fc.constantFrom(...operations),
  req: fc.nat({ max: 7 }),
  problems: fc.nat({ max: 3 }),
  met: fc.option(fc.nat({ max: 40 }), { nil: undefined }),
  fired: fc.array(fc.nat({ max: 5 }), { maxLength: 4 }),
});

describe('ExchangeLedger', () => {
  it('counts, reports and covers each request once, in the order exchanges end', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const lines: string[] = [];
        const ledger = new ExchangeLedger({ onLog: (line) => lines.push(line) });
        const requests = Array.from({ length: 8 }, () => request());
        const counted: { op: OperationInfo; problems: number; met: string | undefined; fired: string[] }[] = [];
        const seen = new Set<number>();
        for (const s of steps) {
          const table = tableOf(s.op);
          const met = s.met === undefined ? undefined : table[s.met % table.length];
          // As checkRequest gives them: each check that fired, once.
          const fired = [
            ...new Set(
              s.fired.flatMap((i) =>
                s.op.namedChecks.length ? [s.op.namedChecks[i % s.op.namedChecks.length] as string] : [],
              ),
            ),
          ];
          const issues = Array.from({ length: s.problems }, (_, i) => issue(`rule${i}`));
          ledger.record(ended(ledger, s.op, requests[s.req] as Request, { issues, met, fired }));
          if (!seen.has(s.req)) counted.push({ op: s.op, problems: s.problems, met, fired });
          seen.add(s.req);
        }
        const report = ledger.report();
        const invalid = counted.filter((c) => c.problems > 0).length;
        expect(report.counts).toEqual({ cases: counted.length, valid: counted.length - invalid, invalid, skipped: 0 });
        expect(report.truncated).toBe(false);
        expect(report.cases.map((c) => c.name)).toEqual(
          counted.map((c, i) => `exchange ${i + 1} POST ${c.op.operationId}`),
        );
        expect(report.cases.map((c) => c.index)).toEqual(counted.map((_, i) => i));
        expect(report.cases.map((c) => c.errorCount)).toEqual(counted.map((c) => c.problems));
        expect(lines).toHaveLength(counted.length);
        const ids = [...new Set(counted.map((c) => c.op.operationId))];
        expect(report.coverage?.map((c) => c.operationId)).toEqual(ids);
        for (const cov of report.coverage ?? []) {
          const mine = counted.filter((c) => c.op.operationId === cov.operationId);
          const op = operation(cov.operationId);
          const table = tableOf(op);
          expect(cov.exchanges).toBe(mine.length);
          expect(cov.codesMet).toEqual(table.filter((code) => mine.some((c) => c.met === code)));
          expect([...cov.codesMet, ...cov.codesNotMet].sort()).toEqual([...table].sort());
          expect(cov.namedChecks).toEqual(
            op.namedChecks.map((name) => ({ name, fired: mine.filter((c) => c.fired.includes(name)).length })),
          );
        }
      }),
      fcParameters(200),
    );
  });

  it('writes no value of a message in its log lines or its report', () => {
    const value = fc.stringMatching(/^[A-Za-z0-9+/=]{12,40}$/).map((s) => `zq${s}`);
    fc.assert(
      fc.property(fc.constantFrom(...operations), value, fc.boolean(), (op, secret, broken) => {
        const lines: string[] = [];
        const ledger = new ExchangeLedger({ onLog: (line) => lines.push(line) });
        const text = JSON.stringify({ head: { signature: secret }, body: { cardNumber: secret } });
        const bytes = Buffer.from(text);
        ledger.record({
          ...ended(ledger, op, request(secret, `/order/v2/preAuth?token=${secret}`)),
          issues: broken ? [issue('signature')] : [],
          request: ledger.message({ authorization: secret }, bytes, text, { ok: true, value: JSON.parse(text) }),
          response: {
            ...ledger.message({ 'x-token': secret }, bytes, text, { ok: true, value: JSON.parse(text) }),
            status: 200,
            statusText: 'OK',
          },
          secrets: new Secrets(),
        });
        expect(lines.join('\n')).not.toContain(secret);
        expect(JSON.stringify(ledger.report())).not.toContain(secret);
      }),
      fcParameters(100),
    );
  });

  it("says each problem's side in the report's case, and the result code the service would answer", () => {
    const ledger = new ExchangeLedger({});
    const op = operation('preAuthorize');
    const code = tableOf(op)[1] as string;
    ledger.record(
      ended(ledger, op, request(), {
        issues: [issue('required'), issue('resultStatus', 'answer')],
        resultCode: code,
        note: 'refused',
      }),
    );
    const [only] = ledger.report().cases;
    expect(only?.name).toBe('exchange 1 POST preAuthorize (refused)');
    expect(only?.errors.map((e) => e.message)).toEqual(['Request: broken required', 'Answer: broken resultStatus']);
    expect(only?.resultCode?.code).toBe(code);
    expect(only?.valid).toBe(false);
  });

  it('keeps the text of a message only when it records', () => {
    const text = '{"a":1}';
    expect(new ExchangeLedger({}).message({}, Buffer.from(text), text).text).toBeNull();
    const har = new HarWriter(join(dir, 'kept.har'));
    const recording = new ExchangeLedger({ har });
    expect(recording.message({}, Buffer.from(text), text, { ok: true, value: { a: 1 } })).toEqual({
      headers: {},
      text,
      parsed: { ok: true, value: { a: 1 } },
      size: 7,
    });
    expect(recording.message({}, null, null, { ok: false, message: 'not JSON' }).parsed).toEqual({ ok: false });
    recording.close();
  });

  it('records each exchange once as a HAR entry, its comment the verdict by side, pointer and rule', () => {
    const file = join(dir, 'entries.har');
    const ledger = new ExchangeLedger({ har: new HarWriter(file) });
    const op = operation('preAuthorize');
    const first = request();
    ledger.record(ended(ledger, op, first));
    ledger.record(ended(ledger, op, first, { issues: [issue('shutdown')] }));
    ledger.record(
      ended(ledger, op, request(), { issues: [issue('required'), { ...issue('json', 'answer'), pointer: '' }] }),
    );
    ledger.close();
    ledger.close();
    const entries = JSON.parse(readFileSync(file, 'utf8')).log.entries;
    expect(entries.map((e: { comment: string }) => e.comment)).toEqual([
      'valid',
      '2 problem(s): request /body/mid required; answer (the payload) json',
    ]);
    expect(entries[0].request.url).toBe('http://proxy.test/order/v2/preAuth');
  });

  it('keeps the first 100 000 cases and counts the rest', () => {
    const ledger = new ExchangeLedger({});
    const op = operation('listSubscriptions');
    for (let i = 0; i < 100_001; i++) ledger.record(ended(ledger, op, request()));
    const report = ledger.report();
    expect(report.cases).toHaveLength(100_000);
    expect(report.counts.cases).toBe(100_001);
    expect(report.truncated).toBe(true);
    expect(report.coverage?.[0]?.exchanges).toBe(100_001);
  });

  it('resolves finished once maxExchanges exchanges have ended, not before', async () => {
    const ledger = new ExchangeLedger({ maxExchanges: 2 });
    let done = false;
    void ledger.finished.then(() => {
      done = true;
    });
    const op = operation('preAuthorize');
    const req = request();
    ledger.record(ended(ledger, op, req));
    ledger.record(ended(ledger, op, req));
    await Promise.resolve();
    expect(done).toBe(false);
    ledger.record(ended(ledger, op, request()));
    await ledger.finished;
    expect(done).toBe(true);
  });
});
