// SARIF 2.1.0, which code scanning reads: one result per problem, located in its file and, where
// it can be found, on the line of the field. Rules are the JSON Schema keywords and named checks
// the results name, each described once.
import { namedCheckRules } from '../../generated/operations.js';
import { displayPath, fileOf, type Report, type ReportOptions } from './model.js';

/** The few SARIF 2.1.0 fields written here. */
interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: 'error';
  message: { text: string };
  locations: {
    physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn?: number } };
  }[];
  properties: Record<string, string>;
}

/** Rules that are not JSON Schema keywords or named checks: the run's own. */
const OWN_RULES: Record<string, string> = {
  readable: 'The input can be read.',
  maxBytes: 'The input is within the size limit (--max-bytes).',
  maxDepth: 'Objects and arrays in the input nest at most 1 000 levels deep.',
  json: 'The input is UTF-8 JSON with no key repeated in an object.',
  record: 'An NDJSON line is a record {"operationId", "direction", "payload", "query"?, "path"?, "name"?}.',
  har: 'A HAR file has a "log.entries" list.',
  operationId: 'The record names an operation of the contract.',
  direction: 'The record names a direction: request or response.',
  validatable: 'The payload can be read to the end.',
  moreProblems: 'A payload holds at most 20 000 values for every problem to be described.',
  replyCode: "The merchant's reply carries the code the table of section 7.1 and the decisions give for the case.",
  httpStatus: "The merchant's reply has HTTP status 200.",
  delivery: 'The notification reaches the address and a reply comes back in time.',
};

function describeRule(id: string): string {
  const named = (namedCheckRules as Record<string, { rule: string } | undefined>)[id];
  if (named) return named.rule;
  return OWN_RULES[id] ?? `The JSON Schema keyword "${id}" of the contract holds.`;
}

/** A relative path as a URI reference: each segment percent-encoded. */
const uriOf = (path: string) =>
  path.startsWith('/')
    ? `file://${path.split('/').map(encodeURIComponent).join('/')}`
    : path
        .split('/')
        .map((s) => encodeURIComponent(s))
        .join('/');

export function sarifReport(report: Report, options: ReportOptions): string {
  return [...sarifReportChunks(report, options)].join('');
}

/**
 * The SARIF text in pieces, one result at a time (their concatenation is `JSON.stringify(sarif,
 * null, 2)` of the whole log): a run of 100 000 payloads is written without its log standing whole
 * in memory. The rules come before the results in the log, so a first pass names them.
 */
export function* sarifReportChunks(report: Report, options: ReportOptions): Generator<string> {
  const ruleIds: string[] = [];
  const index = new Map<string, number>();
  for (const c of report.cases)
    for (const issue of c.valid ? [] : c.errors)
      if (!index.has(issue.rule)) index.set(issue.rule, ruleIds.push(issue.rule) - 1);
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: options.tool.name,
            version: options.tool.version,
            rules: ruleIds.map((id) => ({ id, name: id, shortDescription: { text: describeRule(id) } })),
          },
        },
        results: [],
        ...(report.coverage?.length || report.stateChanges?.length
          ? {
              properties: {
                ...(report.coverage?.length ? { coverage: report.coverage } : {}),
                ...(report.stateChanges?.length ? { stateChanges: report.stateChanges } : {}),
              },
            }
          : {}),
      },
    ],
  };
  const text = `${JSON.stringify(sarif, null, 2)}\n`;
  const hole = text.indexOf(RESULTS_HOLE);
  let first = true;
  for (const result of results(report, options, index)) {
    // Each result as JSON.stringify writes an item of that array: 8 spaces deep, a comma between.
    yield `${first ? text.slice(0, hole + RESULTS_HOLE.length - 1) : ','}\n${JSON.stringify(result, null, 2).replace(/^/gm, '        ')}`;
    first = false;
  }
  yield first ? text : `\n      ]${text.slice(hole + RESULTS_HOLE.length)}`;
}

/** Where the results go in the log written with none. */
const RESULTS_HOLE = '"results": []';

/** One SARIF result per problem of each invalid case. */
function* results(report: Report, options: ReportOptions, index: Map<string, number>): Generator<SarifResult> {
  for (const c of report.cases) {
    if (c.valid) continue;
    const file = fileOf(c);
    for (const issue of c.errors) {
      const pointer = issue.in === 'body' ? issue.pointer || '(the payload)' : `${issue.in} ${issue.pointer}`;
      const region =
        issue.line === undefined
          ? undefined
          : { startLine: issue.line, ...(issue.column === undefined ? {} : { startColumn: issue.column }) };
      yield {
        ruleId: issue.rule,
        ruleIndex: index.get(issue.rule) as number,
        level: 'error',
        message: { text: `${pointer}: ${issue.message}` },
        locations:
          file === undefined
            ? []
            : [
                {
                  physicalLocation: {
                    artifactLocation: { uri: uriOf(displayPath(file, options.cwd)) },
                    ...(region ? { region } : {}),
                  },
                },
              ],
        properties: {
          case: c.name,
          operationId: c.operationId,
          direction: c.direction,
          in: issue.in,
          pointer: issue.pointer,
          ...(issue.resultCode === undefined ? {} : { resultCode: issue.resultCode }),
        },
      };
    }
  }
}
