// The phases of a run, in the order they run: what each answer says, what each request gets
// (refusals of requests that break a rule, acceptance of valid ones), state across calls, and the
// token notifications.
import type { PhaseContext } from '../context.js';
import { requestsPhase } from './requests.js';
import { statePhase } from './state.js';

/** A phase: it runs its properties in the context and keeps what it finds. */
export interface Phase {
  readonly name: string;
  /** The state changes it can drive (coverage lists each, even when not driven). */
  readonly changes?: readonly string[];
  run(ctx: PhaseContext): Promise<void>;
}

export const PHASES: readonly Phase[] = [requestsPhase, statePhase];
