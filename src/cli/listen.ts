// Where a server command listens, one convention for all (docs/decisions.md, D-125): --host and
// --port first, then the command's own environment variables (MOCK_HOST and MOCK_PORT,
// SANDBOX_HOST and SANDBOX_PORT), then older names kept as aliases, then the default. Port 0 picks
// a free port. The names are prefixed because PORT and HOST are often set for something else (a
// platform's web process, a shell's host name).
import { createServer } from 'node:net';
import { wholeNumber } from './options.js';

export interface ListenNames {
  /** The command's variables: `${prefix}_HOST`, `${prefix}_PORT`. */
  prefix: string;
  /** Older names of the same variables, read when the prefixed one is not set. */
  aliases?: { host?: string; port?: string };
  defaultPort: number;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The first variable among `names` set to a value that is not empty. */
export function fromEnv(env: Env, ...names: (string | undefined)[]): string | undefined {
  for (const name of names) {
    const value = name === undefined ? undefined : env[name];
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/** The host and port a server command listens on (port 0: a free one, chosen when it listens). */
export function listenAddress(
  flags: { host?: string | undefined; port?: string | undefined },
  env: Env,
  names: ListenNames,
): { host: string; port: number } {
  const host = flags.host ?? fromEnv(env, `${names.prefix}_HOST`, names.aliases?.host) ?? '127.0.0.1';
  const portText = flags.port ?? fromEnv(env, `${names.prefix}_PORT`, names.aliases?.port);
  const port = wholeNumber(portText, 'port', { max: 65535 }) ?? names.defaultPort;
  return { host, port };
}

/** A port free on `host` now, for a server that must be told its port before it starts (Prism). */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
