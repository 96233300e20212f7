// Keeps openapi/traceability.yaml honest: every rule is enforced where it says (a schema location
// that exists, a named check that exists, or a reason), every enforced rule has a fixture that
// fails for that very rule, and every conditional of the contract is in the record.

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { namedChecks, validate } from '../../src/index.js';
import { bundledContract, resolve, walk } from '../helpers/contract.js';
import { loadFixtures } from '../helpers/fixtures.js';

interface Entry {
  id: string;
  source: string;
  rule: string;
  enforcement: 'schema' | 'check' | 'not-checkable' | 'documented';
  where?: string;
  check?: string;
  reason?: string;
  note?: string;
  fixtures?: string[];
  exercised?: string[];
  types?: string[];
}

const entries: Entry[] = YAML.parse(readFileSync(new URL('../../openapi/traceability.yaml', import.meta.url), 'utf8'));
const doc = await bundledContract();
const fixtures = new Map(loadFixtures().map((f) => [f.file, f]));

describe('traceability record', () => {
  it('has unique ids and complete entries', () => {
    const ids = entries.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of entries) {
      expect(e.source && e.rule, e.id).toBeTruthy();
      expect(['schema', 'check', 'not-checkable', 'documented'], e.id).toContain(e.enforcement);
      if (e.enforcement === 'schema') expect(e.where, e.id).toMatch(/^#\//);
      if (e.enforcement === 'check') expect(Object.keys(namedChecks), e.id).toContain(e.check);
      if (e.enforcement === 'not-checkable') expect(e.reason?.length ?? 0, e.id).toBeGreaterThan(10);
      if (e.where) expect(resolve(doc, e.where), `${e.id}: ${e.where}`).toBeDefined();
    }
  });

  for (const e of entries.filter((x) => x.enforcement === 'schema' || x.enforcement === 'check')) {
    it(`${e.id} is shown by a fixture that fails for that rule`, () => {
      expect(e.fixtures?.length ?? 0).toBeGreaterThan(0);
      for (const file of e.fixtures ?? []) {
        const fixture = fixtures.get(file);
        expect(fixture, file).toBeDefined();
        expect(fixture!.rule, file).toBe(e.id);
        const result = validate(fixture!.operationId as any, fixture!.direction, fixture!.payload, {
          query: fixture!.query,
          path: fixture!.path,
        });
        expect(result.valid, file).toBe(false);
        if (result.valid) continue;
        const shown =
          e.enforcement === 'schema'
            ? result.errors.some((err) => err.schemaPath === e.where || err.schemaPath?.startsWith(`${e.where}/`))
            : result.errors.some((err) => err.rule === e.check);
        expect(shown, `${file} must fail at ${e.where ?? e.check}: ${JSON.stringify(result.errors)}`).toBe(true);
      }
    });
  }

  it('points every rule a payload cannot show to tests that exist', () => {
    const exercised = entries.filter((e) => e.exercised);
    expect(exercised.length).toBeGreaterThan(0);
    for (const e of exercised) {
      expect(e.enforcement, e.id).not.toBe('schema');
      for (const file of e.exercised!)
        expect(existsSync(new URL(`../../${file}`, import.meta.url)), `${e.id}: ${file}`).toBe(true);
    }
  });

  it('lists the type-level tests of every conditional rule, and each names the rule', () => {
    // A rule of a conditional: the location is a schema's if/then/else, or the schema holding one.
    const inConditional = (where: string) =>
      /\/(if|then|else)(\/|$)/.test(where) || resolve(doc, where)?.if !== undefined;
    const conditional = entries.filter((e) => e.enforcement === 'schema' && e.where && inConditional(e.where));
    expect(conditional.length).toBeGreaterThan(0);
    for (const e of conditional) expect(e.types?.length ?? 0, `${e.id} has no types`).toBeGreaterThan(0);
    for (const e of entries.filter((x) => x.types)) {
      expect(conditional, `${e.id} lists types but is not a conditional rule`).toContain(e);
      for (const file of e.types!) {
        const url = new URL(`../../${file}`, import.meta.url);
        expect(existsSync(url), `${e.id}: ${file}`).toBe(true);
        expect(readFileSync(url, 'utf8'), `${file} names ${e.id}`).toContain(e.id);
      }
    }
  });

  it('names every fixture under the rule it shows', () => {
    const listed = new Set(entries.flatMap((e) => e.fixtures ?? []));
    for (const [file, fixture] of fixtures) {
      expect(listed.has(file), `${file} is not listed in the record`).toBe(true);
      expect(
        entries.some((e) => e.id === fixture.rule),
        `${file}: unknown rule ${fixture.rule}`,
      ).toBe(true);
    }
  });

  it('covers every conditional of the contract and every named check', () => {
    const wheres = entries.map((e) => e.where).filter(Boolean) as string[];
    const covered = (pointer: string) =>
      wheres.some((w) => `#${pointer}` === w || `#${pointer}`.startsWith(`${w}/`) || w.startsWith(`#${pointer}/`));
    const missing: string[] = [];
    walk(doc.components.schemas, (node, pointer) => {
      const at = `/components/schemas${pointer}`;
      if (node.if && !covered(at)) missing.push(`${at} (if/then)`);
      if (
        Array.isArray(node.oneOf) &&
        !node.oneOf.every((b: any) => b.properties?.resultCode || b.properties?.statusCode)
      ) {
        node.oneOf.forEach((b: any, i: number) => {
          if (b.required?.length > 1 && !covered(`${at}/oneOf/${i}`)) missing.push(`${at}/oneOf/${i}`);
        });
      }
      for (const [name, prop] of Object.entries<any>(node.properties ?? {}))
        if (prop === false && !covered(`${at}/properties/${name}`))
          missing.push(`${at}/properties/${name} (forbidden)`);
    });
    expect(missing).toEqual([]);
    for (const name of Object.keys(namedChecks))
      expect(
        entries.some((e) => e.check === name),
        name,
      ).toBe(true);
    for (const op of ['Webhook', 'Tokenize', 'ListSubscriptions', 'Payment', 'ModifyOrder', 'CreateSubscription']) {
      expect(
        wheres.some((w) => w.startsWith(`#/components/schemas/${op}ResultInfo`)),
        `${op}ResultInfo`,
      ).toBe(true);
    }
    expect(
      wheres.some((w) => w.startsWith('#/components/schemas/PreAuthResult')),
      'PreAuthResult',
    ).toBe(true);
  });
});
