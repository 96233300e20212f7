// The phases of a run, in the order they run: what each answer says, what each request gets
// (refusals of requests that break a rule, acceptance of valid ones), state across calls, and the
// token notifications.
import type { Phase } from './phase.js';
import { requestsPhase } from './requests.js';
import { statePhase } from './state.js';

export type { Phase };

export const PHASES: readonly Phase[] = [requestsPhase, statePhase];
