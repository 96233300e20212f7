// JUnit XML, which CI systems display as tests: one testsuite per operation and direction, one
// testcase per payload, and a failure for an invalid one carrying each problem's pointer, rule and
// message. Skipped records are testcases of their own suite, marked skipped.
import { displayPath, fileOf, groups, problemLine, type Report, type ReportOptions } from './model.js';

/** Text fit for XML 1.0: the five entities escaped, characters XML cannot hold replaced. */
export function xmlText(text: string): string {
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

const attrs = (values: Record<string, string | number | undefined>) =>
  Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlText(String(v))}"`)
    .join('');

export function junitReport(report: Report, options: Partial<ReportOptions> = {}): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const { cases, invalid, skipped } = report.counts;
  out.push(`<testsuites${attrs({ name: report.title, tests: cases + skipped, failures: invalid, errors: 0, skipped })}>`);
  for (const [group, list] of groups(report.cases)) {
    const failures = list.filter((c) => !c.valid).length;
    out.push(`  <testsuite${attrs({ name: group, tests: list.length, failures, errors: 0, skipped: 0 })}>`);
    for (const c of list) {
      const file = fileOf(c);
      const head = `    <testcase${attrs({ name: c.name, classname: group, file: file === undefined ? undefined : displayPath(file, options.cwd), line: file === undefined ? undefined : c.line })}`;
      if (c.valid) {
        out.push(`${head}/>`);
        continue;
      }
      const first = c.errors[0];
      const summary = `${c.errorCount} problem(s)${first ? `: ${first.pointer || '(the payload)'} ${first.rule}` : ''}${c.resultCode ? `; the service would answer ${c.resultCode.code}` : ''}`;
      const body = c.errors.map(problemLine);
      if (c.errorCount > c.errors.length) body.push(`${c.errorCount - c.errors.length} more problem(s) not listed`);
      out.push(`${head}>`);
      out.push(`      <failure${attrs({ message: summary, type: first?.rule ?? 'invalid' })}>${xmlText(body.join('\n'))}</failure>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  if (report.skipped.length) {
    out.push(`  <testsuite${attrs({ name: 'skipped', tests: report.skipped.length, failures: 0, errors: 0, skipped: report.skipped.length })}>`);
    for (const s of report.skipped)
      out.push(`    <testcase${attrs({ name: s.name, classname: 'skipped' })}><skipped${attrs({ message: s.reason })}/></testcase>`);
    out.push('  </testsuite>');
  }
  if (report.coverage?.length) {
    // Coverage is no test case: properties of a suite of its own, one per operation.
    out.push(`  <testsuite${attrs({ name: 'coverage', tests: 0, failures: 0, errors: 0, skipped: 0 })}>`);
    out.push('    <properties>');
    for (const c of report.coverage) {
      out.push(`      <property${attrs({ name: `${c.operationId}.codesMet`, value: c.codesMet.join(',') })}/>`);
      out.push(`      <property${attrs({ name: `${c.operationId}.codesNotMet`, value: c.codesNotMet.join(',') })}/>`);
      out.push(`      <property${attrs({ name: `${c.operationId}.namedChecksFired`, value: c.namedChecks.map((n) => `${n.name}=${n.fired}`).join(',') })}/>`);
    }
    out.push('    </properties>');
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
