// The files that command-line arguments name: a file, a directory (its `.json` files, at any
// depth) or a glob pattern (`*`, `**`, `?`). Directories are walked with an explicit stack, never
// through symbolic links, and the walk stops at a bounded number of entries. Names are read as
// bytes: a name that is not UTF-8 text is kept as the bytes that name the file (as text it would
// name no file), and shown with those bytes escaped.
import { type Dirent, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A path as the walk found it: text, or its bytes when a name along it is not UTF-8 text. Node's
 * file functions take either; `shownPath` gives the name to show.
 */
export type InputPath = string | Buffer;

/** UTF-8 as it is: a byte order mark at the start of a name is a character of the name. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function textOf(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** A path to show: its text, each byte that is not part of UTF-8 text written as `\xNN`. */
export function shownPath(path: InputPath): string {
  if (typeof path === 'string') return path;
  const whole = textOf(path);
  if (whole !== null) return whole;
  let out = '';
  for (let i = 0; i < path.length; ) {
    const b = path[i] as number;
    // The length of the sequence its first byte announces (0: no sequence starts so).
    const length =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    const text = length && i + length <= path.length ? textOf(path.subarray(i, i + length)) : null;
    if (text !== null) {
      out += text;
      i += length;
    } else {
      out += `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`;
      i++;
    }
  }
  return out;
}

/** A key that tells paths apart, text or bytes. */
const pathKey = (path: InputPath): string => (typeof path === 'string' ? path : `\u0000${path.toString('latin1')}`);

/** `name` in `dir` (`.` is left out, as join does): text when both are, otherwise bytes. */
function joinPath(dir: InputPath, name: InputPath): InputPath {
  if (typeof dir === 'string' && typeof name === 'string') return join(dir, name);
  const head = typeof dir === 'string' ? Buffer.from(dir) : dir;
  const tail = typeof name === 'string' ? Buffer.from(name) : name;
  if (head.length === 1 && head[0] === 0x2e) return tail;
  return Buffer.concat(head[head.length - 1] === 0x2f ? [head, tail] : [head, Buffer.from('/'), tail]);
}

/** What expanding the arguments found: the files in order, and the arguments that name nothing. */
export interface ExpandedPaths {
  files: InputPath[];
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

/** A directory entry: its name as text to match (U+FFFD for bytes that are not UTF-8), and as the file system has it. */
interface Entry {
  name: string;
  raw: InputPath;
  dirent: Dirent<Buffer>;
}

function entries(dir: InputPath): Entry[] {
  let list: Dirent<Buffer>[];
  try {
    list = readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
  } catch {
    return [];
  }
  return list
    .map((dirent) => {
      const text = textOf(dirent.name);
      return { name: text ?? dirent.name.toString('utf8'), raw: text ?? dirent.name, dirent };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A file, or a symbolic link to one. */
function isFile(dir: InputPath, entry: Entry): boolean {
  if (entry.dirent.isFile()) return true;
  if (!entry.dirent.isSymbolicLink()) return false;
  try {
    return statSync(joinPath(dir, entry.raw)).isFile();
  } catch {
    return false;
  }
}

interface Walk {
  files: InputPath[];
  seen: number;
  maxFiles: number;
  maxEntries: number;
  truncated: boolean;
}

/** Adds the files under `root` whose names end with `extension` (hidden entries are left out). */
function walkDirectory(root: InputPath, extension: string, walk: Walk): void {
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop() as InputPath;
    const found = entries(dir);
    const subdirs: InputPath[] = [];
    for (const entry of found) {
      if (++walk.seen > walk.maxEntries || walk.files.length >= walk.maxFiles) {
        walk.truncated = true;
        return;
      }
      if (entry.name.startsWith('.')) continue;
      if (entry.dirent.isDirectory()) subdirs.push(joinPath(dir, entry.raw));
      else if (entry.name.endsWith(extension) && isFile(dir, entry)) walk.files.push(joinPath(dir, entry.raw));
    }
    for (const subdir of subdirs) stack.push(subdir);
  }
}

/** Adds the files matching a pattern: literal segments are followed, `*`/`?` match names, `**` any depth. */
function walkPattern(pattern: string, walk: Walk): void {
  const absolute = pattern.startsWith('/');
  const parts = pattern.split('/').filter((p, i) => p !== '' && !(p === '.' && i > 0));
  // The states: a directory and the index of the next pattern segment to match in it.
  const stack: [InputPath, number][] = [[absolute ? '/' : '.', 0]];
  const done = new Set<string>();
  while (stack.length) {
    const [dir, at] = stack.pop() as [InputPath, number];
    const key = `${at}\0${pathKey(dir)}`;
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
        if (entry.dirent.isDirectory() && !entry.name.startsWith('.')) stack.push([joinPath(dir, entry.raw), at]);
      }
      continue;
    }
    if (!isPattern(segment)) {
      const path = dir === '.' && !absolute ? segment : joinPath(dir, segment);
      if (last) {
        try {
          if (statSync(path).isFile()) walk.files.push(path);
        } catch {
          /* not there */
        }
      } else stack.push([path, at + 1]);
      continue;
    }
    const next: [InputPath, number][] = [];
    for (const entry of entries(dir)) {
      if (++walk.seen > walk.maxEntries || walk.files.length >= walk.maxFiles) {
        walk.truncated = true;
        return;
      }
      // Hidden names match only a segment that starts with a dot itself.
      if (entry.name.startsWith('.') && !segment.startsWith('.')) continue;
      if (!matchName(segment, entry.name)) continue;
      const path = dir === '.' && !absolute ? entry.raw : joinPath(dir, entry.raw);
      if (last) {
        if (isFile(dir, entry)) walk.files.push(path);
      } else if (entry.dirent.isDirectory()) next.push([path, at + 1]);
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
  const walk: Walk = {
    files: [],
    seen: 0,
    maxFiles: maxFiles + 1,
    maxEntries: options.maxEntries ?? 1_000_000,
    truncated: false,
  };
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
    // The walks go depth first: each argument's files are listed in path order (as shown).
    const found = walk.files.splice(before).map((file) => [shownPath(file), file] as const);
    found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [, file] of found) walk.files.push(file);
    if (walk.files.length === before) empty.push(arg);
    if (walk.truncated) break;
  }
  const seen = new Set<string>();
  const files = walk.files.filter((f) => !seen.has(pathKey(f)) && seen.add(pathKey(f)));
  return { files: files.slice(0, maxFiles), empty, truncated: walk.truncated || files.length > maxFiles };
}
