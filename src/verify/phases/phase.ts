// What a phase of verify is: a name, the state changes it can drive, and its run.
import type { PhaseContext } from '../context.js';

/** A phase: it runs its properties in the context and keeps what it finds. */
export interface Phase {
  readonly name: string;
  /** The state changes it can drive (coverage lists each, even when not driven). */
  readonly changes?: readonly string[];
  run(ctx: PhaseContext): Promise<void>;
}
