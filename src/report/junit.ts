// JUnit XML, which CI systems display as tests: one testsuite per operation and direction, one
// testcase per payload, and a failure for an invalid one carrying each problem's pointer, rule and
// message. Skipped records are testcases of their own suite, marked skipped.
import { displayPath, fileOf, groups, problemLine, type Report, type ReportOptions } from './model.js';

/** A character XML 1.0 cannot hold, or one of the five that are escaped. */
const NOT_PLAIN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 cannot hold
  /[^\u0009\u000a\u000d\u0020\u0021\u0023-\u0025\u0028-\u003b\u003d\u003f-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/** Text fit for XML 1.0: the five entities escaped, characters XML cannot hold replaced. */
export function xmlText(text: string): string {
  // Most text (names, pointers, rules, messages) needs neither: it is written as it is. For
  // bench/batch.mjs's JUnit target (1 000 payloads half invalid to a report, at most 3x a bare start).
  if (!NOT_PLAIN.test(text)) return text;
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 cannot hold
      .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '?')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/** Attributes in XML, each ` name="value"`; an undefined value is left out. */
function attrs(values: Record<string, string | number | undefined>): string {
  let text = '';
  for (const name in values) {
    const value = values[name];
    if (value !== undefined) text += ` ${name}="${xmlText(String(value))}"`;
  }
  return text;
}

/** One line of the XML with its newline. */
const line = (text: string) => `${text}\n`;

export function junitReport(report: Report, options: Partial<ReportOptions> = {}): string {
  return [...junitReportLines(report, options)].join('');
}

/**
 * A payload's testcase, whole: its line, and for an invalid one its failure with every problem
 * listed. Its own function, so that the generator's loop stays small: the engine's background
 * optimization of a long loop then ends within the run, not after it (D-147; bench/batch.mjs's
 * JUnit target).
 */
function testcase(c: Report['cases'][number], group: string, cwd: string | undefined): string {
  const file = fileOf(c);
  const head = `    <testcase${attrs({ name: c.name, classname: group, file: file === undefined ? undefined : displayPath(file, cwd), line: file === undefined ? undefined : c.line })}`;
  if (c.valid) return line(`${head}/>`);
  const first = c.errors[0];
  const summary = `${c.errorCount} problem(s)${first ? `: ${first.pointer || '(the payload)'} ${first.rule}` : ''}${c.resultCode ? `; the service would answer ${c.resultCode.code}` : ''}`;
  const body = c.errors.map(problemLine);
  if (c.errorCount > c.errors.length) body.push(`${c.errorCount - c.errors.length} more problem(s) not listed`);
  const failure = `      <failure${attrs({ message: summary, type: first?.rule ?? 'invalid' })}>${xmlText(body.join('\n'))}</failure>`;
  return `${line(`${head}>`)}${line(failure)}${line('    </testcase>')}`;
}

/** The lines of the XML one at a time, each with its newline: a writer keeps none of them (output.ts). */
export function* junitReportLines(report: Report, options: Partial<ReportOptions> = {}): Generator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  const { cases, invalid, skipped } = report.counts;
  yield line(
    `<testsuites${attrs({ name: report.title, tests: cases + skipped, failures: invalid, errors: 0, skipped })}>`,
  );
  for (const [group, list] of groups(report.cases)) {
    const failures = list.filter((c) => !c.valid).length;
    yield line(`  <testsuite${attrs({ name: group, tests: list.length, failures, errors: 0, skipped: 0 })}>`);
    for (const c of list) yield testcase(c, group, options.cwd);
    yield line('  </testsuite>');
  }
  if (report.skipped.length) {
    yield line(
      `  <testsuite${attrs({ name: 'skipped', tests: report.skipped.length, failures: 0, errors: 0, skipped: report.skipped.length })}>`,
    );
    for (const s of report.skipped)
      yield line(
        `    <testcase${attrs({ name: s.name, classname: 'skipped' })}><skipped${attrs({ message: s.reason })}/></testcase>`,
      );
    yield line('  </testsuite>');
  }
  if (report.coverage?.length || report.stateChanges?.length) {
    // Coverage is no test case: properties of a suite of its own, one per operation.
    yield line(`  <testsuite${attrs({ name: 'coverage', tests: 0, failures: 0, errors: 0, skipped: 0 })}>`);
    yield line('    <properties>');
    for (const c of report.stateChanges ?? [])
      yield line(`      <property${attrs({ name: `state.${c.change}`, value: String(c.exercised) })}/>`);
    for (const c of report.coverage ?? []) {
      yield line(`      <property${attrs({ name: `${c.operationId}.codesMet`, value: c.codesMet.join(',') })}/>`);
      yield line(`      <property${attrs({ name: `${c.operationId}.codesNotMet`, value: c.codesNotMet.join(',') })}/>`);
      yield line(
        `      <property${attrs({ name: `${c.operationId}.namedChecksFired`, value: c.namedChecks.map((n) => `${n.name}=${n.fired}`).join(',') })}/>`,
      );
    }
    yield line('    </properties>');
    yield line('  </testsuite>');
  }
  yield line('</testsuites>');
}
