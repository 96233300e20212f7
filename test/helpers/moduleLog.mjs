// `node --import ./test/helpers/moduleLog.mjs ...`: writes the address of every module the ES
// module loader resolves to standard error, one `module: <url>` line each, so that a test can see
// what a program loaded. The hooks run on the loader's own thread: they write with writeSync.
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`import { writeSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  writeSync(2, 'module: ' + result.url + '\\n');
  return result;
}`)}`,
);
