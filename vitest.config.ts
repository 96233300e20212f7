import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Process-level tests start other processes: the command line, Prism, the runtimes, Chromium,
 * curl, tsc or git. A new one is named `<name>.process.test.ts`; the files below were named
 * before that rule and are listed instead. Every other test file runs in process.
 */
export const PROCESS_SUFFIX = '.process.test.ts';
export const PROCESS_FILES = [
  'test/cli.test.ts',
  'test/cli.batch.test.ts',
  'test/contract.breaking.test.ts',
  'test/docs.browser.test.ts',
  'test/docs.samples.test.ts',
  'test/entries.test.ts',
  'test/hostile.test.ts',
  'test/inputs.test.ts',
  'test/mock.test.ts',
  'test/mock.hostile.test.ts',
  'test/sandbox.readme.test.ts',
  'test/sandbox.server.test.ts',
  'test/sandbox.webhooks.test.ts',
  'test/secrets.test.ts',
  'test/secrets.keys.test.ts',
  'test/sendWebhook.test.ts',
  'test/walkthrough.failures.test.ts',
  'test/webhookSuite.test.ts',
];
const PROCESS_LEVEL = [`test/**/*${PROCESS_SUFFIX}`, ...PROCESS_FILES];

// Three projects (test/README.md): `npm test` runs them all, `vitest run --project <name>` one.
export default defineConfig({
  test: {
    // The default reporter, then a note on the tests skipped for want of Redis or PostgreSQL.
    reporters: ['default', './test/helpers/servicesReporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // The package called in this process; the servers these tests start are in this process too.
      { extends: true, test: { name: 'in-process', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...PROCESS_LEVEL] } },
      { extends: true, test: { name: 'process', include: PROCESS_LEVEL } },
      // Type-level tests, checked by tsc through vitest's typecheck: the type tests and what they
      // import (`npm run typecheck` checks the whole tree).
      {
        extends: true,
        test: {
          name: 'types',
          include: [],
          typecheck: { enabled: true, only: true, include: ['test/**/*.test-d.ts'], tsconfig: './test/tsconfig.types.json' },
        },
      },
    ],
  },
});
