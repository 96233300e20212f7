// "Did you mean ...?" for a mistyped command, flag or operationId: the known name nearest to what
// was typed, by edit distance, when it is near enough to be the likely intent.

/** Names longer than this are not compared: a typo of a known name is never that long. */
const MAX_COMPARED = 64;

/**
 * The edit distance between two strings: insertions, deletions, substitutions and swaps of two
 * neighbouring characters (`mokc` for `mock`) cost 1 each (the optimal string alignment distance).
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  // Three rows: the one before the previous (for swaps), the previous, the current.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const same = a[i - 1] === b[j - 1];
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (same ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (before[j - 2] ?? 0) + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** How far a typed name may be from a known one: a third of the known name's length, at least 1, at most 3. */
const tolerance = (known: string): number => Math.min(3, Math.max(1, Math.floor(known.length / 3)));

/**
 * The known name nearest to `typed` (compared without regard to case), or undefined when none is
 * within its tolerance. On a tie, the first in `known` wins.
 */
export function closest(typed: string, known: readonly string[]): string | undefined {
  if (typed.length === 0 || typed.length > MAX_COMPARED) return undefined;
  const lower = typed.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase());
    if (distance <= tolerance(name) && distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** `; did you mean "x"?` for the nearest known name, or an empty string. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const name = closest(typed, known);
  return name === undefined ? '' : `; did you mean "${name}"?`;
}
