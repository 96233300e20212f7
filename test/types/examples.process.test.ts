// The generated types against the contract's own payloads, compiled with the strictest settings as a
// merchant's program would: every named example is assignable to its operation's request or
// response type (and a request's body to the typed client's call argument), and every invalid
// fixture that breaks a conditional rule (an if/then of the contract, listed with its types in
// openapi/traceability.yaml) is refused by the compiler with a message that names the field.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { operations } from '../../src/index.js';
import { loadFixtures } from '../helpers/fixtures.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The rules the types enforce (traceability `types`), each with the location of its conditional. */
const typedRules = new Map(
  (
    YAML.parse(readFileSync(join(root, 'openapi/traceability.yaml'), 'utf8')) as {
      id: string;
      where: string;
      types?: string[];
    }[]
  )
    .filter((e) => e.types)
    .map((e) => [e.id, e.where]),
);

// The named examples of each operation and direction, from the bundled contract.
const doc = JSON.parse(readFileSync(join(root, 'generated/openapi.json'), 'utf8'));
const examplesOf = new Map<string, any>();
for (const item of [...Object.values<any>(doc.paths), ...Object.values<any>(doc.webhooks ?? {})])
  for (const op of Object.values<any>(item)) if (op?.operationId) examplesOf.set(op.operationId, op);
function named(operationId: string, direction: 'request' | 'response'): [string, unknown][] {
  const op = examplesOf.get(operationId);
  const media =
    direction === 'request'
      ? op.requestBody.content['application/json']
      : op.responses['200'].content['application/json'];
  return Object.entries<any>(media.examples).map(([name, ref]) => [
    name,
    doc.components.examples[ref.$ref.split('/').pop()].value,
  ]);
}

interface Line {
  what: string;
  code: string;
  /** A fixture: the compiler must refuse it. */
  refused?: boolean;
  /** The compiler's message names one of these: the field the fixture breaks, or the property its rule's if tests. */
  names?: string[];
}

/** The property the if of the conditional at (or around) `where` tests. */
function guardOf(where: string): string {
  const parts = where.slice(2).split('/');
  for (let n = parts.length; n > 0; n--) {
    const node = parts.slice(0, n).reduce((at: any, key) => at?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
    if (node?.if) return node.if.required?.[0] ?? node.if.not?.required?.[0];
  }
  throw new Error(`no conditional at ${where}`);
}

function program(): Line[] {
  const lines: Line[] = [];
  for (const info of operations) {
    const calls = info.kind === 'operation';
    for (const [direction, type] of [
      ['request', 'RequestOf'],
      ['response', 'ResponseOf'],
    ] as const) {
      for (const [name, value] of named(info.operationId, direction) as [string, any][]) {
        lines.push({ what: `example ${name}`, code: `${type}<'${info.operationId}'> = ${JSON.stringify(value)};` });
        if (calls && direction === 'request')
          lines.push({
            what: `example ${name} in a call`,
            code: `CallBody<'${info.operationId}'> = ${JSON.stringify(value.body)};`,
          });
      }
    }
  }
  for (const f of loadFixtures().filter((x) => typedRules.has(x.rule))) {
    const type = `${f.direction === 'request' ? 'RequestOf' : 'ResponseOf'}<'${f.operationId}'>`;
    const names = [f.expect[0].pointer.split('/').pop() as string, guardOf(typedRules.get(f.rule) as string)];
    lines.push({ what: `fixture ${f.file}`, code: `${type} = ${JSON.stringify(f.payload)};`, refused: true, names });
    if (f.direction === 'request' && operations.some((o) => o.operationId === f.operationId && o.kind === 'operation'))
      lines.push({
        what: `fixture ${f.file} in a call`,
        code: `CallBody<'${f.operationId}'> = ${JSON.stringify((f.payload as { body: unknown }).body)};`,
        refused: true,
        names,
      });
  }
  return lines;
}

describe('the generated types and the contract payloads', () => {
  it('accept every named example, and refuse every fixture of a conditional rule naming its field', () => {
    const lines = program();
    expect(lines.filter((l) => l.what.startsWith('example')).length).toBeGreaterThanOrEqual(
      Object.keys(doc.components.examples).length,
    );
    expect(lines.filter((l) => l.refused).length).toBeGreaterThanOrEqual(typedRules.size);
    const header = [
      "import type { GatewayClient, RequestOf, ResponseOf } from 'gateway-contract';",
      "type CallBody<O extends keyof GatewayClient> = Parameters<GatewayClient[O]>[0]['body'];",
    ];
    const source = [...header, ...lines.map((l, i) => `export const v${i}: ${l.code}`)].join('\n');
    const work = mkdtempSync(join(tmpdir(), 'gateway-contract-payload-types-'));
    try {
      writeFileSync(join(work, 'payloads.ts'), `${source}\n`);
      writeFileSync(join(work, 'package.json'), '{ "type": "module" }\n');
      writeFileSync(
        join(work, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            exactOptionalPropertyTypes: true,
            noEmit: true,
            skipLibCheck: false,
            types: ['node'],
            typeRoots: [join(root, 'node_modules/@types')],
            paths: { 'gateway-contract': [join(root, 'dist/index.d.ts')] },
          },
          files: [join(work, 'payloads.ts')],
        }),
      );
      const run = spawnSync(
        process.execPath,
        [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(work, 'tsconfig.json'), '--pretty', 'false'],
        {
          encoding: 'utf8',
        },
      );
      // Each diagnostic starts with `payloads.ts(<line>,<column>)`; its further lines are indented.
      const byLine = new Map<number, string>();
      let current = -1;
      for (const text of (run.stdout + run.stderr).split('\n')) {
        const at = /payloads\.ts\((\d+),\d+\)/.exec(text);
        if (at) current = Number(at[1]) - header.length - 1;
        else if (!/^\s/.test(text)) current = -1;
        if (current >= 0) byLine.set(current, `${byLine.get(current) ?? ''}${text}\n`);
      }
      const unexpected = [...byLine.keys()].filter((i) => lines[i] === undefined);
      expect(unexpected, run.stdout + run.stderr).toEqual([]);
      lines.forEach((line, i) => {
        const message = byLine.get(i);
        if (!line.refused) expect(message, line.what).toBeUndefined();
        else expect(message, `${line.what} compiles`).toBeDefined();
        if (line.names) expect(message, line.what).toMatch(new RegExp(`[Pp]roperty '"?(${line.names.join('|')})"?'`));
      });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 120_000);
});
