// What a phase of verify works with: the target, the run's budget, the fixtures, a seed, ids fresh
// for this run, and trials. A trial is one attempt (one generated request, one sequence of calls):
// its calls are sent, each answer checked, and what the phase finds wrong is a finding whose steps
// are the trial's exchanges so far. A property runs trials with fast-check; when one fails, fast-check
// shrinks it to the shortest trial that still fails, and that trial's findings are the ones kept.
import fc from 'fast-check';
import type { OperationId } from '../../generated/operations.js';
import { checkExchange } from './checks.js';
import type { Coverage } from './coverage.js';
import type { VerifyFixtures } from './fixtures.js';
import { send } from './send.js';
import {
  type Budget,
  BudgetSpent,
  budgetLeft,
  type CheckKind,
  type Exchange,
  type Finding,
  type RequestSpec,
  type Target,
} from './types.js';

/** A finding with how to replay the trial that shows it. */
export interface KeptFinding extends Finding {
  /** The check (property) that found it. */
  check: string;
  /** `--replay` value that reruns exactly the shrunk trial (with the same `--seed`). */
  replay?: string | undefined;
}

/** One attempt: its exchanges, in order, and what was found wrong. */
export class Trial {
  readonly exchanges: Exchange[] = [];
  readonly findings: Finding[] = [];
  constructor(private readonly ctx: PhaseContext) {}

  /** Sends one request, checks its answer (every problem is a finding of kind `answer`), counts it. */
  async call(spec: RequestSpec): Promise<Exchange> {
    const exchange = await send(this.ctx.target, this.ctx.budget, spec);
    this.exchanges.push(exchange);
    this.ctx.coverage.exchange(exchange);
    for (const f of checkExchange(this.ctx.target, exchange)) this.findings.push({ ...f, steps: [...this.exchanges] });
    return exchange;
  }

  /** Records what the phase found wrong; its steps are the trial's exchanges so far. */
  fail(kind: CheckKind, rule: string, operationId: OperationId, message: string, pointer?: string): void {
    this.findings.push({
      kind,
      rule,
      operationId,
      message,
      ...(pointer === undefined ? {} : { pointer }),
      steps: [...this.exchanges],
    });
  }

  get ok(): boolean {
    return this.findings.length === 0;
  }
}

export interface PhaseContext {
  readonly target: Target;
  readonly budget: Budget;
  readonly fixtures: VerifyFixtures;
  readonly coverage: Coverage;
  /** The run's seed (`--seed`). */
  readonly seed: number;
  /** How many trials a property runs (`--runs`, scaled down when the budget is small). */
  readonly runs: number;
  /** A prefix fresh for this run (orders, requestIds and custIds are unique per run). */
  readonly runId: string;
  /** A value unique within the run, with the run's prefix: `<runId><n>`. */
  fresh(prefix: string): string;
  /** Keeps a finding outside a property (the runner keeps the shortest of each rule and place). */
  keep(finding: KeptFinding): void;
  /** `--replay`: the check and fast-check path to replay, when one is asked for. */
  readonly replay?: { check: string; path: string } | undefined;
  /** Says that a check (a property) ran, for the report. */
  checked(name: string): void;
  /** Notes a phase adds to the report (what it could not check, and why). */
  note(text: string): void;
}

/** The name of a check: it is the first part of a `--replay` value. */
const CHECK_NAME = /^[a-z][A-Za-z0-9.-]{0,63}$/;

/**
 * Runs `predicate` on values of `arbitrary` as a fast-check property named `name`: each run gets a
 * fresh trial; a trial with findings fails the property, fast-check shrinks it, and the findings of
 * the smallest failing trial are kept with the `--replay` value that reruns it. The budget ends the
 * property quietly: a trial that meets it passes.
 */
export async function runProperty<T>(
  ctx: PhaseContext,
  name: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T, trial: Trial) => Promise<void>,
  options: { runs?: number; examples?: readonly T[] } = {},
): Promise<void> {
  if (!CHECK_NAME.test(name)) throw new TypeError(`A check's name is letters, digits, dots and dashes: ${name}`);
  if (ctx.replay && ctx.replay.check !== name) return;
  ctx.checked(name);
  let smallest: Trial | undefined;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (!budgetLeft(ctx.budget)) return true;
    const trial = new Trial(ctx);
    try {
      await predicate(value, trial);
    } catch (error) {
      if (error instanceof BudgetSpent) return true;
      throw error;
    }
    if (!trial.ok) smallest = trial;
    return trial.ok;
  });
  const details = await fc.check(property, {
    seed: ctx.seed,
    numRuns: options.runs ?? ctx.runs,
    endOnFailure: false,
    // Values every run tries first (sequences that reach each state), then generated ones.
    examples: (options.examples ?? []).map((example): [T] => [example]),
    ...(ctx.replay ? { path: ctx.replay.path } : {}),
    interruptAfterTimeLimit: Math.max(1, ctx.budget.deadline - Date.now()),
  });
  if (details.failed && smallest) {
    const replay = details.counterexamplePath ? `${name}:${details.counterexamplePath}` : undefined;
    for (const f of smallest.findings) ctx.keep({ ...f, check: name, replay });
  } else if (details.failed && details.errorInstance) {
    // The phase itself failed (a fixture threw): said once, not a finding of the service.
    const message =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    ctx.note(`${name}: stopped: ${message.slice(0, 300)}`);
  }
}
