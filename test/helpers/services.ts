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

export function testService(engine: 'redis' | 'postgres', title: string): TestService {
  const name = engine === 'redis' ? 'REDIS' : 'POSTGRES';
  const url = process.env[`TEST_${name}_URL`] || undefined;
  const dir = process.env[`TEST_${name}_DIR`] || undefined;
  const how = `eval "$(test/services/run.sh start ${engine} /tmp/gc-${engine})"`;
  return {
    engine,
    url,
    skip: !url && !CI,
    title: url || CI ? title : `${title} (skipped: TEST_${name}_URL is not set; start one with ${how})`,
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
