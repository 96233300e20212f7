// The reports of a run, one per format: what each holds, how it is structured and escaped, and
// where it places each problem.
import { describe, expect, it } from 'vitest';
import { formatReport, formatReportChunks, REPORT_FORMATS } from '../../src/report/format.js';
import type { Report } from '../../src/report/model.js';
import { validateMany } from '../../src/validation/validateMany.js';
import { contractExamples } from '../helpers/examples.js';
import { sarifProblems } from '../helpers/sarifSchema.js';

const TOOL = { tool: { name: 'gateway-contract', version: '1.0.0' }, cwd: '/work/project' };
const pay = contractExamples().find((e) => e.operationId === 'initiatePayment' && e.direction === 'request')!;
const text = JSON.stringify(pay.payload, null, 2);
const broken = structuredClone(pay.payload);
broken.body.paymentMode = 'BARTER';

async function sampleReport(): Promise<Report> {
  const result = await validateMany([
    {
      name: 'samples/pay.json',
      operationId: 'initiatePayment',
      direction: 'request',
      payload: pay.payload,
      query: pay.query,
      source: { file: 'samples/pay.json', text },
    },
    {
      name: 'samples/bad <&> "pay", 100%.json',
      operationId: 'initiatePayment',
      direction: 'request',
      payload: broken,
      query: pay.query,
      source: { file: '/work/project/samples/bad <&> "pay", 100%.json', text: JSON.stringify(broken, null, 2) },
    },
    { name: 'standard input', operationId: 'modifyOrder', direction: 'request', payload: {}, source: { file: '-' } },
    {
      name: 'broken.json',
      operationId: 'initiatePayment',
      direction: 'response',
      source: { file: 'broken.json' },
      unreadable: { rule: 'json', message: 'The input is not JSON: the input is empty.' },
    },
    { name: 'traffic.har entry 4', skipped: 'GET cdn.example/app.js: no operation of the contract at this address' },
  ]);
  return { ...result, title: 'gateway-contract validate' };
}

