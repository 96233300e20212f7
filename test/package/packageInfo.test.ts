// What src/packageInfo.ts states about the package is what package.json says.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PACKAGE_NAME, PACKAGE_VERSION, PRISM_VERSIONS } from '../../src/packageInfo.js';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
  peerDependencies: Record<string, string>;
  overrides: Record<string, string>;
};

describe('the package information in src/', () => {
  it('names the package and its version as package.json does', () => {
    expect({ name: PACKAGE_NAME, version: PACKAGE_VERSION }).toEqual({
      name: manifest.name,
      version: manifest.version,
    });
  });

  it('pins Prism at the versions of the peer dependency and its overrides', () => {
    const fromManifest = {
      '@stoplight/prism-cli': manifest.peerDependencies['@stoplight/prism-cli'],
      ...Object.fromEntries(
        Object.entries(manifest.overrides).filter(([name]) => name.startsWith('@stoplight/prism-')),
      ),
    };
    expect(PRISM_VERSIONS).toEqual(fromManifest);
  });
});
