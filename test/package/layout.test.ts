// The layout of src/ as its README draws it: each folder imports only those listed above it in the
// README's table (nothing points back up the pipeline), nothing imports scripts/, and no
// hand-written declaration file stands beside the sources.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const src = join(root, 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The table's first column, in order: `types.ts`, `json/`, ... */
const order = [...readFileSync(join(src, 'README.md'), 'utf8').matchAll(/^\| `([^`]+)`/gm)].map((m) =>
  (m[1] as string).replace(/\/$/, '').replace(/\.ts$/, ''),
);
const layerOf = (file: string) =>
  relative(src, file)
    .split('/')[0]
    ?.replace(/\.(ts|js)$/, '') ?? '';

describe('the layout of src/', () => {
  const sources = files(src).filter((f) => f.endsWith('.ts'));

  it('names every top-level part of src/ in its README, in order', () => {
    expect(order.length).toBeGreaterThan(5);
    for (const f of sources) expect(order, relative(root, f)).toContain(layerOf(f));
  });

  it('imports only downwards: a part never imports one listed after it, nor scripts/', () => {
    const against: string[] = [];
    for (const file of sources) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)) {
        const target = normalize(join(dirname(file), m[1] as string));
        if (target.startsWith(join(root, 'scripts'))) against.push(`${relative(root, file)} -> ${m[1]}`);
        if (!target.startsWith(src)) continue;
        const from = layerOf(file);
        const to = layerOf(target);
        if (from !== to && order.indexOf(to) > order.indexOf(from)) against.push(`${relative(root, file)} -> ${m[1]}`);
      }
    }
    expect(against).toEqual([]);
  });

  it('holds no hand-written declarations and no JavaScript', () => {
    expect(files(src).filter((f) => f.endsWith('.d.ts') || f.endsWith('.js'))).toEqual([]);
  });
});
