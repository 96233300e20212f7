// @ts-nocheck: runs in a fresh project where the packed package is installed (see consumer/checks.mjs).
//
// The sandbox the client checks call, started from the installed package on 127.0.0.1 and a free
// port with its default merchant, key and clientId. Prints `SANDBOX <url>` (and a NOTE line when it
// had to be started from the root entry), then runs until SIGTERM or SIGINT, when it stops.
let startSandbox;
try {
  ({ startSandbox } = await import('gateway-contract/sandbox'));
} catch (error) {
  if (error?.code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw error;
  // A package from before the subpath entries: the sandbox is on the root entry there.
  ({ startSandbox } = await import('gateway-contract'));
  console.log('NOTE gateway-contract/sandbox is not exported; the sandbox was started from the root entry');
}

const sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
console.log(`SANDBOX ${sandbox.url}`);

const stop = () => sandbox.stop().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
