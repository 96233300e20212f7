// The package's name and version, and the Prism versions its mock is tested with: written here,
// not read from package.json at run time (the package reads none of its own files), and held equal
// to package.json by test/package/packageInfo.test.ts.

export const PACKAGE_NAME = 'gateway-contract';
export const PACKAGE_VERSION = '2.1.0';

/** The Prism packages and versions the mock runs (package.json: the peer dependency and its `overrides`). */
export const PRISM_VERSIONS: Readonly<Record<string, string>> = {
  '@stoplight/prism-cli': '5.14.2',
  '@stoplight/prism-core': '5.8.0',
  '@stoplight/prism-http': '5.12.0',
  '@stoplight/prism-http-server': '5.12.2',
};
