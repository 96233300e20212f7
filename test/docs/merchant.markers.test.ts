// The shell blocks of the README and the guides, as scripts/check-merchant.mjs reads them: each
// block that cannot run as printed in a merchant's app says so, with its reason, in a marker the
// reader sees in the page's source; the rest run (the check runs them in CI: npm run check:merchant).
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { blocksOf } from '../../scripts/check-merchant.mjs';

const docs = fileURLToPath(new URL('../../docs', import.meta.url));
const pages = [
  'README.md',
  ...readdirSync(docs)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const shellBlocks = pages.flatMap((page) => blocksOf(page).filter((b) => ['sh', 'bash', 'shell'].includes(b.lang)));

describe("the guides' shell blocks for the merchant check", () => {
  it('are marked only with a known marker, and every skip gives its reason', () => {
    const wrong = shellBlocks.filter(
      (b) =>
        (b.mark !== undefined && !['skip', 'server', 'webhook-receiver'].includes(b.mark)) ||
        (b.mark === 'skip' && !b.reason),
    );
    expect(wrong.map((b) => `${b.page}:${b.line}`)).toEqual([]);
  });

  it('run as printed where they can: the mock, the sandbox and its control calls, the journeys against the sandbox', () => {
    const runs = shellBlocks.filter((b) => b.mark !== 'skip');
    expect(runs.length).toBeGreaterThanOrEqual(7);
    for (const [page, text] of [
      ['README.md', 'npx gateway-contract mock'],
      ['docs/mock.md', 'npx gateway-contract mock'],
      ['docs/sandbox.md', 'npx gateway-contract sandbox'],
      ['docs/journeys.md', 'npx redocly respect'],
    ] as const)
      expect(
        runs.some((b) => b.page === page && b.code.includes(text)),
        `${page}: ${text}`,
      ).toBe(true);
  });

  it('are skipped only where they need what only the merchant has, or the repository', () => {
    const skipped = shellBlocks.filter((b) => b.mark === 'skip');
    for (const b of skipped)
      expect(b.reason, `${b.page}:${b.line}`).toMatch(
        /needs your|needs the service's|the repository's own|installs from the registry/,
      );
    // Staging needs the service's addresses and the merchant's key: never run here.
    for (const b of shellBlocks.filter((b) => b.code.includes('$GATEWAY_URL')))
      expect(b.mark, `${b.page}:${b.line}`).toBe('skip');
  });
});