/** Tags balanced, attributes quoted, no raw `<` or `&` in text: enough of XML well-formedness for this report. */
function expectWellFormedXml(xml: string) {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  const stack: string[] = [];
  const body = xml.slice(xml.indexOf('\n') + 1);
  const tag = /<(\/?)([A-Za-z]+)((?:\s+[a-z]+="[^"<]*")*)\s*(\/?)>/g;
  let last = 0;
  for (let m = tag.exec(body); m; m = tag.exec(body)) {
    const between = body.slice(last, m.index);
    expect(between).not.toMatch(/[<>]|&(?!(amp|lt|gt|quot|apos);)/);
    last = m.index + m[0].length;
    if (m[1]) expect(stack.pop()).toBe(m[2]);
    else if (!m[4]) stack.push(m[2] as string);
  }
  expect(body.slice(last).trim()).toBe('');
  expect(stack).toEqual([]);
}

describe('reports', () => {
  it('text: each invalid case with its problems and place, the skipped records, the counts', async () => {
    const out = formatReport(await sampleReport(), 'text', TOOL);
    expect(out).toContain(
      'invalid  samples/bad <&> "pay", 100%.json [/work/project/samples/bad <&> "pay", 100%.json:1] (initiatePayment request): 1 problem(s)',
    );
    expect(out).toMatch(/^ {2}line \d+:\d+ \/body\/paymentMode enum: "paymentMode" must be one of: /m);
    expect(out).toContain('invalid  standard input (modifyOrder request)');
    expect(out).toContain('  query /mid requiredParameters: The query parameter "mid" is missing: it is mandatory.');
    expect(out).toContain(
      'skipped  traffic.har entry 4: GET cdn.example/app.js: no operation of the contract at this address',
    );
    expect(out).toContain(
      [
        '  initiatePayment request   1 valid, 1 invalid',
        '  modifyOrder request       0 valid, 1 invalid',
        '  initiatePayment response  0 valid, 1 invalid',
        '',
      ].join('\n'),
    );
    expect(out.endsWith('4 payloads: 1 valid, 3 invalid; 1 skipped (no operation of the contract)\n')).toBe(true);
  });

  it('json: one line per problem, with the case, and the file and line where known', async () => {
    const lines = formatReport(await sampleReport(), 'json', TOOL)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const report = await sampleReport();
    expect(lines).toHaveLength(report.cases.reduce((n, c) => n + c.errors.length, 0));
    expect(lines[0]).toMatchObject({
      name: 'samples/bad <&> "pay", 100%.json',
      operationId: 'initiatePayment',
      direction: 'request',
      in: 'body',
      pointer: '/body/paymentMode',
      rule: 'enum',
      file: 'samples/bad <&> "pay", 100%.json',
      line: expect.any(Number),
      column: expect.any(Number),
    });
    const stdin = lines.filter((l) => l.name === 'standard input');
    expect(stdin.length).toBeGreaterThan(1);
    for (const l of stdin) expect(l).not.toHaveProperty('file');
    expect(lines.at(-1)).toMatchObject({ name: 'broken.json', rule: 'json', file: 'broken.json', line: 1 });
  });

  it('junit: a testsuite per operation and direction, a testcase per payload, a failure per invalid one; escaped', async () => {
    const xml = formatReport(await sampleReport(), 'junit', TOOL);
    expectWellFormedXml(xml);
    expect(xml).toContain(
      '<testsuites name="gateway-contract validate" tests="5" failures="3" errors="0" skipped="1">',
    );
    expect(
      [...xml.matchAll(/<testsuite name="([^"]+)" tests="(\d+)" failures="(\d+)"/g)].map((m) => m.slice(1)),
    ).toEqual([
      ['initiatePayment request', '2', '1'],
      ['modifyOrder request', '1', '1'],
      ['initiatePayment response', '1', '1'],
      ['skipped', '1', '0'],
    ]);
    expect(xml).toContain(
      '<testcase name="samples/pay.json" classname="initiatePayment request" file="samples/pay.json" line="1"/>',
    );
    expect(xml).toContain(
      '<testcase name="samples/bad &lt;&amp;&gt; &quot;pay&quot;, 100%.json" classname="initiatePayment request" file="samples/bad &lt;&amp;&gt; &quot;pay&quot;, 100%.json" line="1">',
    );
    expect(xml).toMatch(
      /<failure message="1 problem\(s\): \/body\/paymentMode enum; the service would answer 317" type="enum">line \d+:\d+ \/body\/paymentMode enum: /,
    );
    expect(xml).toContain('<testcase name="standard input" classname="modifyOrder request">');
    expect(xml).toContain('<skipped message="GET cdn.example/app.js: no operation of the contract at this address"/>');
    expect((xml.match(/<testcase /g) ?? []).length).toBe(5);
    expect((xml.match(/<failure /g) ?? []).length).toBe(3);
  });

  it('sarif: 2.1.0, one result per problem, in its file and on the line of its field', async () => {
    const report = await sampleReport();
    const sarif = JSON.parse(formatReport(report, 'sarif', TOOL));
    expect(sarifProblems(sarif)).toEqual([]);
    const wrong = structuredClone(sarif);
    wrong.runs[0].results[0].level = 'fatal';
    expect(sarifProblems(wrong)).toEqual(['/runs/0/results/0/level must be equal to one of the allowed values']);
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.$schema).toMatch(/sarif-2\.1\.0/);
    const [run] = sarif.runs;
    expect(run.tool.driver).toMatchObject({ name: 'gateway-contract', version: '1.0.0' });
    expect(run.results).toHaveLength(report.cases.reduce((n, c) => n + c.errors.length, 0));
    for (const r of run.results) {
      expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
      expect(r.level).toBe('error');
    }
    expect(new Set(run.tool.driver.rules.map((r: any) => r.id)).size).toBe(run.tool.driver.rules.length);
    expect(run.tool.driver.rules.find((r: any) => r.id === 'requiredParameters').shortDescription.text).toMatch(
      /path and query parameters/,
    );
    const enumResult = run.results.find((r: any) => r.ruleId === 'enum');
    const lines = JSON.stringify(broken, null, 2).split('\n');
    expect(enumResult.locations).toEqual([
      {
        physicalLocation: {
          artifactLocation: { uri: 'samples/bad%20%3C%26%3E%20%22pay%22%2C%20100%25.json' },
          region: {
            startLine: lines.findIndex((l) => l.includes('"paymentMode"')) + 1,
            startColumn: expect.any(Number),
          },
        },
      },
    ]);
    expect(enumResult.properties).toMatchObject({
      case: 'samples/bad <&> "pay", 100%.json',
      operationId: 'initiatePayment',
      pointer: '/body/paymentMode',
      resultCode: '317',
    });
    // Standard input has no file to point at.
    for (const r of run.results.filter((x: any) => x.properties.case === 'standard input'))
      expect(r.locations).toEqual([]);
  });

  it('github: an ::error annotation per problem on its file and line, escaped, then the summary', async () => {
    const lines = formatReport(await sampleReport(), 'github', TOOL)
      .trim()
      .split('\n');
    expect(lines.at(-1)).toBe('4 payloads: 1 valid, 3 invalid; 1 skipped (no operation of the contract)');
    const annotations = lines.slice(0, -1);
    for (const l of annotations) expect(l).toMatch(/^::error (file=[^,:]+,line=\d+(,col=\d+)?,)?title=[^:]+::.+$/);
    expect(annotations[0]).toMatch(
      /^::error file=samples\/bad <&> "pay"%2C 100%25\.json,line=\d+,col=\d+,title=initiatePayment request%3A enum::samples\/bad <&> "pay", 100%25\.json: \/body\/paymentMode: /,
    );
    expect(annotations.find((l) => l.includes('standard input'))).toMatch(
      /^::error title=modifyOrder request%3A [a-zA-Z]+::standard input: /,
    );
  });

  it('every format shows bidirectional-text characters in names as escapes, never as themselves', async () => {
    // A name that reads "invoice_fdp.json" on screen and is "invoice_<RLO>nosj.pdf": each control of
    // the direction of text (U+202A-202E, U+2066-2069, U+200E, U+200F, U+061C) is written as \uXXXX.
    const controls = [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
    ];
    const name = `invoice_\u202enosj.pdf ${controls.join('')}`;
    const run = await validateMany([
      { name, operationId: 'modifyOrder', direction: 'request', payload: {}, source: { file: `samples/${name}` } },
      { name: `entry \u2067${name}`, skipped: `GET host/\u202eapp: no operation of the contract at this address` },
    ]);
    const report: Report = { ...run, title: 'gateway-contract validate' };
    for (const format of REPORT_FORMATS) {
      const out = formatReport(report, format, TOOL);
      expect(out, format).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/);
      expect(out, format).toMatch(
        format === 'sarif' || format === 'json' ? /invoice_\\\\u202Enosj\.pdf/ : /invoice_\\u202Enosj\.pdf/,
      );
    }
    expect(run.cases[0]?.name).toBe(
      `invoice_\\u202Enosj.pdf ${controls.map((c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join('')}`,
    );
    expect(run.skipped[0]?.reason).toBe('GET host/\\u202Eapp: no operation of the contract at this address');
  });

  it('the formats that list every problem come a problem at a time, and the pieces make the whole report: SARIF as JSON.stringify writes the whole log', async () => {
    const sample = await sampleReport();
    const empty: Report = { ...(await validateMany([])), title: 'x' };
    const coverage = [
      {
        operationId: 'initiatePayment',
        exchanges: 2,
        codesMet: ['0000 (success)'],
        codesNotMet: ['1001'],
        namedChecks: [{ name: 'amountsAdd', fired: 1 }],
      },
    ];
    const one: Report = {
      ...(await validateMany([{ operationId: 'modifyOrder', direction: 'request', payload: {} }])),
      title: 'x',
    };
    for (const report of [sample, empty, one, { ...sample, coverage }, { ...empty, coverage }]) {
      for (const format of REPORT_FORMATS) {
        const pieces = [...formatReportChunks(report, format, TOOL)];
        expect(pieces.join(''), format).toBe(formatReport(report, format, TOOL));
        if (format !== 'text' && format !== 'github')
          expect(pieces.length, format).toBeGreaterThanOrEqual(report.counts.invalid);
      }
      const sarif = formatReport(report, 'sarif', TOOL);
      expect(sarif).toBe(`${JSON.stringify(JSON.parse(sarif), null, 2)}\n`);
    }
  });

  it('every format says what an empty run is, and stays bounded', async () => {
    const empty: Report = { ...(await validateMany([])), title: 'gateway-contract validate' };
    expect(formatReport(empty, 'text', TOOL)).toBe('no payload validated\n');
    expect(formatReport(empty, 'json', TOOL)).toBe('');
    // A thousand invalid cases of a hundred problems each: the annotations stop at a thousand.
    const goods = Array.from({ length: 150 }, () => ({ unknown: 1 }));
    const record = {
      operationId: 'modifyOrder',
      direction: 'request',
      payload: { head: {}, body: { goodsInfo: goods } },
    };
    const big: Report = { ...(await validateMany(Array.from({ length: 30 }, () => record))), title: 'x' };
    expect(formatReport(big, 'github', TOOL).split('\n').length).toBeLessThan(1_010);
    expect(formatReport(big, 'text', TOOL).split('\n').length).toBeLessThan(30 * 25);
    for (const format of REPORT_FORMATS) expect(formatReport(big, format, TOOL).length, format).toBeLessThan(5_000_000);
  });
});
