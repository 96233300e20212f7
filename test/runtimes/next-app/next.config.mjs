// @ts-nocheck: the config of the Next.js app that run.mjs builds in a fresh project.
//
// Standalone output: `next build` traces what the server needs into .next/standalone, which the
// harness starts as it is (nothing copied by hand). The package is not listed in
// serverExternalPackages: Next decides alone whether to bundle it or to trace it.
export default {
  output: 'standalone',
  // The project is the whole app: trace from here, not from a lockfile Next might find above it.
  outputFileTracingRoot: import.meta.dirname,
  turbopack: { root: import.meta.dirname },
};
