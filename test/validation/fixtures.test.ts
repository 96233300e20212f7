// Every invalid payload of test/fixtures is rejected with exactly the expected issues: each JSON
// Pointer, rule and result code it names, and no other; and every operation and direction has fixtures.
import { describe, expect, it } from 'vitest';
import { operations, validate } from '../../src/index.js';
import { loadFixtures } from '../helpers/fixtures.js';

const fixtures = loadFixtures();
/** One issue as a line, so that two lists compare whatever their order: pointer, rule, result code. */
const issue = (e: { pointer: string; rule: string; resultCode?: string | undefined }) =>
  `${e.pointer} ${e.rule} ${e.resultCode ?? '(no code)'}`;

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
      const result = validate(fixture.operationId as any, fixture.direction, fixture.payload, {
        query: fixture.query,
        path: fixture.path,
      });
      expect(result.valid).toBe(false);
      if (result.valid) return;
      const found = result.errors.map(({ pointer, rule, resultCode }) => issue({ pointer, rule, resultCode }));
      expect(found.sort()).toEqual(fixture.expect.map(issue).sort());
    });
  }
});
