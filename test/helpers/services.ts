// The real stores the replay-store tests run against, started by test/services/run.sh (.ci/run does
// it): their addresses come in environment variables. Without them the tests are skipped, saying
// why, except under CI, where a missing store fails them.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const RUN = fileURLToPath(new URL('../services/run.sh', import.meta.url));
const CI = process.env.CI === 'true' || process.env.CI === '1';

export interface TestService {
  engine: 'redis' | 'postgres';
  url: string | undefined;
  /** Skipped: no server, and not under CI. */
  skip: boolean;
  /** The suite's title, with the reason when it is skipped. */
  title: string;
  /** Its address, or an error saying how to start it (under CI, a missing store fails the tests). */
  require(): string;
  /** Stops it and starts it again, same port, same data (test/services/run.sh restart). */
  restart(): Promise<void>;
}

/** The command that starts a test server of `engine` and sets its variables in the shell. */
export const startCommand = (engine: 'redis' | 'postgres') =>
  `eval "$(test/services/run.sh start ${engine} /tmp/gc-${engine})"`;

/** The words a skipped suite's title ends with; servicesReporter.ts reads them back at the end of the run. */
export const skippedTitle = (title: string, engine: 'redis' | 'postgres') =>
  `${title} (skipped: TEST_${engine === 'redis' ? 'REDIS' : 'POSTGRES'}_URL is not set; start one with ${startCommand(engine)})`;

/** The engine whose server a test's full name says was missing, or undefined. */
export function skippedEngine(fullName: string): 'redis' | 'postgres' | undefined {
  const variable = /\(skipped: TEST_(REDIS|POSTGRES)_URL is not set; /.exec(fullName)?.[1];
  return variable === 'REDIS' ? 'redis' : variable === 'POSTGRES' ? 'postgres' : undefined;
}

export function testService(engine: 'redis' | 'postgres', title: string): TestService {
  const name = engine === 'redis' ? 'REDIS' : 'POSTGRES';
  const url = process.env[`TEST_${name}_URL`] || undefined;
  const dir = process.env[`TEST_${name}_DIR`] || undefined;
  const how = startCommand(engine);
  return {
    engine,
    url,
    skip: !url && !CI,
    title: url || CI ? title : skippedTitle(title, engine),
    require() {
      if (!url) throw new Error(`TEST_${name}_URL is not set: CI starts ${engine} with test/services/run.sh (${how}).`);
      return url;
    },
    async restart() {
      if (!dir) throw new Error(`TEST_${name}_DIR is not set: test/services/run.sh start prints it.`);
      await promisify(execFile)('bash', [RUN, 'restart', engine, dir], { timeout: 30_000 });
    },
  };
}
