// `gateway-contract/verify`: prove that a running implementation of the contract keeps it (Node).
// `verify()` runs the checks against a service with its fixtures; `sandboxFixtures()` are the
// package's sandbox's; `verifyReport()` gives the report the formats of `gateway-contract/reports` write.

export type {
  FixtureCard,
  FixtureInstruments,
  FixturesContext,
  FixturesFactory,
  IssuerMove,
  VerifyFixtures,
} from './fixtures.js';
export { fixturesProblem } from './fixtures.js';
export { verifyReport, writeFindingsHar } from './report.js';
export type { VerifyFinding, VerifyOptions, VerifyResult } from './run.js';
export { VERIFY_DEFAULTS, verify } from './run.js';
export { sandboxFixtures, sandboxMerchant } from './sandboxFixtures.js';
export type { CheckKind, Exchange, Finding } from './types.js';
