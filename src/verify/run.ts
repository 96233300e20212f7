// A run of verify: the target and its fixtures, the bounds, the phases one after the other, and
// what the run found: each rule broken once per place (the shortest sequence that shows it kept),
// with coverage of operations, result codes and state changes.
import type { OperationCoverage } from '../report/model.js';
import { type KeptFinding, type PhaseContext, Trial } from './context.js';
import { Coverage, type StateChangeCoverage } from './coverage.js';
import type { VerifyFixtures } from './fixtures.js';
import { PHASES, type Phase } from './phases/index.js';
import type { Budget, Target } from './types.js';

export interface VerifyOptions {
  gatewayUrl: string;
  routerUrl: string;
  /** The merchant key; never printed. */
  key: string;
  mid: string;
  /** The clientId of the key (default `C11`, the sandbox's). */
  clientId?: string | undefined;
  fixtures: VerifyFixtures;
  /** Makes a run reproducible (default: drawn at random, and reported). */
  seed?: number | undefined;
  /** Trials per property (default 20). */
  runs?: number | undefined;
  /** Requests of the contract sent at most (default 2 000). */
  maxRequests?: number | undefined;
  /** The run's time limit in ms (default 60 000): nothing is sent after it. */
  timeLimitMs?: number | undefined;
  /** How long one answer may take (ms, default 10 000). */
  timeoutMs?: number | undefined;
  /** `<property>:<path>` of a finding: reruns exactly that trial (with its `seed`). */
  replay?: string | undefined;
  /** Only the phases named (default: every phase). */
  phases?: readonly string[] | undefined;
  /** Called after each property with the requests sent so far. */
  onProgress?: ((sent: number) => void) | undefined;
}

export interface VerifyFinding extends KeptFinding {
  /** How many trials showed this rule broken at this place. */
  occurrences: number;
}

export interface VerifyResult {
  seed: number;
  findings: VerifyFinding[];
  /** The properties that ran, with their phase. */
  checks: { phase: string; name: string }[];
  coverage: OperationCoverage[];
  stateChanges: StateChangeCoverage[];
  requests: number;
  notifications: number;
  durationMs: number;
  /** The run met its bound before every property had its trials. */
  bounded: boolean;
  notes: string[];
}

export const VERIFY_DEFAULTS = Object.freeze({
  runs: 20,
  maxRequests: 2_000,
  timeLimitMs: 60_000,
  timeoutMs: 10_000,
  maxAnswerBytes: 1024 * 1024,
});

/** The most findings a run keeps (one per rule and place): past it, they are counted only. */
const MAX_FINDINGS = 200;

const placeOf = (f: KeptFinding) => `${f.kind}\u0000${f.rule}\u0000${f.operationId}\u0000${f.pointer ?? ''}`;

/** Runs verify against a service: every phase within the bounds, and what was found. */
export async function verify(options: VerifyOptions, phases: readonly Phase[] = PHASES): Promise<VerifyResult> {
  const started = Date.now();
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const target: Target = {
    gatewayUrl: options.gatewayUrl,
    routerUrl: options.routerUrl,
    key: options.key,
    mid: options.mid,
    clientId: options.clientId ?? 'C11',
    timeoutMs: options.timeoutMs ?? VERIFY_DEFAULTS.timeoutMs,
    maxAnswerBytes: VERIFY_DEFAULTS.maxAnswerBytes,
  };
  const budget: Budget = {
    maxRequests: options.maxRequests ?? VERIFY_DEFAULTS.maxRequests,
    deadline: started + (options.timeLimitMs ?? VERIFY_DEFAULTS.timeLimitMs),
    sent: 0,
  };
  const chosen = options.phases ? phases.filter((p) => options.phases?.includes(p.name)) : phases;
  const coverage = new Coverage(chosen.flatMap((p) => p.changes ?? []));
  const kept = new Map<string, VerifyFinding>();
  const notes: string[] = [];
  const checks: { phase: string; name: string }[] = [];
  let counter = 0;
  const runId = `V${started.toString(36).toUpperCase()}${Math.floor(Math.random() * 36 ** 3)
    .toString(36)
    .toUpperCase()}`;
  const replay = parseReplay(options.replay);
  let phaseName = '';
  const ctx: PhaseContext = {
    target,
    budget,
    fixtures: options.fixtures,
    coverage,
    seed,
    runs: options.runs ?? VERIFY_DEFAULTS.runs,
    runId,
    fresh: (prefix) => `${prefix}${runId}${(counter++).toString(36).toUpperCase()}`,
    keep(finding) {
      const place = placeOf(finding);
      const known = kept.get(place);
      if (known) {
        known.occurrences += 1;
        if (finding.steps.length < known.steps.length) kept.set(place, { ...finding, occurrences: known.occurrences });
      } else if (kept.size < MAX_FINDINGS) kept.set(place, { ...finding, occurrences: 1 });
    },
    ...(replay ? { replay } : {}),
    note: (text) => {
      if (notes.length < 50) notes.push(text);
    },
    checked: (name) => {
      checks.push({ phase: phaseName, name });
    },
  };
  for (const phase of chosen) {
    phaseName = phase.name;
    await phase.run(ctx);
    options.onProgress?.(budget.sent);
  }
  return {
    seed,
    findings: [...kept.values()],
    checks,
    coverage: coverage.operations(coverage.notifications),
    stateChanges: coverage.stateChanges(),
    requests: budget.sent,
    notifications: coverage.notifications,
    durationMs: Date.now() - started,
    bounded: budget.sent >= budget.maxRequests || Date.now() >= budget.deadline,
    notes,
  };
}

/** `<check>:<fast-check path>` as given to `--replay`. */
function parseReplay(value: string | undefined): { check: string; path: string } | undefined {
  if (value === undefined) return undefined;
  const match = /^([a-z][A-Za-z0-9.-]{0,63}):([0-9]+(?::[0-9]+)*)$/.exec(value);
  if (!match?.[1] || !match[2]) throw new TypeError('--replay takes the value a finding printed: <check>:<path>.');
  return { check: match[1], path: match[2] };
}

export { Trial };
