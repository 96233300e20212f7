// Every `pattern` of the contract is free of catastrophic backtracking, as judged by recheck (a
// ReDoS checker), so that hostile input cannot stall a validator. Each pattern's worst case is
// timed in the benchmark (`npm run bench -- --only patterns`).
import { describe, expect, it } from 'vitest';
import { checkSync } from 'recheck';
import { bundledContract, walk } from './helpers/contract.js';

const doc = await bundledContract();
const patterns = new Map<string, string[]>();
walk(doc, (node, pointer) => {
  if (typeof node.pattern === 'string') patterns.set(node.pattern, [...(patterns.get(node.pattern) ?? []), pointer]);
});

describe('patterns', () => {
  it('exist in the contract', () => {
    expect(patterns.size).toBeGreaterThan(10);
  });

  for (const [pattern, where] of patterns) {
    it(`is safe from catastrophic backtracking: ${pattern}`, () => {
      const verdict = checkSync(pattern, 'u', { timeout: 10_000 });
      expect(verdict.status, `${where[0]}: ${JSON.stringify((verdict as any).attack ?? (verdict as any).error ?? '')}`).toBe('safe');
    });
  }

  it('recheck does flag a vulnerable pattern (the check can fail)', () => {
    expect(checkSync('^(a+)+$', '').status).toBe('vulnerable');
  });
});
