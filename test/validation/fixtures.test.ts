// Every invalid payload of test/fixtures is rejected at the expected JSON Pointer, for the expected
// rule, with the expected result code; and every operation and direction has fixtures.
import { describe, expect, it } from 'vitest';
import { operations, validate } from '../../src/index.js';
import { loadFixtures } from '../helpers/fixtures.js';

const fixtures = loadFixtures();

describe('invalid payloads', () => {
  it('exist for every operation, in both directions', () => {
    for (const op of operations) {
      for (const direction of ['request', 'response']) {
        expect(
          fixtures.some((f) => f.operationId === op.operationId && f.direction === direction),
          `${op.operationId} ${direction}`,
        ).toBe(true);
      }
    }
  });

  for (const fixture of fixtures) {
    it(`${fixture.file}: ${fixture.description}`, () => {
      expect(fixture.file.startsWith(`${fixture.operationId}/`)).toBe(true);
      const result = validate(fixture.operationId as any, fixture.direction, fixture.payload, { query: fixture.query, path: fixture.path });
      expect(result.valid).toBe(false);
      if (result.valid) return;
      for (const wanted of fixture.expect) {
        const hit = result.errors.find((e) => e.pointer === wanted.pointer && e.rule === wanted.rule);
        expect(hit, `${wanted.pointer} ${wanted.rule} in ${JSON.stringify(result.errors)}`).toBeDefined();
        if (wanted.resultCode) expect(hit?.resultCode).toBe(wanted.resultCode);
      }
    });
  }
});
