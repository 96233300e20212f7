import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';

const src = fileURLToPath(new URL('./src/', import.meta.url));

/**
 * The package loads some of its modules the first time they are needed, with require() of an ES
 * module (DECISIONS.md, D-64). Tests run the TypeScript sources through vitest's module runner,
 * which require() does not reach: here each `require('./module.js')` of a source file becomes a
 * static import of that module, so tests see the same code and the same module instances.
 * `test/lazyLoading.test.ts` checks the loading on first use itself, on the built package.
 */
function modulesOnFirstUseAsImports(): Plugin {
  return {
    name: 'modules-on-first-use-as-imports',
    enforce: 'pre',
    transform(code, id) {
      if (!id.startsWith(src) || !id.endsWith('.ts')) return null;
      const imports: string[] = [];
      const out = code.replace(/\brequire\((['"])(\.{1,2}\/[^'"]+\.js)\1\)/g, (_match, _quote: string, specifier: string) => {
        const name = `__firstUse${imports.length}`;
        imports.push(`import * as ${name} from '${specifier}';`);
        return name;
      });
      // On the first line, so that the lines of the source keep their numbers.
      return imports.length ? { code: `${imports.join(' ')} ${out}`, map: null } : null;
    },
  };
}

export default defineConfig({
  plugins: [modulesOnFirstUseAsImports()],
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
