import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Process-level tests start other processes: the command line, Prism, the runtimes, Chromium,
 * curl, tsc or git. Such a file is named `<name>.process.test.ts`, in the folder of its area;
 * every other test file runs in process.
 */
export const PROCESS_SUFFIX = '.process.test.ts';
const PROCESS_LEVEL = [`test/**/*${PROCESS_SUFFIX}`];

// Three projects (test/README.md): `npm test` runs them all, `vitest run --project <name>` one.
export default defineConfig({
  test: {
    // The default reporter, then a note on the tests skipped for want of Redis or PostgreSQL.
    reporters: ['default', './test/helpers/servicesReporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // The package called in this process; the servers these tests start are in this process too.
      {
        extends: true,
        test: {
          name: 'in-process',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...PROCESS_LEVEL],
        },
      },
      { extends: true, test: { name: 'process', include: PROCESS_LEVEL } },
      // Type-level tests, checked by tsc through vitest's typecheck: the type tests and what they
      // import (`npm run typecheck` checks the whole tree).
      {
        extends: true,
        test: {
          name: 'types',
          include: [],
          typecheck: {
            enabled: true,
            only: true,
            include: ['test/**/*.test-d.ts'],
            tsconfig: './test/tsconfig.types.json',
          },
        },
      },
    ],
  },
});
