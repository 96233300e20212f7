// The layout of src/ as its README draws it: each folder imports only those listed above it in the
// README's table (nothing points back up the pipeline), nothing imports scripts/, and no
// hand-written declaration file stands beside the sources.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const src = join(root, 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
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

  it('takes diagnostics_channel from the runtime in one module, which the tracing of the client and the receiver share', () => {
    const naming = sources
      .filter((f) => readFileSync(f, 'utf8').includes('node:diagnostics_channel'))
      .map((f) => relative(root, f));
    expect(naming).toEqual(['src/runtime/diagnostics.ts']);
  });

  it('holds no hand-written declarations and no JavaScript', () => {
    expect(files(src).filter((f) => f.endsWith('.d.ts') || f.endsWith('.js'))).toEqual([]);
  });
});

describe('rooms a reader can step into', () => {
  /** The sources of the package and of its scripts. */
  const readable = [
    ...files(src).filter((f) => f.endsWith('.ts')),
    ...files(join(root, 'scripts')).filter((f) => f.endsWith('.mjs')),
  ];

  it('no source file over 500 lines and no function over 200, in src/ and scripts/', () => {
    const long: string[] = [];
    for (const file of readable) {
      const text = readFileSync(file, 'utf8');
      const lines = text.split('\n').length;
      if (lines > 500) long.push(`${relative(root, file)}: ${lines} lines`);
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
          const last = source.getLineAndCharacterOfPosition(node.end).line;
          if (last - first + 1 > 200)
            long.push(`${relative(root, file)}:${first + 1}: a function of ${last - first + 1} lines`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).toEqual([]);
  });
});
