// The files that command-line arguments name: a file, a directory (its `.json` files, at any
// depth) or a glob pattern (`*`, `**`, `?`). Directories are walked with an explicit stack, never
// through symbolic links, and the walk stops at a bounded number of entries.
import type { Dirent } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// node:fs through require: an ES import of it also loads its streams and promises, which a start
// that never reads a file through them need not pay for.
const { readdirSync, statSync } = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

/** What expanding the arguments found: the files in order, and the arguments that name nothing. */
export interface ExpandedPaths {
  files: string[];
  /** Arguments (directories or patterns) that name no file. */
  empty: string[];
  /** The walk stopped at `maxFiles` files or `maxEntries` directory entries. */
  truncated: boolean;
}

export interface ExpandOptions {
  /** Files listed at most (default 100 000). */
  maxFiles?: number | undefined;
  /** Directory entries looked at, at most (default 1 000 000). */
  maxEntries?: number | undefined;
  /** The extension of the files a directory contributes (default `.json`). */
  extension?: string | undefined;
}

/** Whether an argument is a pattern rather than a path. */
export const isPattern = (arg: string): boolean => /[*?]/.test(arg);

/**
 * Whether a name matches one segment of a pattern: `*` any run of characters, `?` one character
 * (a code point), anything else itself. Greedy, with one place to go back to (the last `*` seen):
 * a star never needs more than the last one's choice revisited, so the work is at most the
 * product of the two lengths, where a regular expression of several `[^/]*` backtracks
 * exponentially (`*a*a*a*a*b.json` against a name of 255 `a`s took minutes). `work.steps` counts
 * the loop's turns, for tests.
 */
export function matchName(segment: string, name: string, work?: { steps: number }): boolean {
  const p = Array.from(segment);
  const n = Array.from(name);
  let i = 0;
  let j = 0;
  // The last star's place in the pattern, and the place in the name it is tried up to.
  let star = -1;
  let mark = 0;
  let steps = 0;
  while (j < n.length) {
    steps++;
    const c = p[i];
    if (c !== undefined && c !== '*' && (c === '?' || c === n[j])) {
      i++;
      j++;
    } else if (c === '*') {
      star = i++;
      mark = j;
    } else if (star >= 0) {
      // The last star takes one character more; the rest of the pattern is tried again after it.
      i = star + 1;
      j = ++mark;
    } else {
      if (work) work.steps += steps;
      return false;
    }
  }
  while (p[i] === '*') i++;
  if (work) work.steps += steps;
  return i === p.length;
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/** A file, or a symbolic link to one. */
function isFile(dir: string, entry: Dirent): boolean {
  if (entry.isFile()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(join(dir, entry.name)).isFile();
  } catch {
    return false;
  }
}

interface Walk {
  files: string[];
  seen: number;
  maxFiles: number;
  maxEntries: number;
  truncated: boolean;
}

/** Adds the files under `root` whose names end with `extension` (hidden entries are left out). */
function walkDirectory(root: string, extension: string, walk: Walk): void {
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop() as string;
    const found = entries(dir);
    const subdirs: string[] = [];
    for (const entry of found) {
      if (++walk.seen > walk.maxEntries || walk.files.length >= walk.maxFiles) {
        walk.truncated = true;
        return;
      }
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) subdirs.push(join(dir, entry.name));
      else if (entry.name.endsWith(extension) && isFile(dir, entry)) walk.files.push(join(dir, entry.name));
    }
    for (const subdir of subdirs) stack.push(subdir);
  }
}

/** Adds the files matching a pattern: literal segments are followed, `*`/`?` match names, `**` any depth. */
function walkPattern(pattern: string, walk: Walk): void {
  const absolute = pattern.startsWith('/');
  const parts = pattern.split('/').filter((p, i) => p !== '' && !(p === '.' && i > 0));
  // The states: a directory and the index of the next pattern segment to match in it.
  const stack: [string, number][] = [[absolute ? '/' : '.', 0]];
  const done = new Set<string>();
  while (stack.length) {
    const [dir, at] = stack.pop() as [string, number];
    const key = `${at}\0${dir}`;
    if (done.has(key)) continue;
    done.add(key);
    const segment = parts[at];
    if (segment === undefined) continue;
    const last = at === parts.length - 1;
    if (segment === '**') {
      // Zero directories: the rest of the pattern here; one or more: the same `**` one level down.
      stack.push([dir, at + 1]);
      if (last) {
        // A trailing `**` names every file below.
        walkDirectory(dir, '', walk);
        continue;
      }
      for (const entry of entries(dir)) {
        if (++walk.seen > walk.maxEntries) {
          walk.truncated = true;
          return;
        }
        if (entry.isDirectory() && !entry.name.startsWith('.')) stack.push([join(dir, entry.name), at]);
      }
      continue;
    }
    if (!isPattern(segment)) {
      const path = dir === '.' && !absolute ? segment : join(dir, segment);
      if (last) {
        try {
          if (statSync(path).isFile()) walk.files.push(path);
        } catch {
          /* not there */
        }
      } else stack.push([path, at + 1]);
      continue;
    }
    const next: [string, number][] = [];
    for (const entry of entries(dir)) {
      if (++walk.seen > walk.maxEntries || walk.files.length >= walk.maxFiles) {
        walk.truncated = true;
        return;
      }
      // Hidden names match only a segment that starts with a dot itself.
      if (entry.name.startsWith('.') && !segment.startsWith('.')) continue;
      if (!matchName(segment, entry.name)) continue;
      const path = dir === '.' && !absolute ? entry.name : join(dir, entry.name);
      if (last) {
        if (isFile(dir, entry)) walk.files.push(path);
      } else if (entry.isDirectory()) next.push([path, at + 1]);
    }
    for (const state of next) stack.push(state);
  }
}

/**
 * The files named by `args`, in the order given (a directory's and a pattern's in name order),
 * each listed once. A path that is neither a directory nor a pattern is kept as it is, even when
 * it does not exist: reading it will say why it cannot be read.
 */
export function expandPaths(args: readonly string[], options: ExpandOptions = {}): ExpandedPaths {
  const maxFiles = options.maxFiles ?? 100_000;
  // One file more than allowed is looked for: finding it is what says the list was cut.
  const walk: Walk = { files: [], seen: 0, maxFiles: maxFiles + 1, maxEntries: options.maxEntries ?? 1_000_000, truncated: false };
  const extension = options.extension ?? '.json';
  const empty: string[] = [];
  for (const arg of args) {
    if (walk.files.length >= walk.maxFiles) {
      walk.truncated = true;
      break;
    }
    const before = walk.files.length;
    let directory = false;
    if (!isPattern(arg)) {
      try {
        directory = statSync(arg).isDirectory();
      } catch {
        directory = false;
      }
      if (!directory) {
        walk.files.push(arg);
        continue;
      }
      walkDirectory(arg, extension, walk);
    } else walkPattern(arg, walk);
    // The walks go depth first: each argument's files are listed in path order.
    for (const file of walk.files.splice(before).sort()) walk.files.push(file);
    if (walk.files.length === before) empty.push(arg);
    if (walk.truncated) break;
  }
  const seen = new Set<string>();
  const files = walk.files.filter((f) => !seen.has(f) && seen.add(f));
  return { files: files.slice(0, maxFiles), empty, truncated: walk.truncated || files.length > maxFiles };
}
